package native

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/gqlgen"
	"github.com/graftgql/graft/gqlgen/internal/starwars"
)

// root gives gqlgen's generated ResolverRoot the project's root resolver,
// whose methods return the concrete resolver types.
type root struct{ r *starwars.Resolver }

func (x root) Query() QueryResolver { return x.r.Query() }
func (x root) Human() HumanResolver { return x.r.Human() }
func (x root) Droid() DroidResolver { return x.r.Droid() }

// answer is a response reduced to what both servers must agree on: the
// data, and the errors by message and path (gqlgen gives resolver errors
// no locations, and orders concurrent fields' errors as they come).
type answer struct {
	Data   any
	Errors []string
}

func post(t *testing.T, h http.Handler, query string, vars map[string]any) answer {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var resp struct {
		Data   any `json:"data"`
		Errors []struct {
			Message string `json:"message"`
			Path    []any  `json:"path"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	a := answer{Data: resp.Data}
	for _, e := range resp.Errors {
		p, _ := json.Marshal(e.Path)
		a.Errors = append(a.Errors, e.Message+" at "+string(p))
	}
	slices.Sort(a.Errors)
	return a
}

// TestSameAsNativeGqlgen serves the Star Wars project twice — with the
// executor gqlgen generates and through graft without it — and wants the
// same answers to every query of graft's Star Wars corpus, the loader and
// the @secret directive included.
func TestSameAsNativeGqlgen(t *testing.T) {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: root{&starwars.Resolver{}}, Directives: DirectiveRoot{Secret: starwars.Secret}}))
	srv.AddTransport(transport.POST{})
	native := starwars.Loaders(srv, nil)

	p, err := gqlgen.Load("../gqlgen.yml", &starwars.Resolver{}, gqlgen.Directive("secret", starwars.Secret))
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	viaGraft := starwars.Loaders(r, nil)

	raw, err := os.ReadFile("../../../../examples/starwars/testdata/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name      string         `json:"name"`
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	errs := 0
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			want := post(t, native, tc.Query, tc.Variables)
			got := post(t, viaGraft, tc.Query, tc.Variables)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("through graft %+v\nnative gqlgen %+v", got, want)
			}
			errs += len(want.Errors)
			if strings.Contains(tc.Query, "secretBackstory") && len(want.Errors) == 0 {
				t.Errorf("no secretBackstory error")
			}
		})
	}
	if errs == 0 {
		t.Error("the corpus gave no errors: the comparison saw no @secret")
	}
}
