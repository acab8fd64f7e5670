package exec_test

import (
	"context"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

// TestGraphQLJSFidelity checks answers against graphql-js 16.15's own,
// copied from its output for the same schema and documents.
func TestGraphQLJSFidelity(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "a", func(context.Context) (*int, error) { return nil, nil })
	b.DeclareDirective(schema.DirectiveDef{Name: "old", Locations: []schema.DirectiveLocation{schema.LocationFieldDefinition},
		Deprecated: "Use @new."})
	b.DeclareDirective(schema.DirectiveDef{Name: "new", Locations: []schema.DirectiveLocation{schema.LocationFieldDefinition}})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	for _, tc := range []struct{ query, want string }{
		{`subscription { a }`, `{"errors":[{"message":"Schema is not configured to execute subscription operation.","locations":[{"line":1,"column":1}],"extensions":{"code":"OPERATION_NOT_SUPPORTED"}}],"data":null}`},
		{`mutation M { a }`, `{"errors":[{"message":"Schema is not configured to execute mutation operation.","locations":[{"line":1,"column":1}],"extensions":{"code":"OPERATION_NOT_SUPPORTED"}}],"data":null}`},
		{`{ __schema { directives { name isDeprecated deprecationReason } } }`,
			`{"data":{"__schema":{"directives":[{"name":"new","isDeprecated":false,"deprecationReason":null},{"name":"include","isDeprecated":false,"deprecationReason":null},{"name":"skip","isDeprecated":false,"deprecationReason":null},{"name":"deprecated","isDeprecated":false,"deprecationReason":null},{"name":"specifiedBy","isDeprecated":false,"deprecationReason":null},{"name":"oneOf","isDeprecated":false,"deprecationReason":null}]}}}`},
		{`{ __schema { directives(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
			`{"data":{"__schema":{"directives":[{"name":"new","isDeprecated":false,"deprecationReason":null},{"name":"old","isDeprecated":true,"deprecationReason":"Use @new."},{"name":"include","isDeprecated":false,"deprecationReason":null},{"name":"skip","isDeprecated":false,"deprecationReason":null},{"name":"deprecated","isDeprecated":false,"deprecationReason":null},{"name":"specifiedBy","isDeprecated":false,"deprecationReason":null},{"name":"oneOf","isDeprecated":false,"deprecationReason":null}]}}}`},
	} {
		doc, errs := e.Prepare(tc.query)
		if errs != nil {
			t.Fatalf("%s: %v", tc.query, errs)
		}
		op, gerr := doc.Operation("")
		if gerr != nil {
			t.Fatal(gerr)
		}
		if got := string(e.Execute(context.Background(), op, nil, nil, nil)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, got, tc.want)
		}
	}
}
