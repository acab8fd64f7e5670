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

func (x root) Query() QueryResolver       { return x.r.Query() }
func (x root) Human() HumanResolver       { return x.r.Human() }
func (x root) Droid() DroidResolver       { return x.r.Droid() }
func (x root) Starship() StarshipResolver { return x.r.Starship() }

// answer is a response reduced to what both servers must agree on: the
// data, byte for byte, and the errors by message and path (gqlgen gives
// resolver errors no locations, and orders concurrent fields' errors as
// they come).
type answer struct {
	Data   string
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
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
			Path    []any  `json:"path"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	a := answer{Data: string(resp.Data)}
	for _, e := range resp.Errors {
		p, _ := json.Marshal(e.Path)
		a.Errors = append(a.Errors, e.Message+" at "+string(p))
	}
	slices.Sort(a.Errors)
	return a
}

// corpus is graft's Star Wars corpus, then the project's own queries of
// what it adds (starships, the SearchResult union, the Date scalar, the
// @units and @upper directives documents apply).
func corpus(t *testing.T) []testCase {
	t.Helper()
	var all []testCase
	for _, name := range []string{"../../../../examples/starwars/testdata/queries.json", "../testdata/queries.json"} {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var cases []testCase
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatal(err)
		}
		all = append(all, cases...)
	}
	return all
}

type testCase struct {
	Name      string         `json:"name"`
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
}

// TestSameAsNativeGqlgen serves the Star Wars project twice — with the
// executor gqlgen generates and through graft without it — and wants the
// same answers to every query of the corpus: the same data, byte for
// byte, and the same errors, the loader, the @secret, @units and @upper
// directives, the SearchResult union and the Date scalar included.
func TestSameAsNativeGqlgen(t *testing.T) {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: root{&starwars.Resolver{}},
		Directives: DirectiveRoot{Secret: starwars.Secret, Units: starwars.Units, Upper: starwars.Upper}}))
	srv.AddTransport(transport.POST{})
	native := starwars.Loaders(srv, nil)

	p, err := gqlgen.Load("../gqlgen.yml", &starwars.Resolver{}, starwars.LoadOptions()...)
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

	var errs []string
	for _, tc := range corpus(t) {
		t.Run(tc.Name, func(t *testing.T) {
			want := post(t, native, tc.Query, tc.Variables)
			got := post(t, viaGraft, tc.Query, tc.Variables)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("through graft %+v\nnative gqlgen %+v", got, want)
			}
			errs = append(errs, want.Errors...)
		})
	}
	// The corpus makes @secret and @upper fail, so errors are compared
	// too.
	for _, msg := range []string{"secretBackstory is secret.", "@upper applies to String fields"} {
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, msg) }) {
			t.Errorf("no error %q in the corpus' answers", msg)
		}
	}
}
