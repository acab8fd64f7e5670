package graphiql

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRenderEndpoint checks that no endpoint value changes the page's
// structure: the script and style elements stay the same, and the
// endpoint literal decodes back to the value.
func FuzzRenderEndpoint(f *testing.F) {
	for _, s := range []string{"/graphql", "</script>", `"'\`, "<!--", "\u2028", "]]>", "${x}`"} {
		f.Add(s)
	}
	want := countScripts() + 1
	f.Fuzz(func(t *testing.T, endpoint string) {
		b, err := Render(Options{Endpoint: endpoint, Title: endpoint})
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		page := strings.ToLower(string(b))
		if n := strings.Count(page, "</script"); n != want {
			t.Fatalf("%d </script, want %d", n, want)
		}
		if n := strings.Count(page, "<script"); n != want {
			t.Fatalf("%d <script, want %d", n, want)
		}
		if strings.Count(page, "<title>") != 1 || strings.Count(page, "</title>") != 1 {
			t.Fatalf("title breaks out")
		}
		lit := endpointLiteral(t, string(b))
		var got string
		if err := json.Unmarshal([]byte(lit), &got); err != nil {
			t.Fatalf("literal %s: %v", lit, err)
		}
		if endpoint == "" {
			endpoint = "/graphql"
		}
		if utf8.ValidString(endpoint) && got != endpoint {
			t.Fatalf("literal decodes to %q, want %q", got, endpoint)
		}
	})
}
