package exec

import (
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"
)

// TestNoSuggestionsWithoutIntrospection: validation messages quote the
// schema's names in "Did you mean ...?"; with introspection disabled they
// must not, for every rule that suggests. The queries marked suggests
// get a suggestion with introspection on, so the test cannot pass
// vacuously.
func TestNoSuggestionsWithoutIntrospection(t *testing.T) {
	on := newEngine(loadSDL(t, richSDL), nil, nil, nil, Options{})
	off := newEngine(loadSDL(t, richSDL), nil, nil, nil, Options{DisableIntrospection: true})
	tests := []struct {
		name, query string
		suggests    bool
	}{
		{"field", `{ heroo { id } }`, true},
		{"field on an abstract type, suggesting a fragment", `{ hero { primaryFunction } }`, true},
		{"argument", `{ hero(episod: NEWHOPE) { id } }`, true},
		{"type of a variable", `query($f: Filtr) { hero(filter: $f) { id } }`, false},
		{"type condition", `{ hero { ... on Hum { id } } }`, false},
		{"enum value", `{ hero(episode: EMPIR) { id } }`, true},
		{"input field", `{ hero(filter: {limt: 3}) { id } }`, true},
		{"missing selection of subfields", `{ hero }`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := on.Prepare(tt.query)
			if len(errs) == 0 || tt.suggests != strings.Contains(errs.Error(), "Did you mean") {
				t.Fatalf("introspection on: %v, want a suggestion: %v", errs, tt.suggests)
			}
			_, errs = off.Prepare(tt.query)
			if len(errs) == 0 {
				t.Fatal("introspection off: no error")
			}
			for _, e := range errs {
				if strings.Contains(e.Message, "Did you mean") || e.Extensions["code"] != gqlerr.ValidationFailed {
					t.Errorf("introspection off: %q (code %v)", e.Message, e.Extensions["code"])
				}
			}
		})
	}
}
