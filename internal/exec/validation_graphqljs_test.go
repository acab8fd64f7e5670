package exec_test

import (
	"reflect"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// jsError is a validation error as graphql-js gives it.
type jsError struct {
	message   string
	locations []gqlerror.Location
}

// TestValidationErrorsAsGraphQLJS: the validation errors of the Star Wars
// schema carry graphql-js 16.15's messages and locations, in its order
// (the expectations were produced by graphql-js's validate; the
// differential test in e2e/ checks the same against a live graphql-js).
func TestValidationErrorsAsGraphQLJS(t *testing.T) {
	e := starwarsEngine(t, exec.Options{})
	tests := []struct {
		query string
		want  []jsError
	}{
		{"{ hero { ... @defer { name } } }", []jsError{{"Unknown directive \"@defer\".", []gqlerror.Location{{Line: 1, Column: 14}}}}},
		{"{ hero { name @defer } }", []jsError{{"Unknown directive \"@defer\".", []gqlerror.Location{{Line: 1, Column: 15}}}}},
		{"schema { query: Query }", []jsError{{"The schema definition is not executable.", []gqlerror.Location{{Line: 1, Column: 1}}}}},
		{"type Foo { a: Int }", []jsError{{"The \"Foo\" definition is not executable.", []gqlerror.Location{{Line: 1, Column: 1}}}}},
		{"extend type Query { a: Int }", []jsError{{"The \"Query\" definition is not executable.", []gqlerror.Location{{Line: 1, Column: 1}}}}},
		{"{ heroo { name } }", []jsError{{"Cannot query field \"heroo\" on type \"Query\". Did you mean \"hero\"?", []gqlerror.Location{{Line: 1, Column: 3}}}}},
		{"{ hero { nam } }", []jsError{{"Cannot query field \"nam\" on type \"Character\". Did you mean \"name\"?", []gqlerror.Location{{Line: 1, Column: 10}}}}},
		{"{ hero { primaryFunction } }", []jsError{{"Cannot query field \"primaryFunction\" on type \"Character\". Did you mean to use an inline fragment on \"Droid\"?", []gqlerror.Location{{Line: 1, Column: 10}}}}},
		{"{ hero(episod: EMPIRE) { name } }", []jsError{{"Unknown argument \"episod\" on field \"Query.hero\". Did you mean \"episode\"?", []gqlerror.Location{{Line: 1, Column: 8}}}}},
		{"{ hero(episode: EMPIR) { name } }", []jsError{{"Value \"EMPIR\" does not exist in \"Episode\" enum. Did you mean the enum value \"EMPIRE\"?", []gqlerror.Location{{Line: 1, Column: 17}}}}},
		{"{ hero(episode: \"EMPIRE\") { name } }", []jsError{{"Enum \"Episode\" cannot represent non-enum value: \"EMPIRE\". Did you mean the enum value \"EMPIRE\"?", []gqlerror.Location{{Line: 1, Column: 17}}}}},
		{"{ hero(episode: 5) { name } }", []jsError{{"Enum \"Episode\" cannot represent non-enum value: 5.", []gqlerror.Location{{Line: 1, Column: 17}}}}},
		{"{ human { name } }", []jsError{{"Field \"human\" argument \"id\" of type \"String!\" is required, but it was not provided.", []gqlerror.Location{{Line: 1, Column: 3}}}}},
		{"{ human(id: 1000) { name } }", []jsError{{"String cannot represent a non string value: 1000", []gqlerror.Location{{Line: 1, Column: 13}}}}},
		{"{ human(id: null) { name } }", []jsError{{"Expected value of type \"String!\", found null.", []gqlerror.Location{{Line: 1, Column: 13}}}}},
		{"{ hero }", []jsError{{"Field \"hero\" of type \"Character\" must have a selection of subfields. Did you mean \"hero { ... }\"?", []gqlerror.Location{{Line: 1, Column: 3}}}}},
		{"{ hero { name { first } } }", []jsError{{"Field \"name\" must not have a selection since type \"String\" has no subfields.", []gqlerror.Location{{Line: 1, Column: 15}}}}},
		{"{ hero { ...F } }", []jsError{{"Unknown fragment \"F\".", []gqlerror.Location{{Line: 1, Column: 13}}}}},
		{"{ hero { ...F } } fragment F on Character { name } fragment F on Character { id }", []jsError{{"There can be only one fragment named \"F\".", []gqlerror.Location{{Line: 1, Column: 28}, {Line: 1, Column: 61}}}}},
		{"fragment F on Character { name } { hero { name } }", []jsError{{"Fragment \"F\" is never used.", []gqlerror.Location{{Line: 1, Column: 1}}}}},
		{"{ hero { ...F } } fragment F on Foo { name }", []jsError{{"Unknown type \"Foo\".", []gqlerror.Location{{Line: 1, Column: 33}}}}},
		{"{ hero { ...F } } fragment F on Episode { name }", []jsError{{"Fragment \"F\" cannot condition on non composite type \"Episode\".", []gqlerror.Location{{Line: 1, Column: 33}}}}},
		{"{ hero { ... on Foo { name } } }", []jsError{{"Unknown type \"Foo\".", []gqlerror.Location{{Line: 1, Column: 17}}}}},
		{"{ hero { ... on Episode { name } } }", []jsError{{"Fragment cannot condition on non composite type \"Episode\".", []gqlerror.Location{{Line: 1, Column: 17}}}}},
		{"{ droid(id: \"2000\") { ... on Human { name } } }", []jsError{{"Fragment cannot be spread here as objects of type \"Droid\" can never be of type \"Human\".", []gqlerror.Location{{Line: 1, Column: 23}}}}},
		{"{ hero { ...F } } fragment F on Character { ...G } fragment G on Character { ...F }", []jsError{{"Cannot spread fragment \"F\" within itself via \"G\".", []gqlerror.Location{{Line: 1, Column: 45}, {Line: 1, Column: 78}}}}},
		{"query Q { hero(episode: $e) { name } }", []jsError{{"Variable \"$e\" is not defined by operation \"Q\".", []gqlerror.Location{{Line: 1, Column: 25}, {Line: 1, Column: 1}}}}},
		{"query Q($e: String) { hero(episode: $e) { name } }", []jsError{{"Variable \"$e\" of type \"String\" used in position expecting type \"Episode\".", []gqlerror.Location{{Line: 1, Column: 9}, {Line: 1, Column: 37}}}}},
		{"query Q($e: Episode, $e: Episode) { hero(episode: $e) { name } }", []jsError{{"There can be only one variable named \"$e\".", []gqlerror.Location{{Line: 1, Column: 10}, {Line: 1, Column: 23}}}}},
		{"query Q { hero { name } } query Q { hero { id } }", []jsError{{"There can be only one operation named \"Q\".", []gqlerror.Location{{Line: 1, Column: 7}, {Line: 1, Column: 33}}}}},
		{"{ hero { name } } { hero { id } }", []jsError{{"This anonymous operation must be the only defined operation.", []gqlerror.Location{{Line: 1, Column: 1}}}, {"This anonymous operation must be the only defined operation.", []gqlerror.Location{{Line: 1, Column: 19}}}}},
		{"query Q($e: Character) { hero { name } }", []jsError{{"Variable \"$e\" cannot be non-input type \"Character\".", []gqlerror.Location{{Line: 1, Column: 13}}}, {"Variable \"$e\" is never used in operation \"Q\".", []gqlerror.Location{{Line: 1, Column: 9}}}}},
		{"query Q($e: Foo) { hero { name } }", []jsError{{"Unknown type \"Foo\".", []gqlerror.Location{{Line: 1, Column: 13}}}, {"Variable \"$e\" is never used in operation \"Q\".", []gqlerror.Location{{Line: 1, Column: 9}}}}},
		{"{ hero { name @foo } }", []jsError{{"Unknown directive \"@foo\".", []gqlerror.Location{{Line: 1, Column: 15}}}}},
		{"{ hero { name @skip } }", []jsError{{"Directive \"@skip\" argument \"if\" of type \"Boolean!\" is required, but it was not provided.", []gqlerror.Location{{Line: 1, Column: 15}}}}},
		{"{ hero { name @skip(if: true) @skip(if: false) } }", []jsError{{"The directive \"@skip\" can only be used once at this location.", []gqlerror.Location{{Line: 1, Column: 15}, {Line: 1, Column: 31}}}}},
		{"{ hero @include(if: true, if: false) { name } }", []jsError{{"There can be only one argument named \"if\".", []gqlerror.Location{{Line: 1, Column: 17}, {Line: 1, Column: 27}}}}},
		{"{ hero(episode: EMPIRE, episode: JEDI) { name } }", []jsError{{"There can be only one argument named \"episode\".", []gqlerror.Location{{Line: 1, Column: 8}, {Line: 1, Column: 25}}}}},
		{"{ hero { name: id } hero { name } }", []jsError{{"Fields \"hero\" conflict because subfields \"name\" conflict because \"id\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional.", []gqlerror.Location{{Line: 1, Column: 3}, {Line: 1, Column: 10}, {Line: 1, Column: 21}, {Line: 1, Column: 28}}}}},
		{"{ hero { name } hero: human(id: \"1000\") { name } }", []jsError{{"Fields \"hero\" conflict because \"hero\" and \"human\" are different fields. Use different aliases on the fields to fetch both if this was intentional.", []gqlerror.Location{{Line: 1, Column: 3}, {Line: 1, Column: 17}}}}},
		{"{ a: hero(episode: EMPIRE) { name } a: hero(episode: JEDI) { name } }", []jsError{{"Fields \"a\" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.", []gqlerror.Location{{Line: 1, Column: 3}, {Line: 1, Column: 37}}}}},
		{"query @skip(if: true) { hero { name } }", []jsError{{"Directive \"@skip\" may not be used on QUERY.", []gqlerror.Location{{Line: 1, Column: 7}}}}},
		{"{ hero { name } } fragment F on Character { name }", []jsError{{"Fragment \"F\" is never used.", []gqlerror.Location{{Line: 1, Column: 19}}}}},
		{"query Q($e: Episode = \"EMPIRE\") { hero(episode: $e) { name } }", []jsError{{"Enum \"Episode\" cannot represent non-enum value: \"EMPIRE\". Did you mean the enum value \"EMPIRE\"?", []gqlerror.Location{{Line: 1, Column: 23}}}}},
		{"query Q($id: String) { human(id: $id) { name } }", []jsError{{"Variable \"$id\" of type \"String\" used in position expecting type \"String!\".", []gqlerror.Location{{Line: 1, Column: 9}, {Line: 1, Column: 34}}}}},
		{"{ hero(episode: EMPIRE) { friends(first: 1) { name } } }", []jsError{{"Unknown argument \"first\" on field \"Character.friends\".", []gqlerror.Location{{Line: 1, Column: 35}}}}},
		{"{ __type { name } }", []jsError{{"Field \"__type\" argument \"name\" of type \"String!\" is required, but it was not provided.", []gqlerror.Location{{Line: 1, Column: 3}}}}},
		{"{ __type(name: 1) { name } }", []jsError{{"String cannot represent a non string value: 1", []gqlerror.Location{{Line: 1, Column: 16}}}}},
		{"{ __schema { types { nam } } }", []jsError{{"Cannot query field \"nam\" on type \"__Type\". Did you mean \"name\"?", []gqlerror.Location{{Line: 1, Column: 22}}}}},
		{"{ hero { ... on Droid { friends { name } } ... on Human { friends: appearsIn } } }", []jsError{{"Fields \"friends\" conflict because they return conflicting types \"[Character]\" and \"[Episode]\". Use different aliases on the fields to fetch both if this was intentional.", []gqlerror.Location{{Line: 1, Column: 25}, {Line: 1, Column: 59}}}}},
		{"{ human(id: \"1000\", id: \"1001\") { name } }", []jsError{{"There can be only one argument named \"id\".", []gqlerror.Location{{Line: 1, Column: 9}, {Line: 1, Column: 21}}}}},
		{"{ hero { ...F } } fragment F on Character { ...F }", []jsError{{"Cannot spread fragment \"F\" within itself.", []gqlerror.Location{{Line: 1, Column: 45}}}}},
		{"query Q($e: [Episode]) { hero(episode: $e) { name } }", []jsError{{"Variable \"$e\" of type \"[Episode]\" used in position expecting type \"Episode\".", []gqlerror.Location{{Line: 1, Column: 9}, {Line: 1, Column: 40}}}}},
		{"query Q($e: [Episode]) { __typename }", []jsError{{"Variable \"$e\" is never used in operation \"Q\".", []gqlerror.Location{{Line: 1, Column: 9}}}}},
		{"{ hero(episode: EMPIRE) { friends { name: id } } hero(episode: EMPIRE) { friends { name } } }", []jsError{{"Fields \"hero\" conflict because subfields \"friends\" conflict because subfields \"name\" conflict because \"id\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional.", []gqlerror.Location{{Line: 1, Column: 3}, {Line: 1, Column: 27}, {Line: 1, Column: 37}, {Line: 1, Column: 50}, {Line: 1, Column: 74}, {Line: 1, Column: 84}}}}},
		{"{ a: hero { ... on Droid { x: name } } a: hero { ... on Droid { x: primaryFunction } } }", []jsError{{"Fields \"a\" conflict because subfields \"x\" conflict because \"name\" and \"primaryFunction\" are different fields. Use different aliases on the fields to fetch both if this was intentional.", []gqlerror.Location{{Line: 1, Column: 3}, {Line: 1, Column: 28}, {Line: 1, Column: 40}, {Line: 1, Column: 65}}}}},
		{"{ hero { friends { friends { n: name } } } hero { friends { friends { n: id } } } }", []jsError{{"Fields \"hero\" conflict because subfields \"friends\" conflict because subfields \"friends\" conflict because subfields \"n\" conflict because \"name\" and \"id\" are different fields. Use different aliases on the fields to fetch both if this was intentional.", []gqlerror.Location{{Line: 1, Column: 3}, {Line: 1, Column: 10}, {Line: 1, Column: 20}, {Line: 1, Column: 30}, {Line: 1, Column: 44}, {Line: 1, Column: 51}, {Line: 1, Column: 61}, {Line: 1, Column: 71}}}}},
	}
	for _, tt := range tests {
		_, errs := e.Prepare(tt.query)
		var got []jsError
		for _, ge := range errs {
			got = append(got, jsError{ge.Message, ge.Locations})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s\ngot  %+v\nwant %+v", tt.query, got, tt.want)
		}
	}
}
