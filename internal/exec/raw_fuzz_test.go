package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// Raw JSON against a reference: the upstream's bytes are decoded with
// encoding/json and the selection projected from the decoded value, with
// the type checks and null propagation of the GraphQL spec; the executor's
// response must be valid JSON and agree with that projection whenever the
// bytes are valid JSON.

// The fields of fzPost, fzAuthor and the shapes are read from the raw
// members; their Go types only declare the GraphQL types.
type fzPost struct {
	ID     schema.RawJSON `graphql:"id" type:"ID"`
	Title  schema.RawJSON `graphql:"title" type:"String"`
	Strict schema.RawJSON `graphql:"strict" type:"String!"`
	Likes  schema.RawJSON `graphql:"likes" type:"Int"`
	Count  schema.RawJSON `graphql:"count" type:"Int!"`
	Score  schema.RawJSON `graphql:"score" type:"Float"`
	Draft  schema.RawJSON `graphql:"draft" type:"Boolean"`
	Mood   schema.RawJSON `graphql:"mood" type:"Mood"`
	Tags   schema.RawJSON `graphql:"tags" type:"[String!]"`
	Meta   schema.RawJSON `graphql:"meta" type:"JSON"`
	Author schema.RawJSON `graphql:"author" type:"Author"`
	Kids   schema.RawJSON `graphql:"kids" type:"[Post!]"`
}

type fzAuthor struct {
	Name schema.RawJSON `graphql:"name" type:"String!"`
	Tags schema.RawJSON `graphql:"tags" type:"[String]"`
}

type fzShape interface{ fzShape() }

type fzFigure interface{ fzShape() }

type fzCircle struct {
	Name   schema.RawJSON `graphql:"name" type:"String!"`
	Radius schema.RawJSON `graphql:"radius" type:"Float"`
}

type fzSquare struct {
	Name schema.RawJSON `graphql:"name" type:"String!"`
	Side schema.RawJSON `graphql:"side" type:"Float!"`
}

func (*fzCircle) fzShape() {}
func (*fzSquare) fzShape() {}

// fzJSON is a custom scalar taking any JSON value.
type fzJSON struct{ v any }

func (j fzJSON) MarshalGraphQL() (any, error) { return j.v, nil }
func (j *fzJSON) UnmarshalGraphQL(v any) error {
	j.v = v
	return nil
}

// fzTypeKeys are the members naming the concrete type of abstract values.
var fzTypeKeys = map[string]string{"Shape": "__typename", "Figure": "kind"}

// fzMembers maps the fields with raw resolvers to the member their
// resolver returns.
var fzMembers = map[string]string{"authorRef": "author", "peer": "peer"}

// fzQueries are the selections the fuzzer picks from; every root field
// returns the fuzzed bytes.
var fzQueries = []string{
	`{ post { __typename id title likes score draft mood tags meta author { name tags } } }`,
	`{ strictPost { title strict count author { name } } }`,
	`{ posts { id title kids { title count kids { id } } } }`,
	`{ strictPosts { id likes t: title } }`,
	`{ shapes { __typename name ... on Circle { radius } ... on Square { side } } }`,
	`{ figure { __typename ... on Circle { radius name } ... on Square { side } } }`,
	`{ matrix }`,
	`{ posts { id authorRef { name } peer { title count } } }`,
	`{ post { a: title b: likes peer { id authorRef { tags } } } }`,
	`{ ids floats metas moods }`,
	`{ shapes { ...S } } fragment S on Shape { name ... on Square { side } ... on Circle { __typename } }`,
	`{ post { title @skip(if: true) likes @include(if: true) ... on Post @include(if: false) { count } } }`,
	`{ posts { peer { peer { title } authorRef { name } } } }`,
	`{ strictPosts { kids { peer { count } t: title } } }`,
}

