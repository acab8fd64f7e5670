package federation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/schema"
)

// The echo subgraph's entity resolvers build each entity from its own
// representation, so the test knows which entity every index must hold:
// Account by "id" or by "org login", Sku by "code variation { id }",
// Shipping by "weight" (a nullable Float).

type echoShipping struct {
	Weight *float64 `graphql:"weight"`
}

func echoSubgraph(t testing.TB) http.Handler {
	t.Helper()
	b := schema.New()
	acct := schema.Object[account](b, "Account", federation.Key("id"), federation.Key("org login"))
	skuObj := schema.Object[sku](b, "Sku", federation.Key("code variation { id }"))
	schema.Object[variant](b, "Variant")
	ship := schema.Object[echoShipping](b, "Shipping", federation.Key("weight"))
	schema.Object[ref](b, "Ref", federation.NonResolvableKey("id"))
	schema.QueryNoArgs(b, "ref", func(context.Context) (ref, error) { return ref{ID: "r"}, nil })
	str := func(r federation.Representation, key string) string {
		s, ok := r.String(key)
		if !ok {
			panic(fmt.Sprintf("the resolver got %s = %#v", key, r[key]))
		}
		return s
	}
	s, err := federation.Build(b, federation.Options{Entities: []federation.EntityResolver{
		federation.Entity(acct, func(_ context.Context, reps []federation.Representation) ([]*account, []error) {
			out := make([]*account, len(reps))
			for i, r := range reps {
				if id, ok := r.String("id"); ok {
					out[i] = &account{ID: schema.ID(id)}
				} else {
					out[i] = &account{Org: str(r, "org"), Login: str(r, "login")}
				}
			}
			return out, nil
		}),
		federation.Entity(skuObj, func(_ context.Context, reps []federation.Representation) ([]*sku, []error) {
			out := make([]*sku, len(reps))
			for i, r := range reps {
				out[i] = &sku{Code: str(r, "code"), Variation: variant{ID: schema.ID(str(r.Object("variation"), "id"))}}
			}
			return out, nil
		}),
		federation.Entity(ship, func(_ context.Context, reps []federation.Representation) ([]*echoShipping, []error) {
			out := make([]*echoShipping, len(reps))
			for i, r := range reps {
				switch w := r["weight"].(type) {
				case nil:
					out[i] = &echoShipping{}
				case float64:
					out[i] = &echoShipping{Weight: &w}
				case int64:
					f := float64(w)
					out[i] = &echoShipping{Weight: &f}
				default:
					panic(fmt.Sprintf("the resolver got weight %#v", w))
				}
			}
			return out, nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const echoQuery = `query($r: [_Any!]!) { _entities(representations: $r) { __typename
	... on Account { id org login }
	... on Sku { code variation { id } }
	... on Shipping { weight } } }`

// post sends body to h and returns the status and the response body.
func post(h http.Handler, body []byte) (int, []byte) {
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

type gqlResponse struct {
	Data   json.RawMessage
	Errors []struct {
		Message    string
		Path       []any
		Extensions map[string]any
	}
}

// checkShape checks that body is a GraphQL response in valid JSON whose
// every error has a code, and decodes it.
func checkShape(t *testing.T, status int, body []byte, input []byte) gqlResponse {
	t.Helper()
	if status != 200 && status != 400 && status != 413 {
		t.Fatalf("status %d for %q: %s", status, input, body)
	}
	if !json.Valid(body) || !utf8.Valid(body) {
		t.Fatalf("invalid JSON for %q: %q", input, body)
	}
	var res gqlResponse
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatalf("%q: %v", body, err)
	}
	for _, e := range res.Errors {
		if e.Extensions["code"] == nil {
			t.Fatalf("error without a code for %q: %s", input, body)
		}
	}
	if len(res.Errors) == 0 && len(res.Data) == 0 {
		t.Fatalf("neither data nor errors for %q: %s", input, body)
	}
	return res
}

// expectEntity returns the _entities item the echo subgraph must answer
// for the representation v (decoded by encoding/json with numbers as
// json.Number), or "" when the item must be null with a BAD_USER_INPUT
// error at its index.
func expectEntity(v map[string]any) string {
	quote := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	id := func(x any) (string, bool) {
		switch n := x.(type) {
		case string:
			return n, true
		case json.Number:
			if strings.ContainsAny(string(n), ".eE") {
				f, err := strconv.ParseFloat(string(n), 64)
				if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
					return "", false
				}
				return strconv.FormatInt(int64(f), 10), true
			}
			if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
				return strconv.FormatInt(i, 10), true
			}
			return string(n), true
		}
		return "", false
	}
	switch v["__typename"] {
	case "Account":
		if x, ok := v["id"]; ok {
			if s, ok := id(x); ok {
				return `{"__typename":"Account","id":` + quote(s) + `,"org":"","login":""}`
			}
		}
		org, ok1 := v["org"].(string)
		login, ok2 := v["login"].(string)
		if ok1 && ok2 {
			return `{"__typename":"Account","id":"","org":` + quote(org) + `,"login":` + quote(login) + `}`
		}
	case "Sku":
		code, ok := v["code"].(string)
		variation, isObj := v["variation"].(map[string]any)
		if x, has := variation["id"]; ok && isObj && has {
			if s, ok := id(x); ok {
				return `{"__typename":"Sku","code":` + quote(code) + `,"variation":{"id":` + quote(s) + `}}`
			}
		}
	case "Shipping":
		w, has := v["weight"]
		if !has {
			break
		}
		if w == nil {
			return `{"__typename":"Shipping","weight":null}`
		}
		if n, ok := w.(json.Number); ok {
			f, err := strconv.ParseFloat(string(n), 64)
			if err == nil && !math.IsInf(f, 0) {
				out, _ := json.Marshal(f)
				return `{"__typename":"Shipping","weight":` + string(out) + `}`
			}
		}
	}
	return ""
}

// entitySeeds are representations lists seeded into FuzzEntities.
var entitySeeds = []string{
	`[{"__typename":"Account","id":"7"},{"__typename":"Sku","code":"tee","variation":{"id":"red"}},{"__typename":"Account","org":"acme","login":"bob"},{"__typename":"Shipping","weight":1.5},{"__typename":"Sku","code":"cap","variation":{"id":"blue"}}]`,
	`[{"__typename":"Account"},{"__typename":"Account","id":null},{"__typename":"Account","org":"acme"},{"__typename":"Account","id":5},{"__typename":"Account","id":{"x":1}}]`,
	`[{"__typename":"Sku","code":"c"},{"__typename":"Sku","code":"c","variation":"v"},{"__typename":"Sku","code":"c","variation":{"id":[1]}},{"__typename":"Sku","code":"c","variation":{"id":12345678901234567890123}}]`,
	`[{"__typename":"Shipping"},{"__typename":"Shipping","weight":null},{"__typename":"Shipping","weight":"1"},{"__typename":"Shipping","weight":2}]`,
	`[{"__typename":"Ref","id":"r"},{"__typename":"Nope"},{"__typename":"Query"},{"__typename":"_Service"}]`,
	`[{"id":"1"}]`,
	`["Account:1"]`,
	`[null]`,
	`null`,
	`{"__typename":"Account","id":"single"}`,
	`[]`,
	`[{"__typename":""}]`,
	`[{"__typename":5}]`,
	`[{"__typename":"Account","id":"a","id":"b"}]`,
	`[{"__typename":"Account","id":"\u00e9\ud800"}]`,
	`[{"__typename":"Account","id":"&<>\u2028"}]`,
	"[{\"__typename\":\"Account\",\"id\":\"\xff\"}]",
	`[{"__typename":"Sku","code":"c","variation":{"id":"v","more":` + strings.Repeat(`[`, 200) + strings.Repeat(`]`, 200) + `}}]`,
	`[{"__typename":"Account","id":"1"},` + strings.Repeat(`{"__typename":"Shipping","weight":1e308},`, 20) + `{"__typename":"Shipping","weight":1e400}]`,
}

// FuzzEntities sends fuzzed representations to _entities of the echo
// subgraph: the response is a GraphQL response, every error has a code,
// and when the representations are JSON every item is its own
// representation's entity, or null with a BAD_USER_INPUT error at its
// index.
func FuzzEntities(f *testing.F) {
	for _, s := range entitySeeds {
		f.Add([]byte(s))
	}
	h := echoSubgraph(f)
	f.Fuzz(func(t *testing.T, reps []byte) {
		checkEntities(t, h, reps)
	})
}

func checkEntities(t *testing.T, h http.Handler, reps []byte) {
	t.Helper()
	q, _ := json.Marshal(echoQuery)
	body := []byte(`{"query":` + string(q) + `,"variables":{"r":` + string(reps) + `}}`)
	status, out := post(h, body)
	res := checkShape(t, status, out, reps)
	if !json.Valid(body) {
		if status != 400 {
			t.Fatalf("status %d for a body that is not JSON: %s", status, out)
		}
		return
	}
	d := json.NewDecoder(bytes.NewReader(reps))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	items, isList := v.([]any)
	if !isList {
		items = []any{v} // a single value is a list of one
	}
	if v == nil {
		items = nil
	}
	valid := v != nil
	for _, it := range items {
		m, ok := it.(map[string]any)
		if s, isStr := m["__typename"].(string); !ok || !isStr || s == "" {
			valid = false
		}
	}
	if !valid {
		if status != 400 || len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != graft.CodeBadUserInput {
			t.Fatalf("representations %q: got %d %s, want 400 %s", reps, status, out, graft.CodeBadUserInput)
		}
		return
	}
	if status != 200 {
		t.Fatalf("representations %q: status %d: %s", reps, status, out)
	}
	var data struct {
		Entities []json.RawMessage `json:"_entities"`
	}
	if err := json.Unmarshal(res.Data, &data); err != nil || len(data.Entities) != len(items) {
		t.Fatalf("representations %q: %d items, want %d: %s", reps, len(data.Entities), len(items), out)
	}
	errAt := map[string]string{}
	for _, e := range res.Errors {
		errAt[fmt.Sprint(e.Path...)] = fmt.Sprint(e.Extensions["code"])
	}
	for i, it := range items {
		want := expectEntity(it.(map[string]any))
		got := string(data.Entities[i])
		code := errAt[fmt.Sprint("_entities", i)]
		if want == "" {
			if got != "null" || code != graft.CodeBadUserInput {
				t.Fatalf("representation %d of %q: got %s (error %q), want null with %s: %s", i, reps, got, code, graft.CodeBadUserInput, out)
			}
			continue
		}
		if !sameJSON(got, want) || code != "" {
			t.Fatalf("representation %d of %q: got %s (error %q), want %s: %s", i, reps, got, code, want, out)
		}
	}
	if len(res.Errors) != len(errAt) {
		t.Fatalf("representations %q: two errors at one path: %s", reps, out)
	}
}

// sameJSON reports whether a and b are the same JSON value (the
// expectation escapes what the response need not).
func sameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// TestEntitiesRepresentations runs the fuzz seeds as a table.
func TestEntitiesRepresentations(t *testing.T) {
	h := echoSubgraph(t)
	for i, s := range entitySeeds {
		t.Run(strconv.Itoa(i), func(t *testing.T) { checkEntities(t, h, []byte(s)) })
	}
}

// FuzzSubgraphRequest sends fuzzed documents and variables to the echo
// subgraph, _service and _entities among them (representations as
// literals, several _entities fields sharing one variable): every answer
// is a GraphQL response with a code on each error, and _service.sdl, when
// answered, is the subgraph's SDL.
func FuzzSubgraphRequest(f *testing.F) {
	for _, s := range []struct{ query, vars string }{
		{`{ _service { sdl } }`, `{}`},
		{`query { s: _service { sdl } t: _service { __typename sdl } }`, `null`},
		{echoQuery, `{"r":[{"__typename":"Account","id":"1"}]}`},
		{`{ _entities(representations: [{__typename: "Account", id: 5}, {__typename: "Sku", code: "c", variation: {id: "v"}}]) { ... on Account { id } ... on Sku { code variation { id } } } }`, `{}`},
		{`{ _entities(representations: {__typename: "Shipping", weight: 1}) { __typename } }`, `{}`},
		{`query($r: [_Any!]!) { a: _entities(representations: $r) { ... on Account { id } } b: _entities(representations: $r) { ... on Account { login } } }`,
			`{"r":[{"__typename":"Account","id":7},{"__typename":"Account","org":"o","login":"l"}]}`},
		{`query($r: [_Any!]!) { _entities(representations: $r) { ... on Sku { code } } _service { sdl } }`, `{"r":[{"__typename":"Sku","code":"c","variation":{"id":1}}]}`},
		{`{ _entities(representations: []) { __typename } }`, `{}`},
		{`{ _entities { __typename } }`, `{}`},
		{`query($r: _Any!) { _entities(representations: [$r]) { __typename } }`, `{"r":{"__typename":"Ref","id":"r"}}`},
	} {
		f.Add(s.query, []byte(s.vars))
	}
	h := echoSubgraph(f)
	_, out := post(h, []byte(`{"query":"{ _service { sdl } }"}`))
	var svc struct {
		Data struct {
			Service struct{ SDL string } `json:"_service"`
		}
	}
	if err := json.Unmarshal(out, &svc); err != nil || svc.Data.Service.SDL == "" {
		f.Fatalf("_service: %s", out)
	}
	f.Fuzz(func(t *testing.T, query string, vars []byte) {
		q, _ := json.Marshal(query)
		body := []byte(`{"query":` + string(q) + `,"variables":` + string(vars) + `}`)
		status, out := post(h, body)
		res := checkShape(t, status, out, body)
		var data map[string]json.RawMessage
		if json.Unmarshal(res.Data, &data) != nil {
			return
		}
		for _, v := range data {
			var s struct{ SDL *string }
			if json.Unmarshal(v, &s) == nil && s.SDL != nil && *s.SDL != svc.Data.Service.SDL {
				t.Fatalf("%s: _service.sdl = %q", body, *s.SDL)
			}
		}
	})
}

// TestEntitiesDeepAndLargeRepresentations: members nested thousands deep
// beside the key do not matter; nesting beyond what the request decoder
// reads is a request error; a long __typename is quoted in part.
func TestEntitiesDeepAndLargeRepresentations(t *testing.T) {
	h := echoSubgraph(t)
	deep := func(n int) string { return strings.Repeat(`[`, n) + strings.Repeat(`]`, n) }
	checkEntities(t, h, []byte(`[{"__typename":"Account","id":"1","extra":`+deep(5000)+`}]`))
	q, _ := json.Marshal(echoQuery)
	status, out := post(h, []byte(`{"query":`+string(q)+`,"variables":{"r":[{"__typename":"Account","id":"1","extra":`+deep(20000)+`}]}}`))
	if res := checkShape(t, status, out, nil); status != 400 || len(res.Errors) != 1 {
		t.Errorf("20000 deep: %d %.300s", status, out)
	}
	long := strings.Repeat("é", 5000)
	status, out = post(h, []byte(`{"query":`+string(q)+`,"variables":{"r":[{"__typename":"`+long+`"}]}}`))
	res := checkShape(t, status, out, nil)
	if status != 200 || len(res.Errors) != 1 || len(res.Errors[0].Message) > 200 || !strings.HasSuffix(res.Errors[0].Message, `…" is not an entity type of this subgraph`) {
		t.Errorf("long __typename: %d %.400s", status, out)
	}
}
