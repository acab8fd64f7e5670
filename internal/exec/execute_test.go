package exec_test

import (
	"context"
	"strconv"
	"testing"
)

func TestExecute(t *testing.T) {
	tests := []struct {
		name  string
		query string
		op    string
		vars  map[string]any
		want  string
		wide  bool // needs an int wider than 32 bits
	}{
		{
			name:  "scalar root field and typename",
			query: `{ hello __typename }`,
			want:  `{"data":{"hello":"world","__typename":"Query"}}`,
		},
		{
			name:  "aliases and merged fields keep first-seen order",
			query: `{ b: hello a: maybe b: hello }`,
			want:  `{"data":{"b":"world","a":"maybe"}}`,
		},
		{
			name:  "error inside a list of nullable items has the index in its path",
			query: `{ items { id name } }`,
			want: `{"errors":[{"message":"bad item","locations":[{"line":1,"column":14}],"path":["items",1,"name"]}],` +
				`"data":{"items":[{"id":"1","name":"item 1"},null,null,{"id":"3","name":"item 3"}]}}`,
		},
		{
			name:  "null in a non-null item nulls the nullable list",
			query: `{ strictItems { name } }`,
			want: `{"errors":[{"message":"bad item","locations":[{"line":1,"column":17}],"path":["strictItems",1,"name"]}],` +
				`"data":{"strictItems":null}}`,
		},
		{
			name:  "null in a non-null list propagates to the nullable parent object",
			query: `{ hello wrapper { items { name } } }`,
			want: `{"errors":[{"message":"bad item","locations":[{"line":1,"column":27}],"path":["wrapper","items",1,"name"]}],` +
				`"data":{"hello":"world","wrapper":null}}`,
		},
		{
			name:  "fragments on an interface",
			query: `{ pets { __typename name ... on Dog { barks } ...CatFields } } fragment CatFields on Cat { lives }`,
			want:  `{"data":{"pets":[{"__typename":"Dog","name":"Rex","barks":true},{"__typename":"Cat","name":"Tom","lives":9}]}}`,
		},
		{
			name:  "fragments on a union",
			query: `{ animals { ... on Pet { name } ... on Cat { lives } ... on Dog { __typename } } }`,
			want:  `{"data":{"animals":[{"name":"Tom","lives":9},{"name":"Rex","__typename":"Dog"}]}}`,
		},
		{
			name:  "skip and include with variables",
			query: `query Q($yes: Boolean!, $no: Boolean!) { a: hello @include(if: $yes) b: hello @include(if: $no) c: hello @skip(if: $yes) d: hello @skip(if: $no) }`,
			vars:  map[string]any{"yes": true, "no": false},
			want:  `{"data":{"a":"world","d":"world"}}`,
		},
		{
			name:  "a field included by one of its occurrences",
			query: `query Q($no: Boolean!) { hello @include(if: $no) ... @include(if: true) { hello } }`,
			vars:  map[string]any{"no": false},
			want:  `{"data":{"hello":"world"}}`,
		},
		{
			name:  "constant skip and include",
			query: `{ a: hello @skip(if: true) b: hello @include(if: false) c: hello @include(if: true) }`,
			want:  `{"data":{"c":"world"}}`,
		},
		{
			name:  "variable defaults and input objects with defaults",
			query: `query Q($text: String = "hi", $color: Color) { echo(input: {text: $text, color: $color}) }`,
			vars:  map[string]any{"color": "RED"},
			want:  `{"data":{"echo":"hi x2 color=red tags=[x]"}}`,
		},
		{
			name:  "input object as a variable",
			query: `query Q($in: EchoInput!) { echo(input: $in, times: 3) }`,
			vars:  map[string]any{"in": map[string]any{"text": "yo", "tags": []any{"a", "b"}}},
			want:  `{"data":{"echo":"yo x3 color=none tags=[a b]"}}`,
		},
		{
			name:  "argument variable in a list",
			query: `query Q($only: String) { pets(only: $only) { name } }`,
			vars:  map[string]any{"only": "Tom"},
			want:  `{"data":{"pets":[{"name":"Tom"}]}}`,
		},
		{
			name:  "int outside 32 bits is a field error",
			query: `{ big hello }`,
			wide:  true,
			want:  `{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 1099511627776","locations":[{"line":1,"column":3}],"path":["big"]}],"data":{"big":null,"hello":"world"}}`,
		},
		{
			name:  "int outside 32 bits inside lists",
			query: `{ bigs strictBigs }`,
			wide:  true,
			want: `{"errors":[` +
				`{"message":"Int cannot represent non 32-bit signed integer value: 1099511627776","locations":[{"line":1,"column":3}],"path":["bigs",1]},` +
				`{"message":"Int cannot represent non 32-bit signed integer value: 1099511627776","locations":[{"line":1,"column":8}],"path":["strictBigs",1]}],` +
				`"data":{"bigs":[1,null,3],"strictBigs":null}}`,
		},
		{
			name:  "panic becomes an internal error",
			query: `{ boom hello }`,
			want:  `{"errors":[{"message":"Internal server error","locations":[{"line":1,"column":3}],"path":["boom"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"boom":null,"hello":"world"}}`,
		},
		{
			name:  "errors keep their extensions",
			query: `{ coded custom plain }`,
			want: `{"errors":[` +
				`{"message":"forbidden","locations":[{"line":1,"column":3}],"path":["coded"],"extensions":{"code":"FORBIDDEN"}},` +
				`{"message":"coded failure","locations":[{"line":1,"column":9}],"path":["custom"],"extensions":{"code":"TEAPOT","retry":true}},` +
				`{"message":"plain failure","locations":[{"line":1,"column":16}],"path":["plain"]}],` +
				`"data":{"coded":null,"custom":null,"plain":null}}`,
		},
		{
			name:  "strings are escaped",
			query: `{ text }`,
			want:  `{"data":{"text":"q\"b\\n\n\t\u0001\u001f<\u2028é😀\ufffd end"}}`,
		},
		{
			name:  "mutation root fields run serially in order",
			query: `mutation { a: add(n: 1) b: add(n: 2) c: add(n: 3) }`,
			want:  `{"data":{"a":1,"b":3,"c":6}}`,
		},
		{
			name:  "concurrent resolvers run side by side",
			query: `{ left right }`,
			want:  `{"data":{"left":"met","right":"met"}}`,
		},
		{
			name:  "concurrent resolvers of list items run side by side",
			query: `{ pairs { n meet } }`,
			want:  `{"data":{"pairs":[{"n":1,"meet":"pair 1 met"},null,{"n":2,"meet":"pair 2 met"},{"n":3,"meet":"pair 3 met"}]}}`,
		},
		{
			name:  "operation chosen by name",
			query: `query A { hello } query B { maybe }`,
			op:    "B",
			want:  `{"data":{"maybe":"maybe"}}`,
		},
		{
			name:  "introspection beside data",
			query: `{ __type(name: "Pet") { kind possibleTypes { name } } hello }`,
			want:  `{"data":{"__type":{"kind":"INTERFACE","possibleTypes":[{"name":"Cat"},{"name":"Dog"}]},"hello":"world"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wide && strconv.IntSize < 64 {
				t.Skip("an int is 32 bits wide here")
			}
			_, e := newZoo(t)
			got := run(t, context.Background(), e, tc.query, tc.op, tc.vars)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