func newRawFuzz(t testing.TB, in *[]byte) (*exec.Engine, *ast.Schema) {
	t.Helper()
	b := schema.New()
	schema.Enum(b, "Mood", []schema.EnumValueDef[rwMood]{{Name: "HAPPY", Value: "happy"}, {Name: "SAD", Value: "sad"}})
	schema.Scalar[fzJSON](b, "JSON")
	post := schema.Object[fzPost](b, "Post")
	schema.Object[fzAuthor](b, "Author")
	schema.Interface[fzShape](b, "Shape").Field("name", "String!")
	schema.Object[fzCircle](b, "Circle", schema.Implements("Shape"))
	schema.Object[fzSquare](b, "Square", schema.Implements("Shape"))
	schema.Union[fzFigure](b, "Figure", []string{"Circle", "Square"}, schema.RawTypeKey("kind"))
	schema.RawFieldFuncNoArgs(post, "authorRef", func(_ context.Context, p schema.RawJSON) (schema.RawJSON, error) {
		return schema.RawMember(p, "author"), nil
	}, schema.OfType("Author"))
	schema.RawGroupFieldFuncNoArgs(post, "peer", func(_ context.Context, ps []schema.RawJSON) ([]schema.RawJSON, []error) {
		out := make([]schema.RawJSON, len(ps))
		for i, p := range ps {
			out[i] = schema.RawMember(p, "peer")
		}
		return out, nil
	}, schema.OfType("Post"))
	for name, typ := range map[string]string{
		"post": "Post", "strictPost": "Post!", "posts": "[Post]", "strictPosts": "[Post!]!",
		"shapes": "[Shape]", "figure": "Figure", "matrix": "[[Int!]]",
		"ids": "[ID]", "floats": "[Float]", "metas": "[JSON!]", "moods": "[Mood]",
	} {
		schema.QueryNoArgs(b, name, func(context.Context) (schema.RawJSON, error) {
			return schema.RawJSON(*in), nil
		}, schema.OfType(typ))
	}
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sch, gerr := gqlparser.LoadSchema(&ast.Source{Input: s.SDL()})
	if gerr != nil {
		t.Fatal(gerr)
	}
	return exec.New(s, quietOpts()), sch
}

// rawFuzzSeeds are upstream answers seeded into FuzzRawJSON, each tried
// with every query.
var rawFuzzSeeds = []string{
	`{"__typename":"Post","id":"p1","title":"Hello","strict":"s","likes":7,"count":2,"score":1.5e2,"draft":false,"mood":"HAPPY","tags":["a","b"],"meta":{"x":[1,"y",null]},"author":{"name":"ann","tags":["t",null]},"kids":[{"title":"k","count":1,"kids":[]}],"peer":{"id":3,"title":"p","count":0,"author":{"name":"bob"}}}`,
	`[{"id":"1","title":"a","likes":1},null,{"id":2,"title":"b","likes":2.0,"author":{"name":"c"},"peer":{"title":"q","count":9}}]`,
	`[{"__typename":"Circle","name":"c","radius":1},{"name":"s","side":2,"__typename":"Square"}]`,
	`{"__typename":"Circle","kind":"Square","name":"s","side":2.5}`,
	`[[1,2],null,[]]`,
	`{"title":"a\"b\\c\u00e9\n\u2028 é ✓ <tag>","t\u0069tle":"x","likes":"7"}`,
	`{"title":"x","title":5}`,
	`{"mood":"HAPP\u0059","count":4294967296}`,
	`{"score":1e400,"likes":-0,"id":-12}`,
	"{\"title\":\"a\xff\",\"meta\":\"\xfe\"}",
	`[1e400,-0.0,123456789012345678901234567890]`,
	`[1` + strings.Repeat(`0`, 400) + `]`,
	`{"kind":"Circle","kind":7,"name":"n"}`,
	`{"meta":` + strings.Repeat(`[`, 50) + strings.Repeat(`]`, 50) + `}`,
	`{"title":"x",`,
	`1 2`,
}

// FuzzRawJSON writes fuzzed upstream bytes through each query of
// fzQueries and checks the response against the reference projection.
func FuzzRawJSON(f *testing.F) {
	for _, s := range rawFuzzSeeds {
		for q := range fzQueries {
			f.Add(uint8(q), []byte(s))
		}
	}
	var in []byte
	e, sch := newRawFuzz(f, &in)
	f.Fuzz(func(t *testing.T, q uint8, raw []byte) {
		in = raw
		checkRawJSON(t, e, sch, fzQueries[int(q)%len(fzQueries)], raw)
	})
}

