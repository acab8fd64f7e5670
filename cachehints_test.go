package graft_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

type chPost struct{ Title string }
type chAuthor struct{ Name string }
type chUser struct{ Name string }

func cacheHintSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	post := schema.Object[chPost](b, "Post", schema.CacheControl(120, ""))
	schema.FieldFuncNoArgs(post, "author", func(ctx context.Context, p *chPost) (*chAuthor, error) { return &chAuthor{Name: "ann"}, nil })
	schema.Object[chAuthor](b, "Author", schema.CacheControl(10, schema.CachePublic))
	schema.QueryNoArgs(b, "config", func(ctx context.Context) (string, error) { return "c", nil }, schema.CacheControl(300, ""))
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "h", nil })
	schema.QueryNoArgs(b, "broken", func(ctx context.Context) (*string, error) { return nil, errors.New("x") }, schema.CacheControl(300, ""))
	schema.QueryNoArgs(b, "posts", func(ctx context.Context) ([]chPost, error) { return []chPost{{Title: "a"}}, nil },
		schema.CacheControl(60, ""))
	schema.QueryNoArgs(b, "me", func(ctx context.Context) (*chUser, error) { return &chUser{Name: "me"}, nil },
		schema.CacheControl(30, schema.CachePrivate))
	schema.MutationNoArgs(b, "touch", func(ctx context.Context) (bool, error) { return true, nil }, schema.CacheControl(300, ""))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCacheControlHints(t *testing.T) {
	s := cacheHintSchema(t)
	for _, want := range []string{"type Post @cacheControl(maxAge: 120) {", "config: String! @cacheControl(maxAge: 300)",
		"me: chUser @cacheControl(maxAge: 30, scope: PRIVATE)", "directive @cacheControl(maxAge: Int, scope: CacheControlScope) on FIELD_DEFINITION | OBJECT | INTERFACE"} {
		if !strings.Contains(s.SDL(), want) {
			t.Fatalf("SDL lacks %q:\n%s", want, s.SDL())
		}
	}
	r, err := graft.NewRouter(s, nil, graft.Config{Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	get := func(q string, headers ...string) *reply {
		return send(t, r, http.MethodGet, "/graphql?query="+url.QueryEscape(q), "", headers...)
	}
	cases := []struct {
		name, query string
		headers     []string
		post        bool
		want        string
	}{
		{"root field hint", `{ config }`, nil, false, "public, max-age=300"},
		{"field hint wins over type hint, leaves inherit", `{ posts { title } }`, nil, false, "public, max-age=60"},
		{"minimum over the selection", `{ posts { title author { name } } }`, nil, false, "public, max-age=10"},
		{"most private scope", `{ config me { name } }`, nil, false, "private, max-age=30"},
		{"unhinted root field is not cached", `{ hello config }`, nil, false, ""},
		{"introspection ignored", `{ __typename config }`, nil, false, "public, max-age=300"},
		{"introspection alone is not cached", `{ __schema { queryType { name } } }`, nil, false, ""},
		{"fragments count", `{ ...F } fragment F on Query { posts { ... on Post { title } } }`, nil, false, "public, max-age=60"},
		{"POST is not cached", `{ config }`, nil, true, ""},
		{"mutations never", `mutation { touch }`, nil, true, ""},
		{"credentials make it private", `{ config }`, []string{"Authorization", "Bearer x"}, false, "private, max-age=300"},
		{"errors are not cached", `{ broken }`, nil, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var res *reply
			if c.post {
				res = post(t, r, c.query, c.headers...)
			} else {
				res = get(c.query, c.headers...)
			}
			if res.status != http.StatusOK {
				t.Fatalf("status %d: %s", res.status, res.raw)
			}
			if got := res.header.Get("Cache-Control"); got != c.want {
				t.Fatalf("Cache-Control %q, want %q (%s)", got, c.want, res.raw)
			}
		})
	}
}

// TestCacheHintsIsAHook: the hints are a hook like a user's, which
// Config.CacheHints replaces or turns off and Config.Hooks may override.
func TestCacheHintsIsAHook(t *testing.T) {
	s := cacheHintSchema(t)
	var seen []string // the operation each phase's hook event carried
	var mu sync.Mutex
	observe := graft.HookFuncs{AfterFunc: func(_ context.Context, ev *graft.HookEvent) {
		mu.Lock()
		defer mu.Unlock()
		name := "-"
		if ev.Operation != nil {
			name = ev.Operation.SelectionSet[0].(*ast.Field).Name
		}
		seen = append(seen, ev.Phase.String()+":"+name)
	}}
	own := graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
		if ev.Phase == graft.PhaseAnswered && ev.Operation != nil {
			graft.SetResponseHeader(ctx, "Cache-Control", "max-age=5, field="+ev.Operation.SelectionSet[0].(*ast.Field).Name)
		}
		return nil
	}}
	override := graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
		if ev.Phase == graft.PhaseAnswered {
			graft.SetResponseHeader(ctx, "Cache-Control", "no-store")
		}
		return nil
	}}
	cases := []struct {
		name string
		cfg  graft.Config
		want string
	}{
		{"installed by default", graft.Config{}, "public, max-age=300"},
		{"the built-in installed by hand", graft.Config{CacheHints: graft.CacheHintsHook(s)}, "public, max-age=300"},
		{"replaced", graft.Config{CacheHints: own}, "max-age=5, field=config"},
		{"turned off", graft.Config{CacheHints: graft.HookFuncs{}}, ""},
		{"a later hook overrides it", graft.Config{Hooks: []graft.Hook{override}}, "no-store"},
		{"with hooks that read every phase", graft.Config{Hooks: []graft.Hook{observe}}, "public, max-age=300"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Logger = quietLogger
			r, err := graft.NewRouter(s, nil, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			res := send(t, r, http.MethodGet, "/graphql?query="+url.QueryEscape(`{ config }`), "")
			if res.status != http.StatusOK {
				t.Fatalf("status %d: %s", res.status, res.raw)
			}
			if got := res.header.Get("Cache-Control"); got != c.want {
				t.Fatalf("Cache-Control %q, want %q", got, c.want)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	want := "received:- parsed:- validated:config analyzed:config executed:config answered:config"
	if got := strings.Join(seen, " "); got != want {
		t.Fatalf("hook events carried operations %q, want %q", got, want)
	}
}

// TestCacheHintsDecidePersistedHits: with a CacheHints hook, a persisted
// GET hit gets the hook's Cache-Control (or none), never the persisted
// queries' configured one; the hints are private for a user Auth
// accepted.
func TestCacheHintsDecidePersistedHits(t *testing.T) {
	s := cacheHintSchema(t)
	auth := func(ctx context.Context, raw *graft.AuthRequest) (context.Context, error) {
		if raw.Header("X-User") != "" {
			return context.WithValue(ctx, userKey{}, raw.Header("X-User")), nil
		}
		return ctx, nil
	}
	cases := []struct {
		name, query string
		hints       graft.Hook
		headers     []string
		want        string
	}{
		{"hinted", `{ config }`, nil, nil, "public, max-age=300"},
		{"unhinted gets none, not the store's", `{ hello }`, nil, nil, ""},
		{"a user Auth accepted", `{ config }`, nil, []string{"X-User", "ada"}, "private, max-age=300"},
		{"the hook turned off", `{ config }`, graft.HookFuncs{}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := graft.NewRouter(s, nil, graft.Config{Logger: quietLogger, Auth: auth, CacheHints: c.hints,
				PersistedQueries: &persisted.Options{CacheControl: "public, max-age=999"}})
			if err != nil {
				t.Fatal(err)
			}
			h := persisted.Hash(persisted.SHA256, c.query)
			if got := send(t, r, http.MethodPost, "/graphql", pqBody(t, c.query, "sha256Hash", h, 1)); got.status != http.StatusOK {
				t.Fatalf("registration: %d %s", got.status, got.raw)
			}
			got := send(t, r, http.MethodGet, pqGet("", "sha256Hash", h), "", c.headers...)
			if got.status != http.StatusOK {
				t.Fatalf("GET: %d %s", got.status, got.raw)
			}
			if cc := got.header.Get("Cache-Control"); cc != c.want {
				t.Fatalf("Cache-Control %q, want %q", cc, c.want)
			}
		})
	}
}
