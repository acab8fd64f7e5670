package exec

import (
	"testing"
)

func TestIntrospectionFields(t *testing.T) {
	e := newEngine(loadSDL(t, richSDL), nil, nil, nil, Options{})
	tests := []struct {
		name, query, want string
	}{
		{
			name:  "deprecated fields hidden by default",
			query: `{ __type(name: "Query") { fields { name } } }`,
			want:  `{"data":{"__type":{"fields":[{"name":"hero"},{"name":"search"},{"name":"when"}]}}}`,
		},
		{
			name:  "deprecated fields and reasons on request",
			query: `{ __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
			want: `{"data":{"__type":{"fields":[{"name":"hero","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"search","isDeprecated":false,"deprecationReason":null},{"name":"when","isDeprecated":false,"deprecationReason":null},` +
				`{"name":"legacy","isDeprecated":true,"deprecationReason":"No longer supported"}]}}}`,
		},
		{
			name:  "deprecated arguments and enum values",
			query: `{ q: __type(name: "Query") { fields { name args(includeDeprecated: true) { name isDeprecated } } } e: __type(name: "Episode") { enumValues { name } } }`,
			want: `{"data":{"q":{"fields":[{"name":"hero","args":[{"name":"episode","isDeprecated":false},{"name":"filter","isDeprecated":false}]},` +
				`{"name":"search","args":[{"name":"text","isDeprecated":false},{"name":"old","isDeprecated":true}]},{"name":"when","args":[]}]},` +
				`"e":{"enumValues":[{"name":"NEWHOPE"},{"name":"EMPIRE"}]}}}`,
		},
		{
			name:  "wrapped types",
			query: `{ __type(name: "Query") { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`,
			want: `{"data":{"__type":{"fields":[{"name":"hero","type":{"kind":"INTERFACE","name":"Character","ofType":null}},` +
				`{"name":"search","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"NON_NULL","name":null,"ofType":{"kind":"UNION","name":"SearchResult"}}}}},` +
				`{"name":"when","type":{"kind":"SCALAR","name":"DateTime","ofType":null}}]}}}`,
		},
		{
			name:  "scalar with specifiedByURL and a type that does not exist",
			query: `{ d: __type(name: "DateTime") { kind description specifiedByURL fields { name } } none: __type(name: "Nope") { name } }`,
			want:  `{"data":{"d":{"kind":"SCALAR","description":"A moment, in RFC 3339.","specifiedByURL":"https://tools.ietf.org/html/rfc3339","fields":null},"none":null}}`,
		},
		{
			name:  "input object with defaults and oneOf",
			query: `{ f: __type(name: "Filter") { isOneOf inputFields { name defaultValue } } n: __type(name: "Nested") { isOneOf } }`,
			want: `{"data":{"f":{"isOneOf":false,"inputFields":[{"name":"tags","defaultValue":"[]"},{"name":"limit","defaultValue":"10"},{"name":"nested","defaultValue":null}]},` +
				`"n":{"isOneOf":true}}}`,
		},
		{
			name:  "repeatable directive",
			query: `{ __schema { directives { name isRepeatable locations } } }`,
			want: `{"data":{"__schema":{"directives":[{"name":"cached","isRepeatable":true,"locations":["FIELD_DEFINITION","OBJECT"]},` +
				`{"name":"include","isRepeatable":false,"locations":["FIELD","FRAGMENT_SPREAD","INLINE_FRAGMENT"]},` +
				`{"name":"skip","isRepeatable":false,"locations":["FIELD","FRAGMENT_SPREAD","INLINE_FRAGMENT"]},` +
				`{"name":"deprecated","isRepeatable":false,"locations":["FIELD_DEFINITION","ARGUMENT_DEFINITION","INPUT_FIELD_DEFINITION","ENUM_VALUE","DIRECTIVE_DEFINITION"]},` +
				`{"name":"specifiedBy","isRepeatable":false,"locations":["SCALAR"]},` +
				`{"name":"oneOf","isRepeatable":false,"locations":["INPUT_OBJECT"]}]}}}`,
		},
		{
			name:  "variables in introspection arguments",
			query: `query Q($t: String!, $all: Boolean!) { __type(name: $t) { enumValues(includeDeprecated: $all) { name } } }`,
			want:  `{"data":{"__type":{"enumValues":[{"name":"NEWHOPE"},{"name":"EMPIRE"},{"name":"JEDI"}]}}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runQuery(t, e, tc.query, map[string]any{"t": "Episode", "all": true})
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
