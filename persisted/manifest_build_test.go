package persisted

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestBuildManifest(t *testing.T) {
	sources := map[string]string{
		"hero.graphql": `# the hero and friends
query Hero($ep: Episode = JEDI) {
  hero(episode: $ep) { ...HeroFields friends { ...Name } }
}
mutation Like { like(id: "1") { id } }`,
		"fragments.graphql": `fragment HeroFields on Character { id ...Name }
fragment Name on Character { name }
fragment Unused on Character { id }`,
	}
	out, err := BuildManifest(sources)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if m.Format != manifestFormat || m.Version != 1 || len(m.Operations) != 2 {
		t.Fatalf("manifest = %+v", m)
	}
	wantHero := "query Hero ($ep: Episode = JEDI) {\n  hero(episode: $ep) {\n    ... HeroFields\n    friends {\n      ... Name\n    }\n  }\n}\n" +
		"fragment HeroFields on Character {\n  id\n  ... Name\n}\nfragment Name on Character {\n  name\n}"
	want := []manifestOperation{
		{ID: Hash(SHA256, wantHero), Name: "Hero", Type: "query", Body: wantHero},
		{ID: Hash(SHA256, "mutation Like {\n  like(id: \"1\") {\n    id\n  }\n}"), Name: "Like", Type: "mutation",
			Body: "mutation Like {\n  like(id: \"1\") {\n    id\n  }\n}"},
	}
	if !reflect.DeepEqual(m.Operations, want) {
		t.Errorf("operations =\n%+v\nwant\n%+v", m.Operations, want)
	}
	again, _ := BuildManifest(sources)
	if string(again) != string(out) {
		t.Error("BuildManifest is not deterministic")
	}
	loaded, err := ParseManifest(out)
	if err != nil || len(loaded) != 2 || loaded[want[0].ID] != wantHero {
		t.Errorf("the built manifest does not load back: %v, %v", loaded, err)
	}
}

func TestBuildManifestErrors(t *testing.T) {
	tests := []struct {
		name    string
		sources map[string]string
		wantErr string
	}{
		{"syntax error names the file", map[string]string{"bad.graphql": "query { hero "}, "persisted: build manifest: bad.graphql: "},
		{"anonymous operation", map[string]string{"a.graphql": "{ hero { name } }"}, "a.graphql: an anonymous query"},
		{"duplicate operation", map[string]string{"a.graphql": "query A { a }", "b.graphql": "query A { b }"},
			`operation "A" is defined in both a.graphql and b.graphql`},
		{"duplicate fragment", map[string]string{"a.graphql": "fragment F on T { a }", "b.graphql": "fragment F on T { b }"},
			`fragment "F" is defined in both a.graphql and b.graphql`},
		{"unknown fragment", map[string]string{"a.graphql": "query A { ...Missing }"}, `a.graphql: operation "A": unknown fragment "Missing"`},
		{"no operations", map[string]string{"f.graphql": "fragment F on T { a }"}, "no operations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := BuildManifest(tt.sources)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestBuildManifestCyclicFragments(t *testing.T) {
	// Cycles are invalid GraphQL, but building must still end.
	out, err := BuildManifest(map[string]string{"a.graphql": "query A { ...F } fragment F on T { ...G } fragment G on T { ...F }"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "fragment F on T") || !strings.Contains(string(out), "fragment G on T") {
		t.Errorf("manifest lacks the fragments: %s", out)
	}
}
