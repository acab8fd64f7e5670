package exec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

// The raw schema serves RawJSON results: each query field returns the
// bytes the test put under its name in rawIn.

type rwPost struct {
	ID    schema.ID
	Title string
	Likes int
	Score *float64
	Tags  []string
	Mood  *rwMood
	Draft bool
}

type rwMood string

type rwShape interface{ shape() }

type rwFigure interface{ shape() }

type rwCircle struct {
	Name   string
	Radius float64
}

type rwSquare struct {
	Name string
	Side float64
}

func (*rwCircle) shape() {}
func (*rwSquare) shape() {}

type rwHolder struct{ ID string }

func newRaw(t *testing.T) (map[string]string, *exec.Engine, *int) {
	t.Helper()
	in := map[string]string{}
	batchCalls := 0
	b := schema.New()
	schema.Enum(b, "Mood", []schema.EnumValueDef[rwMood]{{Name: "HAPPY", Value: "happy"}, {Name: "SAD", Value: "sad"}})
	schema.Object[rwPost](b, "Post")
	schema.Interface[rwShape](b, "Shape").Field("name", "String!")
	schema.Object[rwCircle](b, "Circle", schema.Implements("Shape"))
	schema.Object[rwSquare](b, "Square", schema.Implements("Shape"))
	schema.Union[rwFigure](b, "Figure", []string{"Circle", "Square"}, schema.RawTypeKey("kind"))
	field := func(name, typ string) {
		schema.QueryNoArgs(b, name, func(context.Context) (schema.RawJSON, error) {
			s, ok := in[name]
			if !ok {
				return nil, nil
			}
			return schema.RawJSON(s), nil
		}, schema.OfType(typ))
	}
	field("post", "Post")
	field("strictPost", "Post!")
	field("posts", "[Post]")
	field("strictPosts", "[Post!]!")
	field("shapes", "[Shape]")
	field("figure", "Figure")
	field("count", "Int")
	field("mood", "Mood")
	field("matrix", "[[Int!]]")
	field("holder", "Holder")
	holder := schema.Object[rwHolder](b, "Holder")
	schema.GroupFieldFuncNoArgs(holder, "post", func(_ context.Context, parents []*rwHolder) ([]schema.RawJSON, []error) {
		batchCalls++
		byID, err := schema.RawJSONMembers(schema.RawJSON(in["batch"]))
		if err != nil {
			return nil, []error{err}
		}
		out := make([]schema.RawJSON, len(parents))
		for i, p := range parents {
			out[i] = byID[p.ID]
		}
		return out, nil
	}, schema.OfType("Post"))
	schema.QueryNoArgs(b, "holders", func(context.Context) ([]rwHolder, error) {
		return []rwHolder{{"h1"}, {"h2"}, {"h3"}}, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return in, exec.New(s, quietOpts()), &batchCalls
}

func TestRawJSON(t *testing.T) {
	const post = `{"id":"p1","title":"Hello","likes":7,"score":1.5e2,"tags":["a","b"],"mood":"HAPPY","draft":false,"esc":"q\"}\\","extra":{"deep":[1,{"x":"}\\\""}]}}`
	cases := []struct {
		name, field, raw, query, want string
	}{
		{"object", "post", post, `{ post { title likes id } }`,
			`{"data":{"post":{"title":"Hello","likes":7,"id":"p1"}}}`},
		{"aliases fragments typename", "post", post,
			`{ post { __typename t: title ...F ... on Post { l2: likes } } } fragment F on Post { l: likes tags mood score draft }`,
			`{"data":{"post":{"__typename":"Post","t":"Hello","l":7,"tags":["a","b"],"mood":"HAPPY","score":1.5e2,"draft":false,"l2":7}}}`},
		{"whitespace and member order", "post", " {\n \"likes\" : 3 ,\t\"title\":\"x\" } ", `{ post { title likes } }`,
			`{"data":{"post":{"title":"x","likes":3}}}`},
		{"null value", "post", `null`, `{ post { title } }`, `{"data":{"post":null}}`},
		{"missing nullable member", "post", `{"title":"x"}`, `{ post { title score } }`,
			`{"data":{"post":{"title":"x","score":null}}}`},
		{"list with nulls", "posts", `[{"title":"a"},null,{"title":"b"}]`, `{ posts { title } }`,
			`{"data":{"posts":[{"title":"a"},null,{"title":"b"}]}}`},
		{"empty list", "strictPosts", ` [ ] `, `{ strictPosts { title } }`, `{"data":{"strictPosts":[]}}`},
		{"escapes and unicode", "post", `{"title":"a\"b\\c\u00e9\n\u2028 é ✓ <tag>"}`, `{ post { title } }`,
			`{"data":{"post":{"title":"a\"b\\cé\n\u2028 é ✓ <tag>"}}}`},
		{"escaped member name", "post", `{"t\u0069tle":"x"}`, `{ post { title } }`, `{"data":{"post":{"title":"x"}}}`},
		{"numeric id", "post", `{"id":42}`, `{ post { id } }`, `{"data":{"post":{"id":"42"}}}`},
		{"integral float as Int", "count", `3.0`, `{ count }`, `{"data":{"count":3}}`},
		{"resolvers below a raw value do not run", "holder", `{"id":"h9","post":{"title":"from the member"}}`,
			`{ holder { id post { title } } }`,
			`{"data":{"holder":{"id":"h9","post":{"title":"from the member"}}}}`},
		{"nested lists", "matrix", `[[1,2],null,[]]`, `{ matrix }`, `{"data":{"matrix":[[1,2],null,[]]}}`},
		{"interface", "shapes", `[{"__typename":"Circle","name":"c","radius":1},{"name":"s","side":2,"__typename":"Square"}]`,
			`{ shapes { __typename name ... on Circle { radius } ... on Square { side } } }`,
			`{"data":{"shapes":[{"__typename":"Circle","name":"c","radius":1},{"__typename":"Square","name":"s","side":2}]}}`},
		{"union with its own type key", "figure", `{"__typename":"Circle","kind":"Square","name":"s","side":2.5}`,
			`{ figure { ... on Circle { radius } ... on Square { side name } } }`,
			`{"data":{"figure":{"side":2.5,"name":"s"}}}`},

		{"string for Int", "post", `{"title":"x","likes":"7"}`, `{ post { title likes } }`,
			`{"errors":[{"message":"Raw JSON of field Post.likes: not a number where Int is expected.","locations":[{"line":1,"column":16}],"path":["post","likes"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"post":null}}`},
		{"Int out of range", "count", `4294967296`, `{ count }`,
			`{"errors":[{"message":"Raw JSON of field Query.count: 4294967296, not a 32-bit integer, where Int is expected.","locations":[{"line":1,"column":3}],"path":["count"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"count":null}}`},
		{"non-null item in list", "strictPosts", `[{"title":"a"},{"title":null}]`, `{ strictPosts { title } }`,
			`{"errors":[{"message":"Cannot return null for non-nullable field Post.title.","locations":[{"line":1,"column":17}],"path":["strictPosts",1,"title"]}],"data":null}`},
		{"nullable item takes the error", "posts", `[{"title":"a"},{"title":5},{"title":"c"}]`, `{ posts { title } }`,
			`{"errors":[{"message":"Raw JSON of field Post.title: not a string where String is expected.","locations":[{"line":1,"column":11}],"path":["posts",1,"title"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"posts":[{"title":"a"},null,{"title":"c"}]}}`},
		{"missing non-null member", "strictPost", `{}`, `{ strictPost { title } }`,
			`{"errors":[{"message":"Cannot return null for non-nullable field Post.title.","locations":[{"line":1,"column":16}],"path":["strictPost","title"]}],"data":null}`},
		{"object expected", "post", `[1]`, `{ post { title } }`,
			`{"errors":[{"message":"Raw JSON of field Query.post: not an object where Post is expected.","locations":[{"line":1,"column":3}],"path":["post"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"post":null}}`},
		{"list expected", "posts", `{"title":"a"}`, `{ posts { title } }`,
			`{"errors":[{"message":"Raw JSON of field Query.posts: not a list where [Post] is expected.","locations":[{"line":1,"column":3}],"path":["posts"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"posts":null}}`},
		{"bad enum", "mood", `"ANGRY"`, `{ mood }`,
			`{"errors":[{"message":"Raw JSON of field Query.mood: \"ANGRY\", not a value of the enum, where Mood is expected.","locations":[{"line":1,"column":3}],"path":["mood"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"mood":null}}`},
		{"malformed", "post", `{"title":"x",`, `{ post { title } }`,
			`{"errors":[{"message":"Raw JSON of field Query.post: malformed JSON where Post is expected.","locations":[{"line":1,"column":3}],"path":["post"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"post":null}}`},
		{"trailing data", "count", `1 2`, `{ count }`,
			`{"errors":[{"message":"Raw JSON of field Query.count: data after the value where Int is expected.","locations":[{"line":1,"column":3}],"path":["count"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"count":null}}`},
		{"control character in string", "post", "{\"title\":\"a\x01\"}", `{ post { title } }`,
			`{"errors":[{"message":"Raw JSON of field Post.title: malformed JSON where String is expected.","locations":[{"line":1,"column":10}],"path":["post","title"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"post":null}}`},
		{"abstract without typename", "figure", `{"name":"s"}`, `{ figure { ... on Square { name } } }`,
			`{"errors":[{"message":"Raw JSON of field Query.figure: an object without a string kind member where Figure is expected.","locations":[{"line":1,"column":3}],"path":["figure"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"figure":null}}`},
		{"abstract with another type", "shapes", `[{"__typename":"Post","name":"s"}]`, `{ shapes { name } }`,
			`{"errors":[{"message":"Raw JSON of field Query.shapes: type \"Post\", not a possible type, where Shape is expected.","locations":[{"line":1,"column":3}],"path":["shapes",0],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"shapes":[null]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, e, calls := newRaw(t)
			in[c.field] = c.raw
			if got := run(t, context.Background(), e, c.query, "", nil); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if *calls != 0 {
				t.Errorf("%d batch calls below raw values, want 0", *calls)
			}
		})
	}
}

// TestRawJSONBatch: a batch resolver hands each parent its member of one
// JSON answer, in one call.
func TestRawJSONBatch(t *testing.T) {
	in, e, calls := newRaw(t)
	in["batch"] = `{"h2":{"title":"two","likes":2},"h1":{"title":"one","likes":1}}`
	got := run(t, context.Background(), e, `{ holders { id post { title likes } } }`, "", nil)
	want := `{"data":{"holders":[{"id":"h1","post":{"title":"one","likes":1}},{"id":"h2","post":{"title":"two","likes":2}},{"id":"h3","post":null}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if *calls != 1 {
		t.Errorf("%d batch calls, want 1", *calls)
	}
}

// TestRawJSONNeedsType: a RawJSON field without OfType is a build error.
func TestRawJSONNeedsType(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "x", func(context.Context) (schema.RawJSON, error) { return nil, nil })
	if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "OfType") {
		t.Fatalf("build error %v, want one asking for OfType", err)
	}
}

// TestRawJSONSplit: the helpers split arrays and objects without
// decoding, and reject what is not JSON.
func TestRawJSONSplit(t *testing.T) {
	els, err := schema.RawJSONElements(schema.RawJSON(` [1, {"a":[2]} ,"x\"]"] `))
	if err != nil || len(els) != 3 || string(els[1]) != `{"a":[2]}` || string(els[2]) != `"x\"]"` {
		t.Fatalf("elements %q, %v", els, err)
	}
	m, err := schema.RawJSONMembers(schema.RawJSON(`{"a":1,"b\u0031":[true],"a":null}`))
	if err != nil || len(m) != 2 || string(m["a"]) != "null" || string(m["b1"]) != "[true]" {
		t.Fatalf("members %q, %v", m, err)
	}
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	for _, bad := range []string{`[1,]`, `{"a"}`, `[1] x`, `{"a":tru}`, `[01]`, `[` + deep + `]`} {
		if _, err := schema.RawJSONElements(schema.RawJSON(bad)); err == nil {
			if _, err := schema.RawJSONMembers(schema.RawJSON(bad)); err == nil {
				t.Errorf("%s accepted", bad)
			}
		}
	}
}
