package grafttest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

// newRouter serves hello, header(name) (a request header), and the
// mutation ping, with automatic persisted queries and CSRF prevention.
func newRouter(t *testing.T) *graft.Router {
	t.Helper()
	type headerArgs struct{ Name string }
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.Query(b, "header", func(ctx context.Context, args headerArgs) (string, error) {
		return graft.RequestInfoFrom(ctx).Header(args.Name), nil
	})
	schema.MutationNoArgs(b, "ping", func(context.Context) (string, error) { return "pong", nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{
		PersistedQueries: &persisted.Options{Mode: persisted.APQ},
		CSRF:             &graft.CSRFConfig{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDoPostAndDecode(t *testing.T) {
	c := grafttest.New(newRouter(t))
	resp := c.Do(t, `query A { hello } query B { ping: hello }`, nil, grafttest.OperationName("B"))
	resp.NoErrors(t)
	var data struct{ Ping string }
	resp.Decode(t, &data)
	if data.Ping != "world" {
		t.Errorf("data = %s", resp.Data)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
}

func TestDoHeaders(t *testing.T) {
	c := grafttest.New(newRouter(t))
	c.Header.Set("X-Team", "blue")
	resp := c.Do(t, `{ team: header(name: "X-Team") user: header(name: "X-User") }`, nil, grafttest.Header("X-User", "ada"))
	var data struct{ Team, User string }
	resp.Decode(t, &data)
	if data.Team != "blue" || data.User != "ada" {
		t.Errorf("data = %s", resp.Data)
	}
}

func TestDoGET(t *testing.T) {
	c := grafttest.New(newRouter(t))
	c.Do(t, `query($n: String!) { header(name: $n) }`, map[string]any{"n": "X"}, grafttest.GET()).NoErrors(t)
	resp := c.Do(t, `mutation { ping }`, nil, grafttest.GET())
	if resp.Status != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
		t.Errorf("mutation over GET: %s", resp)
	}
}

func TestDoPersistedQueries(t *testing.T) {
	c := grafttest.New(newRouter(t))
	c.Do(t, `{ hello }`, nil, grafttest.HashOnly()).WantError(t, 200, "PERSISTED_QUERY_NOT_FOUND")
	c.Do(t, `{ hello }`, nil, grafttest.Persisted()).NoErrors(t)
	hit := c.Do(t, `{ hello }`, nil, grafttest.HashOnly(), grafttest.GET())
	hit.NoErrors(t)
	if string(hit.Data) != `{"hello":"world"}` {
		t.Errorf("hash-only GET: %s", hit)
	}
}

func TestErrorHelpers(t *testing.T) {
	c := grafttest.New(newRouter(t))
	resp := c.Do(t, `{ nope }`, nil)
	e := resp.WantError(t, 400, "GRAPHQL_VALIDATION_FAILED")
	if e.Message == "" || len(e.Locations) != 1 || e.Locations[0].Line != 1 {
		t.Errorf("error = %+v", e)
	}
	if resp.HasErrorCode("BAD_REQUEST") {
		t.Error("ErrorWithCode found a code the answer lacks")
	}
}

func TestDoExtensions(t *testing.T) {
	c := grafttest.New(newRouter(t))
	resp := c.Do(t, `{ hello }`, nil, grafttest.Extensions(map[string]any{"persistedQuery": "yes"}))
	resp.WantError(t, 400, "BAD_REQUEST")
}

type ctxKey struct{}

// TestAnyHandlerAndContext: the client serves any handler (middleware
// around the router here) and sends the context it is given.
func TestAnyHandlerAndContext(t *testing.T) {
	r := newRouter(t)
	seen := ""
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		seen, _ = req.Context().Value(ctxKey{}).(string)
		r.ServeHTTP(w, req)
	})
	c := grafttest.New(h)
	c.Do(t, `{ hello }`, nil, grafttest.Context(context.WithValue(t.Context(), ctxKey{}, "mine"))).NoErrors(t)
	if seen != "mine" {
		t.Errorf("context value %q", seen)
	}
	resp := c.Do(t, `{ nope }`, nil)
	if e := resp.ErrorWithCode(t, "GRAPHQL_VALIDATION_FAILED"); e.Message == "" {
		t.Errorf("error = %+v", e)
	}
}