// checkRawJSON runs query with raw as every root field's answer and
// compares the response with the reference projection.
func checkRawJSON(t *testing.T, e *exec.Engine, sch *ast.Schema, query string, raw []byte) {
	t.Helper()
	got := run(t, context.Background(), e, query, "", nil)
	if !json.Valid([]byte(got)) || !utf8.ValidString(got) {
		t.Fatalf("invalid JSON response for %q: %s", raw, got)
	}
	var resp struct {
		Data   json.RawMessage
		Errors []struct {
			Message    string
			Path       []any
			Extensions map[string]any
		}
	}
	if err := json.Unmarshal([]byte(got), &resp); err != nil {
		t.Fatal(err)
	}
	for _, e := range resp.Errors {
		if len(e.Path) == 0 || (e.Extensions["code"] == nil && !strings.HasPrefix(e.Message, "Cannot return null")) {
			t.Fatalf("error without a path or a code for %q: %s", raw, got)
		}
	}
	if !json.Valid(raw) || refDepth(raw) > 900 {
		return // the bytes are not JSON (or deeper than the reader reads): any field error will do
	}
	v, err := refDecode(json.NewDecoder(bytes.NewReader(raw)))
	if err != nil {
		t.Fatalf("reference decode of %q: %v", raw, err)
	}
	doc, gerrs := gqlparser.LoadQuery(sch, query)
	if gerrs != nil {
		t.Fatal(gerrs)
	}
	p := &rawProjector{sch: sch, root: v}
	want, _ := p.object("Query", doc.Operations[0].SelectionSet, nil)
	wantJSON := string(refAppend(nil, want))
	gotData, err := refDecode(json.NewDecoder(bytes.NewReader(resp.Data)))
	if err != nil {
		t.Fatal(err)
	}
	if !refSame(gotData, want) {
		t.Fatalf("raw %q, query %s:\ngot  %s\nwant data %s", raw, query, got, wantJSON)
	}
	if (p.errs > 0) != (len(resp.Errors) > 0) {
		t.Fatalf("raw %q, query %s: %d errors, the reference has %d:\n%s", raw, query, len(resp.Errors), p.errs, got)
	}
}

// refDepth is the nesting depth of the JSON text b.
func refDepth(b []byte) int {
	depth, most, inStr := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '[' || c == '{':
			depth++
			most = max(most, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return most
}

// refMember is a member of an ordered object.
type refMember struct {
	key string
	v   any
}

// refObject is a decoded JSON object with its members in order, repeated
// keys included.
type refObject []refMember

// get returns the value of key (the last of repeated keys, as
// encoding/json does) and whether there is one.
func (o refObject) get(key string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == key {
			return o[i].v, true
		}
	}
	return nil, false
}

// refDecode decodes one JSON value, numbers as json.Number and
// objects as refObject.
func refDecode(d *json.Decoder) (any, error) {
	d.UseNumber()
	v, err := refDecodeValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the value")
	}
	return v, nil
}

func refDecodeValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		list := []any{}
		for d.More() {
			v, err := refDecodeValue(d)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := d.Token()
		return list, err
	case json.Delim('{'):
		obj := refObject{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := refDecodeValue(d)
			if err != nil {
				return nil, err
			}
			obj = append(obj, refMember{k.(string), v})
		}
		_, err := d.Token()
		return obj, err
	}
	return tok, nil
}

// refAppend writes v as JSON.
func refAppend(b []byte, v any) []byte {
	switch x := v.(type) {
	case refObject:
		b = append(b, '{')
		for i, m := range x {
			if i > 0 {
				b = append(b, ',')
			}
			k, _ := json.Marshal(m.key)
			b = append(append(b, k...), ':')
			b = refAppend(b, m.v)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = refAppend(b, e)
		}
		return append(b, ']')
	}
	out, _ := json.Marshal(v)
	return append(b, out...)
}

// refSame compares decoded values; numbers are equal when their text is,
// or when they are the same float64.
func refSame(a, b any) bool {
	switch x := a.(type) {
	case refObject:
		y, ok := b.(refObject)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].key != y[i].key || !refSame(x[i].v, y[i].v) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !refSame(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		fx, err1 := strconv.ParseFloat(string(x), 64)
		fy, err2 := strconv.ParseFloat(string(y), 64)
		return err1 == nil && err2 == nil && fx == fy
	}
	return a == b
}

// rawProjector is the reference: it projects a selection from a decoded
// value, counting the field errors.
type rawProjector struct {
	sch  *ast.Schema
	root any
	errs int
}

func (p *rawProjector) fail() (any, bool) {
	p.errs++
	return nil, false
}

// value projects v at a position of type t: false means the error
// propagates to the parent.
func (p *rawProjector) value(t *ast.Type, sel ast.SelectionSet, v any) (any, bool) {
	if v == nil {
		if t.NonNull {
			p.errs++
			return nil, false
		}
		return nil, true
	}
	out, ok := p.inner(t, sel, v)
	if !ok {
		return nil, !t.NonNull
	}
	return out, true
}

