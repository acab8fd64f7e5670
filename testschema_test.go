package graft_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// greeter is a service the test schema reads from the layer.
type greeter struct{ greeting string }

// unprovided is a service type no layer provides.
type unprovided struct{}

type userKey struct{}

type echoArgs struct {
	Text string
}

type renameArgs struct {
	Name string
}

// testSchema builds a small schema that exercises the pipeline: resolver
// errors with extensions, panics, services, request headers, slow
// resolvers and a mutation.
func testSchema(t testing.TB) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "world", nil })
	schema.QueryNoArgs(b, "fail", func(ctx context.Context) (*string, error) {
		return nil, &gqlerror.Error{Message: "not allowed", Extensions: map[string]any{"code": "FORBIDDEN"}}
	})
	schema.QueryNoArgs(b, "plainError", func(ctx context.Context) (*string, error) {
		return nil, errors.New("db password is hunter2")
	})
	schema.QueryNoArgs(b, "boom", func(ctx context.Context) (*string, error) { panic("kaboom") })
	schema.QueryNoArgs(b, "authorization", func(ctx context.Context) (string, error) {
		return graft.RequestInfoFrom(ctx).Header("Authorization"), nil
	})
	schema.QueryNoArgs(b, "user", func(ctx context.Context) (*string, error) {
		u, _ := ctx.Value(userKey{}).(string)
		if u == "" {
			return nil, nil
		}
		return &u, nil
	})
	schema.QueryNoArgs(b, "greeting", func(ctx context.Context) (string, error) {
		g, err := graft.Service[*greeter](ctx)
		if err != nil {
			return "", err
		}
		return g.greeting, nil
	})
	schema.QueryNoArgs(b, "missing", func(ctx context.Context) (*string, error) {
		_, err := graft.Service[*unprovided](ctx)
		return nil, err
	})
	schema.QueryNoArgs(b, "slow", func(ctx context.Context) (*string, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	schema.Query(b, "echo", func(ctx context.Context, a echoArgs) (string, error) { return a.Text, nil })
	schema.Mutation(b, "rename", func(ctx context.Context, a renameArgs) (string, error) { return a.Name, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newTestRouter(t testing.TB, cfg graft.Config) *graft.Router {
	t.Helper()
	l := graft.NewLayer()
	graft.ProvideValue(l, &greeter{greeting: "hi"})
	if cfg.Logger == nil {
		cfg.Logger = quietLogger
	}
	r, err := graft.NewRouter(testSchema(t), l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// quietLogger keeps expected panics and errors out of the test output.
var quietLogger = slog.New(slog.DiscardHandler)

// reply is a decoded HTTP answer.
type reply struct {
	status int
	header http.Header
	raw    string
	body   struct {
		Data       map[string]any   `json:"data"`
		Errors     []map[string]any `json:"errors"`
		Extensions map[string]any   `json:"extensions"`
	}
}

func (r *reply) code(i int) any {
	if i >= len(r.body.Errors) {
		return nil
	}
	ext, _ := r.body.Errors[i]["extensions"].(map[string]any)
	return ext["code"]
}

// send makes one request to h. A body starting with '{' is sent as JSON
// unless headers name another Content-Type.
func send(t testing.TB, h http.Handler, method, target, body string, headers ...string) *reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	r := &reply{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	if strings.HasPrefix(r.raw, "{") {
		if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
			t.Fatalf("response is not JSON: %v: %s", err, r.raw)
		}
	}
	return r
}

func post(t testing.TB, h http.Handler, query string, headers ...string) *reply {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"query": query})
	return send(t, h, http.MethodPost, "/graphql", string(b), headers...)
}
