package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

type settingsBook struct {
	Title string `json:"title"`
}

// TestUnknownSettingsFailBuild: a misspelt cache scope or directive
// location is a Build error naming the field or directive, never a
// silent default (a lost PRIVATE would let shared caches keep private
// answers).
func TestUnknownSettingsFailBuild(t *testing.T) {
	hello := func(context.Context) (string, error) { return "hi", nil }
	tests := []struct {
		name  string
		build func(b *schema.Builder)
		want  []string
	}{
		{"field scope", func(b *schema.Builder) {
			schema.QueryNoArgs(b, "hello", hello, schema.CacheControl(60, "PRIVTE"))
		}, []string{"Query.hello", "PRIVTE"}},
		{"lower-case scope", func(b *schema.Builder) {
			schema.QueryNoArgs(b, "hello", hello, schema.CacheControl(60, "private"))
		}, []string{"Query.hello", "private"}},
		{"type scope", func(b *schema.Builder) {
			schema.QueryNoArgs(b, "hello", hello)
			schema.Object[settingsBook](b, "Book", schema.CacheControl(60, "SHARED"))
			schema.QueryNoArgs(b, "book", func(context.Context) (*settingsBook, error) { return nil, nil })
		}, []string{"Book", "SHARED"}},
		{"OnField scope", func(b *schema.Builder) {
			schema.Object[settingsBook](b, "Book", schema.OnField("title", schema.CacheControl(60, "PRIVAT")))
			schema.QueryNoArgs(b, "book", func(context.Context) (*settingsBook, error) { return nil, nil })
		}, []string{"Book.title", "PRIVAT"}},
		{"directive location", func(b *schema.Builder) {
			schema.QueryNoArgs(b, "hello", hello)
			b.DeclareDirective(schema.DirectiveDef{Name: "audit", Locations: []schema.DirectiveLocation{"FEILD_DEFINITION"}})
		}, []string{"@audit", "FEILD_DEFINITION"}},
	}
	for _, tc := range tests {
		b := schema.New()
		tc.build(b)
		_, err := b.Build()
		if err == nil {
			t.Errorf("%s: Build succeeded", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v does not name %q", tc.name, err, w)
			}
		}
	}
	b := schema.New()
	schema.QueryNoArgs(b, "a", hello, schema.CacheControl(60, schema.CachePrivate))
	schema.QueryNoArgs(b, "b", hello, schema.CacheControl(60, schema.CachePublic))
	schema.QueryNoArgs(b, "c", hello, schema.CacheControl(60, ""))
	b.DeclareDirective(schema.DirectiveDef{Name: "audit", Locations: []schema.DirectiveLocation{schema.LocationFieldDefinition}})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sdl := s.SDL()
	for _, w := range []string{"a: String! @cacheControl(maxAge: 60, scope: PRIVATE)", "b: String! @cacheControl(maxAge: 60, scope: PUBLIC)",
		"c: String! @cacheControl(maxAge: 60)", "directive @audit on FIELD_DEFINITION"} {
		if !strings.Contains(sdl, w) {
			t.Errorf("SDL lacks %q:\n%s", w, sdl)
		}
	}
}

// TestCacheControlScopeOnlyWithHints: the @cacheControl directive and its
// CacheControlScope enum are in the schema (its SDL and introspection)
// only when a declaration uses a cache hint, as Apollo Server declares
// them only for a schema that uses them.
func TestCacheControlScopeOnlyWithHints(t *testing.T) {
	hello := func(context.Context) (string, error) { return "hi", nil }
	for _, hinted := range []bool{false, true} {
		b := schema.New()
		var opts []schema.Option
		if hinted {
			opts = append(opts, schema.CacheControl(60, schema.CachePrivate))
		}
		schema.QueryNoArgs(b, "hello", hello, opts...)
		s, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		sdl := s.SDL()
		for _, w := range []string{"enum CacheControlScope", "directive @cacheControl"} {
			if strings.Contains(sdl, w) != hinted {
				t.Errorf("hinted %v: SDL has %q: %v\n%s", hinted, w, !hinted, sdl)
			}
		}
		e := exec.New(s, exec.Options{})
		doc, errs := e.Prepare(`{ __type(name: "CacheControlScope") { name } }`)
		if errs != nil {
			t.Fatal(errs)
		}
		op, _ := doc.Operation("")
		got := string(e.Execute(context.Background(), op, nil, nil, nil))
		want := `{"data":{"__type":null}}`
		if hinted {
			want = `{"data":{"__type":{"name":"CacheControlScope"}}}`
		}
		if got != want {
			t.Errorf("hinted %v: %s, want %s", hinted, got, want)
		}
	}
}