func (p *rawProjector) inner(t *ast.Type, sel ast.SelectionSet, v any) (any, bool) {
	if t.Elem != nil {
		items, isList := v.([]any)
		if !isList {
			return p.fail()
		}
		out := []any{}
		for _, it := range items {
			x, ok := p.value(t.Elem, sel, it)
			if !ok {
				return nil, false
			}
			out = append(out, x)
		}
		return out, true
	}
	def := p.sch.Types[t.NamedType]
	switch def.Kind {
	case ast.Object:
		obj, isObj := v.(refObject)
		if !isObj {
			return p.fail()
		}
		return p.object(def.Name, sel, obj)
	case ast.Interface, ast.Union:
		obj, isObj := v.(refObject)
		if !isObj {
			return p.fail()
		}
		key := fzTypeKeys[def.Name]
		tv, _ := obj.get(key)
		name, isStr := tv.(string)
		if !isStr {
			return p.fail()
		}
		for _, pt := range p.sch.GetPossibleTypes(def) {
			if pt.Name == name {
				return p.object(name, sel, obj)
			}
		}
		return p.fail()
	case ast.Enum:
		s, isStr := v.(string)
		if !isStr || def.EnumValues.ForName(s) == nil {
			return p.fail()
		}
		return s, true
	}
	return p.scalar(def.Name, v)
}

func (p *rawProjector) scalar(name string, v any) (any, bool) {
	n, isNum := v.(json.Number)
	switch name {
	case "String":
		if s, ok := v.(string); ok {
			return s, true
		}
	case "ID":
		if s, ok := v.(string); ok {
			return s, true
		}
		if isNum && !strings.ContainsAny(string(n), ".eE") {
			return string(n), true
		}
	case "Int":
		if !isNum {
			break
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err == nil && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
			return json.Number(strconv.FormatInt(int64(f), 10)), true
		}
	case "Float":
		if !isNum {
			break
		}
		if f, err := strconv.ParseFloat(string(n), 64); err == nil && !math.IsInf(f, 0) {
			return n, true
		}
	case "Boolean":
		if b, ok := v.(bool); ok {
			return b, true
		}
	default: // JSON: any value
		return v, true
	}
	return p.fail()
}

// object projects the selection sel of the object type typeName from
// obj (nil for the root, whose every field is the fuzzed value).
func (p *rawProjector) object(typeName string, sel ast.SelectionSet, obj refObject) (any, bool) {
	out := refObject{}
	for _, f := range p.fields(typeName, sel) {
		if f.Name == "__typename" {
			out = append(out, refMember{f.Alias, typeName})
			continue
		}
		var v any
		if obj == nil {
			v = p.root
		} else {
			name := f.Name
			if m, ok := fzMembers[name]; ok {
				name = m
			}
			v, _ = obj.get(name)
		}
		x, ok := p.value(f.Definition.Type, f.SelectionSet, v)
		if !ok {
			return nil, false
		}
		out = append(out, refMember{f.Alias, x})
	}
	return out, true
}

// fields collects the fields of sel that apply to typeName, in order.
func (p *rawProjector) fields(typeName string, sel ast.SelectionSet) []*ast.Field {
	var out []*ast.Field
	for _, s := range sel {
		switch x := s.(type) {
		case *ast.Field:
			if refIncluded(x.Directives) {
				out = append(out, x)
			}
		case *ast.InlineFragment:
			if !refIncluded(x.Directives) {
				continue
			}
			if x.TypeCondition == "" || x.TypeCondition == typeName || p.implements(typeName, x.TypeCondition) {
				out = append(out, p.fields(typeName, x.SelectionSet)...)
			}
		case *ast.FragmentSpread:
			if p.implements(typeName, x.Definition.TypeCondition) || x.Definition.TypeCondition == typeName {
				out = append(out, p.fields(typeName, x.Definition.SelectionSet)...)
			}
		}
	}
	return out
}

// refIncluded reports whether @skip and @include (with literal arguments)
// keep a selection.
func refIncluded(dirs ast.DirectiveList) bool {
	if d := dirs.ForName("skip"); d != nil && d.Arguments.ForName("if").Value.Raw == "true" {
		return false
	}
	if d := dirs.ForName("include"); d != nil && d.Arguments.ForName("if").Value.Raw == "false" {
		return false
	}
	return true
}

