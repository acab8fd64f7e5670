package validate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft/schema"
	"github.com/graftgql/graft/validate"
)

type constraintArgs struct {
	Input AddBookInput `graphql:"input"`
	Limit *int         `graphql:"limit" validate:"gt=0,lte=50"`
	Web   string       `graphql:"web" validate:"url"`
}

func constraintSchema(t *testing.T, print bool) string {
	t.Helper()
	b := schema.New()
	if print {
		validate.PrintConstraints(b)
	}
	schema.Input[AddBookInput](b, "AddBookInput")
	schema.Input[Extra](b, "Extra")
	schema.Query(b, "find", func(context.Context, constraintArgs) (bool, error) { return true, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s.SDL()
}

func TestPrintConstraints(t *testing.T) {
	sdl := constraintSchema(t, true)
	for _, want := range []string{
		`title: String! @constraint(minLength: 1, maxLength: 200)`,
		`isbn: String! @constraint(minLength: 13, maxLength: 13, pattern: "^[0-9]+$")`,
		`tags: [String!]! @constraint(maxItems: 5)`,
		`rating: Int @constraint(min: 1, max: 5)`,
		`email: String @constraint(format: "email")`,
		`code: String! @constraint(pattern: "^[A-Z]{2,3}$")`,
		`kind: String!` + "\n",
		`find(input: AddBookInput!, limit: Int @constraint(exclusiveMin: 0, max: 50), web: String! @constraint(format: "uri")): Boolean!`,
		`directive @constraint(minLength: Int, maxLength: Int,`,
		`on ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION`,
	} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q:\n%s", want, sdl)
		}
	}
	if plain := constraintSchema(t, false); strings.Contains(plain, "@constraint") {
		t.Errorf("constraints printed without PrintConstraints:\n%s", plain)
	}
}
