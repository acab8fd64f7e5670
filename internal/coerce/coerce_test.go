package coerce

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

const testSDL = `
type Query { f(a: Int): Int }
enum Color { RED GREEN }
input Post { title: String!, tags: [String!], color: Color = RED }
input By @oneOf { id: ID, name: String }
`

func testCoercer(t *testing.T) *Coercer {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Input: testSDL})
	if err != nil {
		t.Fatal(err)
	}
	return &Coercer{Schema: s}
}

func TestValue(t *testing.T) {
	c := testCoercer(t)
	post := &ast.Type{NamedType: "Post", NonNull: true}
	tests := []struct {
		name string
		v    any
		t    *ast.Type
		want any
		msg  string
		path string
	}{
		{"int", int64(3), ast.NamedType("Int", nil), int64(3), "", ""},
		{"integral float", 3.0, ast.NamedType("Int", nil), int64(3), "", ""},
		{"fraction", 1.5, ast.NamedType("Int", nil), nil, "Int cannot represent non-integer value: 1.5", ""},
		{"huge number as String", json.Number("1e309"), ast.NamedType("String", nil), nil, "String cannot represent a non string value: 1e309", ""},
		{"huge number as Float", json.Number("1e309"), ast.NamedType("Float", nil), nil, "Float cannot represent non numeric value: 1e309", ""},
		{"list of one", "x", ast.ListType(ast.NamedType("String", nil), nil), []any{"x"}, "", ""},
		{"defaults applied", map[string]any{"title": "t"}, post, map[string]any{"title": "t", "color": "RED"}, "", ""},
		{"missing field", map[string]any{}, post, nil, `Field "title" of required type "String!" was not provided.`, ""},
		{"unknown field", map[string]any{"title": "t", "x": 1}, post, nil, `Field "x" is not defined by type "Post".`, ""},
		{"nested path", map[string]any{"title": "t", "tags": []any{"a", int64(2)}}, post, nil, "String cannot represent a non string value: 2", ".tags[1]"},
		{"enum", map[string]any{"title": "t", "color": "BLUE"}, post, nil, `Value "BLUE" does not exist in "Color" enum.`, ".color"},
		{"not an object", []any{}, post, nil, `Expected type "Post" to be an object.`, ""},
		{"null for non-null", nil, post, nil, `Expected non-nullable type "Post!" not to be null.`, ""},
		{"oneOf with one field", map[string]any{"id": "1"}, ast.NamedType("By", nil), map[string]any{"id": "1"}, "", ""},
		{"oneOf with two fields", map[string]any{"id": "1", "name": "x"}, ast.NamedType("By", nil), nil, `Exactly one key must be specified for OneOf type "By".`, ""},
		{"oneOf with none", map[string]any{}, ast.NamedType("By", nil), nil, `Exactly one key must be specified for OneOf type "By".`, ""},
		{"oneOf with a null", map[string]any{"id": nil}, ast.NamedType("By", nil), nil, `Field "By.id" must be non-null.`, ""},
	}
	for _, tc := range tests {
		got, err := c.Value(tc.v, tc.t)
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.msg == "" && !reflect.DeepEqual(got, tc.want):
			t.Errorf("%s: got %#v, want %#v", tc.name, got, tc.want)
		case tc.msg != "" && (err == nil || err.Msg != tc.msg || err.PathString() != tc.path):
			t.Errorf("%s: err = %v (path %q), want %q at %q", tc.name, err, pathOf(err), tc.msg, tc.path)
		}
	}
}

func pathOf(err *Error) string {
	if err == nil {
		return ""
	}
	return err.PathString()
}

func TestDescribe(t *testing.T) {
	for v, want := range map[any]string{"s": `"s"`, 1e21: "1e+21", 1099511627776.0: "1099511627776", true: "true"} {
		if got := Describe(v); got != want {
			t.Errorf("Describe(%v) = %s, want %s", v, got, want)
		}
	}
	if got := Describe(map[string]any{"b": []any{int64(1)}, "a": nil}); got != "{ a: null, b: [1] }" {
		t.Errorf("object: %s", got)
	}
}
