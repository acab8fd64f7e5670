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
	b.DeclareDirective(schemadef.DirectiveDef{Name: "mark", Args: "level: Int = 1", Repeatable: true,
		Locations: []schemadef.DirectiveLocation{"OBJECT", "INTERFACE", "FIELD_DEFINITION"}, Printing: schemadef.DirectiveSubgraphOnly})
	b.DeclareDirective(schemadef.DirectiveDef{Name: "linked", Locations: []schemadef.DirectiveLocation{"OBJECT"}, Printing: schemadef.DirectiveLinked})
	schemadef.Interface[dirNode](b, "Node", schemadef.Directive("mark", "level: 2")).
		Field("id", "String!", schemadef.Directive("mark", ""))
	thing := schemadef.Object[dirThing](b, "Thing", schemadef.Implements("Node"), schemadef.Extension(),
		schemadef.Directive("mark", ""), schemadef.Directive("mark", "level: 3"), schemadef.Directive("linked", ""),
		schemadef.OnField("name", schemadef.Directive("mark", "level: 4")))
	schemadef.FieldFuncNoArgs(thing, "shout", func(_ context.Context, d *dirThing) (string, error) { return d.Name, nil },
		schemadef.Directive("mark", "level: 5"))
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

extend type Thing implements Node @mark @mark(level: 3) @linked {
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
	if strings.Contains(s.SDL(), "@mark") || strings.Contains(s.SDL(), "@linked") {
		t.Errorf("the schema's SDL carries applied directives:\n%s", s.SDL())
	}
	if d := s.Type("Thing").Field("name").Directives; len(d) != 1 || d[0].Format() != "@mark(level: 4)" {
		t.Errorf("Thing.name directives = %v", d)
	}
}

func TestDirectivePrintingPlaces(t *testing.T) {
	b := schemadef.New()
	b.DeclareDirective(schemadef.DirectiveDef{Name: "upper", Locations: []schemadef.DirectiveLocation{"FIELD_DEFINITION"}})
	b.DeclareDirective(schemadef.DirectiveDef{Name: "audit", Args: "level: Int", Locations: []schemadef.DirectiveLocation{"FIELD_DEFINITION"},
		Printing: schemadef.DirectiveSubgraphOnly})
	schemadef.QueryNoArgs(b, "name", func(context.Context) (string, error) { return "ann", nil },
		schemadef.Directive("upper", ""), schemadef.Directive("audit", "level: 1"))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	const own = "type Query {\n  name: String! @upper\n}\n\ndirective @upper on FIELD_DEFINITION\n"
	if s.SDL() != own {
		t.Errorf("SDL =\n%s\nwant\n%s", s.SDL(), own)
	}
	const sub = "directive @audit(level: Int) on FIELD_DEFINITION\n\ndirective @upper on FIELD_DEFINITION\n\n" +
		"type Query {\n  name: String! @upper @audit(level: 1)\n}\n"
	if got := s.Print(schemadef.PrintOptions{Directives: true}); got != sub {
		t.Errorf("subgraph SDL =\n%s\nwant\n%s", got, sub)
	}

	b = schemadef.New()
	schemadef.QueryNoArgs(b, "name", func(context.Context) (string, error) { return "ann", nil },
		schemadef.Directive("uper", ""))
	if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "directive @uper is applied but not declared") {
		t.Errorf("undeclared directive: %v", err)
	}
}
