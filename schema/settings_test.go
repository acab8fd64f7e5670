package schema_test

import (
	"context"
	"strings"
	"testing"

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