func (p *rawProjector) implements(typeName, abstract string) bool {
	def := p.sch.Types[abstract]
	if def == nil {
		return false
	}
	for _, pt := range p.sch.GetPossibleTypes(def) {
		if pt.Name == typeName {
			return true
		}
	}
	return false
}

// TestRawJSONReference runs the fuzz seeds as a table: every seed under
// every query agrees with the reference projection.
func TestRawJSONReference(t *testing.T) {
	var in []byte
	e, sch := newRawFuzz(t, &in)
	for i, s := range rawFuzzSeeds {
		for _, q := range fzQueries {
			t.Run(fmt.Sprintf("%d/%s", i, q), func(t *testing.T) {
				in = []byte(s)
				checkRawJSON(t, e, sch, q, in)
			})
		}
	}
}

// TestRawJSONFuzzFindings keeps the inputs fuzzing found, with the exact
// responses.
func TestRawJSONFuzzFindings(t *testing.T) {
	huge := `1` + strings.Repeat(`0`, 400)
	cases := []struct{ name, query, raw, want string }{
		{"escaped enum value", `{ moods }`, `["HAPP\u0059","S\u0041D"]`,
			`{"data":{"moods":["HAPPY","SAD"]}}`},
		{"repeated type key, the last not a string", `{ figure { ... on Square { side } } }`, `{"kind":"Square","side":1,"kind":7}`,
			`{"errors":[{"message":"Raw JSON of field Query.figure: an object without a string kind member where Figure is expected.","locations":[{"line":1,"column":3}],"path":["figure"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"figure":null}}`},
		{"invalid UTF-8 in a custom scalar", `{ metas }`, "[\"a\xffb\",{\"k\xfe\xfe\":1}]",
			`{"data":{"metas":["a\uFFFDb",{"k\uFFFD\uFFFD":1}]}}`},
		{"integer beyond float64 as Float", `{ floats }`, `[` + huge + `,1` + strings.Repeat(`0`, 300) + `]`,
			`{"errors":[{"message":"Raw JSON of field Query.floats: ` + huge[:128] + `…, not a finite number, where Float is expected.","locations":[{"line":1,"column":3}],"path":["floats",0],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"floats":[null,1` + strings.Repeat(`0`, 300) + `]}}`},
	}
	var in []byte
	e, _ := newRawFuzz(t, &in)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in = []byte(c.raw)
			want := strings.ReplaceAll(c.want, `\uFFFD`, "\uFFFD")
			if got := run(t, context.Background(), e, c.query, "", nil); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestRawJSONDeepAndHuge: values nested deeper than the reader follows
// (1000) are a field error at their own position, selected or not, and
// nothing recurses without bound; a long string is written whole.
func TestRawJSONDeepAndHuge(t *testing.T) {
	var in []byte
	e, _ := newRawFuzz(t, &in)
	deep := func(n int) string { return strings.Repeat(`[`, n) + strings.Repeat(`]`, n) }
	long := strings.Repeat("é\\u00e9", 100000)
	for _, c := range []struct{ query, raw, want string }{
		{`{ post { meta } }`, `{"meta":` + deep(999) + `}`, `{"data":{"post":{"meta":` + deep(999) + `}}}`},
		{`{ post { meta title } }`, `{"meta":` + deep(1001) + `,"title":"t"}`,
			`{"errors":[{"message":"Raw JSON of field Query.post: malformed JSON where Post is expected.","locations":[{"line":1,"column":3}],"path":["post"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"post":null}}`},
		{`{ post { title } }`, `{"junk":` + deep(100000) + `,"title":"t"}`,
			`{"errors":[{"message":"Raw JSON of field Query.post: malformed JSON where Post is expected.","locations":[{"line":1,"column":3}],"path":["post"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"post":null}}`},
		{`{ metas }`, deep(100000),
			`{"errors":[{"message":"Raw JSON of field Query.metas: malformed JSON where JSON is expected.","locations":[{"line":1,"column":3}],"path":["metas",0],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"metas":null}}`},
		{`{ post { title } }`, `{"title":"` + long + `"}`, `{"data":{"post":{"title":"` + strings.ReplaceAll(long, `\u00e9`, "é") + `"}}}`},
	} {
		in = []byte(c.raw)
		if got := run(t, context.Background(), e, c.query, "", nil); got != c.want {
			t.Errorf("%s on %.60s…:\ngot  %.400s\nwant %.400s", c.query, c.raw, got, c.want)
		}
	}
}
