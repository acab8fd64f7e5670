package schemadef_test

import (
	"context"
	"strings"
	"testing"

	schema "github.com/graftgql/graft/internal/schemadef"
)

// TestBuildConflicts covers declarations that clash with each other or
// with GraphQL's rules.
func TestBuildConflicts(t *testing.T) {
	tests := []struct {
		name      string
		build     func() *schema.Builder
		typ, fld  string
		substring string
	}{
		{"the same Go type twice", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[plain](b, "One")
			schema.Object[plain](b, "Two")
			return b
		}, "Two", "", "already the Go type of One"},
		{"an object named like a root type", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[plain](b, "Mutation")
			return b
		}, "Mutation", "", "reserved for the root type"},
		{"a required argument that is deprecated", func() *schema.Builder {
			b := schema.New()
			schema.Query(b, "n", func(context.Context, struct {
				X int `deprecated:"old"`
			}) (int, error) {
				return 0, nil
			})
			return b
		}, "Query", "n(x)", "cannot be deprecated"},
		{"an output struct used as an input", func() *schema.Builder {
			b := schema.New()
			schema.Object[plain](b, "plain")
			schema.Query(b, "n", func(context.Context, struct{ P plain }) (plain, error) { return plain{}, nil })
			return b
		}, "Query", "n(p)", "that name is taken"},
		{"an interface argument missing on the object", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Interface[errPet](b, "Pet").Field("name", "String!", schema.Arg("lang", "String"))
			schema.Object[errDog](b, "Dog", schema.Implements("Pet"))
			return b
		}, "Dog", "name", "needs argument lang"},
		{"a nil resolver", func() *schema.Builder {
			b := schema.New()
			schema.QueryNoArgs[string](b, "n", nil)
			return b
		}, "Query", "n", "resolver function is nil"},
		{"an embedded pointer", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[withEmbeddedPtr](b, "E")
			return b
		}, "E", "Address", "embedded pointer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.build().Build()
			if err == nil {
				t.Fatal("Build succeeded, want an error")
			}
			var found bool
			for _, e := range buildErrors(err) {
				if e.Type == tt.typ && e.Field == tt.fld && strings.Contains(e.Message, tt.substring) {
					found = true
				}
			}
			if !found {
				t.Errorf("no BuildError{Type: %q, Field: %q} containing %q in:\n%v", tt.typ, tt.fld, tt.substring, err)
			}
		})
	}
}

type withEmbeddedPtr struct {
	*Address
	Name string
}
