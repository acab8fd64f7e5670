package schemadef_test

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/schemadef"
)

type dirNode interface{ isNode() }

type dirThing struct {
	ID   string `graphql:"id"`
	Name string `graphql:"name"`
}

func (dirThing) isNode() {}

func TestPrintAppliedDirectives(t *testing.T) {
	b := schemadef.New()
	b.DirectiveDefinition("  directive @mark(level: Int = 1) repeatable on OBJECT | INTERFACE | FIELD_DEFINITION\n")
	schemadef.Interface[dirNode](b, "Node", schemadef.SubgraphDirective(`@mark(level: 2)`)).
		Field("id", "String!", schemadef.SubgraphDirective("@mark"))
	thing := schemadef.Object[dirThing](b, "Thing", schemadef.Implements("Node"), schemadef.Extension(),
		schemadef.SubgraphDirective(`@mark @mark(level: 3)`), schemadef.OnField("name", schemadef.SubgraphDirective(`@mark(level: 4)`)))
	schemadef.FieldFuncNoArgs(thing, "shout", func(_ context.Context, d *dirThing) (string, error) { return d.Name, nil },
		schemadef.SubgraphDirective(`@mark(level: 5)`))
	schemadef.QueryNoArgs(b, "thing", func(context.Context) (dirThing, error) { return dirThing{}, nil })
	schemadef.QueryNoArgs(b, "hidden", func(context.Context) (bool, error) { return true, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	got := s.Print(schemadef.PrintOptions{
		Header:     "extend schema @mark",
		Directives: true,
		Omit:       func(typeName, field string) bool { return field == "hidden" },
	})
	const want = `extend schema @mark

directive @mark(level: Int = 1) repeatable on OBJECT | INTERFACE | FIELD_DEFINITION

interface Node @mark(level: 2) {
  id: String! @mark
}

type Query {
  thing: Thing!
}

extend type Thing implements Node @mark @mark(level: 3) {
  id: String!
  name: String! @mark(level: 4)
  shout: String! @mark(level: 5)
}
`
	if got != want {
		t.Errorf("Print =\n%s\nwant\n%s", got, want)
	}
	if plain := s.Print(schemadef.PrintOptions{}); plain != s.SDL() {
		t.Errorf("Print without options differs from SDL:\n%s\n---\n%s", plain, s.SDL())
	}
	if strings.Contains(s.SDL(), "@mark") {
		t.Errorf("the schema's SDL carries applied directives:\n%s", s.SDL())
	}
	if d := s.Type("Thing").Field("name").SubgraphDirectives; len(d) != 1 || schemadef.FormatDirective(d[0]) != "@mark(level: 4)" {
		t.Errorf("Thing.name directives = %v", d)
	}
}
