package graft_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/starwars"
)

// TestNoSuggestionsWithIntrospectionOff: with introspection disabled, no
// error a client can provoke names the schema in "Did you mean ...?":
// fields, arguments, enum values in literals and in variables. With
// introspection on, the same requests do suggest.
func TestNoSuggestionsWithIntrospectionOff(t *testing.T) {
	s, err := starwars.Schema()
	tests := []struct {
		name, query string
		vars        map[string]any
		suggests    bool
	}{
		{name: "field", query: `{ heroo { name } }`, suggests: true},
		{name: "field of a possible type", query: `{ hero { primaryFunction } }`, suggests: true},
		{name: "argument", query: `{ hero(episod: EMPIRE) { name } }`, suggests: true},
		{name: "enum value", query: `{ hero(episode: EMPIR) { name } }`, suggests: true},
		{name: "type", query: `query($e: Episod) { hero(episode: $e) { name } }`},
		{name: "enum value in a variable", query: `query($e: Episode) { hero(episode: $e) { name } }`, vars: map[string]any{"e": "EMPIR"}},
	}
	on := routerFor(t, s, err, graft.Config{})
	off := routerFor(t, s, err, graft.Config{DisableIntrospection: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"query": tt.query, "variables": tt.vars})
			if got := send(t, on, "POST", "/graphql", string(body)); got.status != 400 || tt.suggests != strings.Contains(got.raw, "Did you mean") {
				t.Fatalf("introspection on: %d %s", got.status, got.raw)
			}
			got := send(t, off, "POST", "/graphql", string(body))
			if got.status != 400 || len(got.body.Errors) == 0 || strings.Contains(got.raw, "Did you mean") {
				t.Fatalf("introspection off: %d %s", got.status, got.raw)
			}
		})
	}
}
