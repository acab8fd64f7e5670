package schemadef_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/exec"
	schema "github.com/graftgql/graft/internal/schemadef"
)

type Event struct {
	Name  string
	At    time.Time
	Color Color
	Price Money
	Tags  []string
}

type EventInput struct {
	Name  string
	At    *time.Time
	Color Color `default:"GREEN"`
	Price *Money
	Tags  []string `default:"[]"`
}

type EventArgs struct {
	In    EventInput
	Times *int `default:"1"`
}

func eventSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.Enum(b, "Color", []schema.EnumValueDef[Color]{{Name: "RED", Value: Red}, {Name: "GREEN", Value: Green}})
	schema.Scalar[Money](b, "Money")
	schema.Input[EventInput](b, "EventInput")
	schema.Object[Event](b, "Event")
	schema.Query(b, "echo", func(_ context.Context, a EventArgs) ([]Event, error) {
		e := Event{Name: a.In.Name, Color: a.In.Color, Tags: a.In.Tags}
		if a.In.At != nil {
			e.At = *a.In.At
		}
		if a.In.Price != nil {
			e.Price = *a.In.Price
		}
		out := make([]Event, 0, *a.Times)
		for range *a.Times {
			out = append(out, e)
		}
		return out, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestArgumentsThroughTheExecutor runs documents with literals, variables
// and defaults through internal/exec, checking that coerced values reach
// the resolver's argument struct.
func TestArgumentsThroughTheExecutor(t *testing.T) {
	s := eventSchema(t)
	e := exec.NewModel(s, exec.Options{})
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  string
	}{
		{
			name:  "literal input object with defaults applied",
			query: `{ echo(in: {name: "launch"}) { name color tags } }`,
			want:  `{"data":{"echo":[{"name":"launch","color":"GREEN","tags":[]}]}}`,
		},
		{
			name:  "variables for the input object and a scalar",
			query: `query ($in: EventInput!, $n: Int) { echo(in: $in, times: $n) { name at color price tags } }`,
			vars:  map[string]any{"in": map[string]any{"name": "x", "at": "2025-03-04T05:06:07Z", "color": "RED", "price": 12.5, "tags": []any{"a", "b"}}, "n": 2},
			want: `{"data":{"echo":[{"name":"x","at":"2025-03-04T05:06:07Z","color":"RED","price":12.5,"tags":["a","b"]},` +
				`{"name":"x","at":"2025-03-04T05:06:07Z","color":"RED","price":12.5,"tags":["a","b"]}]}}`,
		},
		{
			name:  "a variable default",
			query: `query ($c: Color = RED) { echo(in: {name: "d", color: $c}) { color } }`,
			want:  `{"data":{"echo":[{"color":"RED"}]}}`,
		},
		{
			name:  "a single tag coerced into a list",
			query: `{ echo(in: {name: "s", tags: "solo"}) { tags } }`,
			want:  `{"data":{"echo":[{"tags":["solo"]}]}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, errs := e.Prepare(tt.query)
			if errs != nil {
				t.Fatalf("prepare: %v", errs)
			}
			op, gerr := doc.Operation("")
			if gerr != nil {
				t.Fatal(gerr)
			}
			vars, errs := e.CoerceVariables(op, tt.vars)
			if errs != nil {
				t.Fatalf("variables: %v", errs)
			}
			if got := string(e.Execute(context.Background(), op, vars, nil, nil)); got != tt.want {
				t.Errorf("response\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestIntrospectionReproducesSDL checks that the schema the executor's
// introspection describes names every type and field of the SDL.
func TestIntrospectionReproducesSDL(t *testing.T) {
	s := eventSchema(t)
	e := exec.NewModel(s, exec.Options{})
	doc, errs := e.Prepare(`{ __schema { types { name fields { name type { name kind ofType { name kind ofType { name kind ofType { name } } } } } inputFields { name defaultValue } } } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	got := string(e.Execute(context.Background(), op, nil, nil, nil))
	for _, ty := range s.Types {
		switch ty.Name {
		case "Int", "Float", "String", "Boolean", "ID":
			continue // built-in scalars are listed when referenced, as graphql-js lists them
		}
		if !strings.Contains(got, fmt.Sprintf(`"name":%q`, ty.Name)) {
			t.Errorf("introspection lacks type %s", ty.Name)
		}
		for _, f := range ty.Fields {
			if !strings.Contains(got, fmt.Sprintf(`"name":%q`, f.Name)) {
				t.Errorf("introspection lacks field %s.%s", ty.Name, f.Name)
			}
		}
	}
	if !strings.Contains(got, `{"name":"color","defaultValue":"GREEN"}`) || !strings.Contains(got, `{"name":"tags","defaultValue":"[]"}`) {
		t.Errorf("input field defaults missing: %s", got)
	}
}
