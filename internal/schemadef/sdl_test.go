package schemadef_test

import (
	"context"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type Note struct {
	Text string `description:"Line one\nline two"`
	Tone string `description:"ends with a \"quote\""`
	Old  *int   `deprecated:""`
}

type NoteArgs struct {
	Limit *int `default:"5" description:"How many."`
	Tag   *string
}

func noteBuilder() *schema.Builder {
	b := schema.New()
	schema.Query(b, "notes", func(context.Context, NoteArgs) ([]Note, error) { return nil, nil },
		schema.Description("All the notes."))
	schema.Object[Note](b, "Note", schema.Description(`A "note".`))
	return b
}

const noteSDL = `"""A "note"."""
type Note {
  "Line one\nline two"
  text: String!
  "ends with a \"quote\""
  tone: String!
  old: Int @deprecated
}

type Query {
  """All the notes."""
  notes(
    """How many."""
    limit: Int = 5
    tag: String
  ): [Note!]!
}
`

func TestSDLGolden(t *testing.T) {
	s, err := noteBuilder().Build()
	if err != nil {
		t.Fatal(err)
	}
	if s.SDL() != noteSDL {
		t.Errorf("SDL\n%s\nwant\n%s", s.SDL(), noteSDL)
	}
	note := s.AST().Types["Note"]
	if note.Description != `A "note".` || note.Fields.ForName("text").Description != "Line one\nline two" {
		t.Errorf("descriptions do not survive the SDL: %q %q", note.Description, note.Fields.ForName("text").Description)
	}
}

func TestSDLDeterministic(t *testing.T) {
	builders := map[string]func() *schema.Builder{
		"notes":  noteBuilder,
		"shapes": func() *schema.Builder { return shapeBuilder() },
		"colors": colorBuilder,
	}
	for name, build := range builders {
		t.Run(name, func(t *testing.T) {
			first, err := build().Build()
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				again, err := build().Build()
				if err != nil {
					t.Fatal(err)
				}
				if again.SDL() != first.SDL() {
					t.Fatalf("SDL differs between builds:\n%s\n---\n%s", first.SDL(), again.SDL())
				}
			}
		})
	}
}

// TestSDLRoundTrip loads the printed SDL in gqlparser and checks that
// every type, field, argument and enum value of the model is there with
// the same type, default and description.
func TestSDLRoundTrip(t *testing.T) {
	for name, build := range map[string]func() *schema.Builder{
		"notes": noteBuilder, "shapes": func() *schema.Builder { return shapeBuilder() }, "colors": colorBuilder,
	} {
		t.Run(name, func(t *testing.T) {
			s, err := build().Build()
			if err != nil {
				t.Fatal(err)
			}
			loaded, gerr := gqlparser.LoadSchema(&ast.Source{Input: s.SDL()})
			if gerr != nil {
				t.Fatal(gerr)
			}
			for _, ty := range s.Types {
				def := loaded.Types[ty.Name]
				if def == nil {
					t.Errorf("type %s missing", ty.Name)
					continue
				}
				if ty.Kind.String() != string(def.Kind) {
					t.Errorf("%s: kind %s vs %s", ty.Name, ty.Kind, def.Kind)
				}
				if ty.Description != def.Description && !def.BuiltIn {
					t.Errorf("%s: description %q vs %q", ty.Name, ty.Description, def.Description)
				}
				for _, f := range ty.Fields {
					fd := def.Fields.ForName(f.Name)
					if fd == nil || fd.Type.String() != f.Type.String() || fd.Description != f.Description {
						t.Errorf("%s.%s does not match %+v", ty.Name, f.Name, fd)
						continue
					}
					for _, a := range f.Args {
						ad := fd.Arguments.ForName(a.Name)
						if ad == nil || ad.Type.String() != a.Type.String() || ad.Description != a.Description ||
							(a.DefaultValue == nil) != (ad.DefaultValue == nil) ||
							a.DefaultValue != nil && a.DefaultValue.String() != ad.DefaultValue.String() {
							t.Errorf("%s.%s(%s) does not match", ty.Name, f.Name, a.Name)
						}
					}
				}
				for _, v := range ty.EnumValues {
					vd := def.EnumValues.ForName(v.Name)
					if vd == nil || vd.Description != v.Description || (vd.Directives.ForName("deprecated") != nil) != v.Deprecated {
						t.Errorf("%s.%s does not match", ty.Name, v.Name)
					}
				}
				for _, f := range ty.InputFields {
					fd := def.Fields.ForName(f.Name)
					if fd == nil || fd.Type.String() != f.Type.String() {
						t.Errorf("%s.%s does not match", ty.Name, f.Name)
					}
				}
			}
		})
	}
}
