package schemadef_test

import (
	"context"
	"strings"
	"testing"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type NewTodo struct {
	Text     string `description:"What to do."`
	Priority int    `default:"1"`
	Due      *string
	Legacy   *bool `deprecated:"ignored"`
}

func TestInputObjects(t *testing.T) {
	b := withQuery(schema.New())
	schema.Input[NewTodo](b, "TodoInput", schema.Description("A todo to create."))
	schema.Mutation(b, "add", func(_ context.Context, a struct {
		Todo  NewTodo
		Extra []NewTodo
	}) (string, error) {
		return a.Todo.Text, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	in := s.Type("TodoInput")
	if in == nil || in.Kind != schema.InputObjectKind || in.Description != "A todo to create." {
		t.Fatalf("TodoInput = %+v", in)
	}
	if s.Type("NewTodo") != nil {
		t.Errorf("a declared input is not registered again under its Go name")
	}
	var fields []string
	for _, f := range in.InputFields {
		fields = append(fields, f.Name+": "+f.Type.String())
	}
	if got, want := strings.Join(fields, ", "), "text: String!, priority: Int!, due: String, legacy: Boolean"; got != want {
		t.Errorf("fields = %s, want %s", got, want)
	}
	if p := in.InputFields[1]; p.DefaultValue == nil || p.DefaultValue.String() != "1" {
		t.Errorf("priority default = %v", p.DefaultValue)
	}
	if l := in.InputFields[3]; !l.Deprecated || l.DeprecationReason != "ignored" {
		t.Errorf("legacy = %+v", l)
	}
	add := s.Mutation.Field("add")
	if got := add.Args[0].Type.String() + " " + add.Args[1].Type.String(); got != "TodoInput! [TodoInput!]!" {
		t.Errorf("add args = %s", got)
	}
	for _, want := range []string{`"""A todo to create."""`, "input TodoInput {", `legacy: Boolean @deprecated(reason: "ignored")`, "priority: Int! = 1"} {
		if !strings.Contains(s.SDL(), want) {
			t.Errorf("SDL lacks %q:\n%s", want, s.SDL())
		}
	}
	p, err := add.NewArgs(map[string]any{"todo": map[string]any{"text": "write", "priority": int64(2)}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := add.Resolve(context.Background(), nil, p)
	if err != nil || *(*string)(out) != "write" {
		t.Errorf("add = %v, %v", out, err)
	}
	if _, err := add.NewArgs(map[string]any{"todo": "not an object"}); err == nil {
		t.Errorf("a non-object input value should fail")
	}
}
