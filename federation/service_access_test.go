package federation_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/schema"
)

// TestServiceAccess asks a subgraph whose introspection is off for
// _service { sdl } over HTTP: with ServiceAccess set to AllowHeader, a
// request without the router's header, or with a wrong value, gets a
// FORBIDDEN error and none of the SDL (its @inaccessible field above all);
// the router's request gets the SDL.
func TestServiceAccess(t *testing.T) {
	b := schema.New()
	obj := schema.Object[sku](b, "Sku", federation.Key("code"), schema.OnField("price", federation.Inaccessible()))
	schema.Object[variant](b, "Variant")
	schema.QueryNoArgs(b, "sku", func(context.Context) (*sku, error) { return &sku{Code: "a"}, nil })
	s, err := federation.Build(b, federation.Options{
		ServiceAccess: federation.AllowHeader("X-Router-Secret", "s3cret"),
		Entities: []federation.EntityResolver{federation.Entity(obj,
			func(_ context.Context, reps []federation.Representation) ([]*sku, []error) {
				return make([]*sku, len(reps)), nil
			})},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{DisableIntrospection: true})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(headers ...string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{ _service { sdl } }"}`))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for _, tc := range []struct {
		name    string
		headers []string
	}{
		{"no header", nil},
		{"a wrong secret", []string{"X-Router-Secret", "guess"}},
		{"an empty secret", []string{"X-Router-Secret", ""}},
	} {
		status, body := ask(tc.headers...)
		if !strings.Contains(body, `"code":"FORBIDDEN"`) || strings.Contains(body, "price") || strings.Contains(body, "@key") {
			t.Errorf("%s: %d %s", tc.name, status, body)
		}
	}
	status, body := ask("X-Router-Secret", "s3cret")
	if status != 200 || !strings.Contains(body, `price: Int @inaccessible`) || strings.Contains(body, "errors") {
		t.Errorf("the router's request: %d %s", status, body)
	}
}

// TestAllowHeaderEmptyValueAdmitsNone: a ServiceAccess built from an empty
// secret refuses every request, even one sending an empty header.
func TestAllowHeaderEmptyValueAdmitsNone(t *testing.T) {
	if federation.AllowHeader("X-Router-Secret", "")(context.Background()) {
		t.Fatal("an empty secret admitted a request")
	}
}
