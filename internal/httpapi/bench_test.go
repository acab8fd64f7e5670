package httpapi

import (
	"encoding/json"
	"testing"

	"github.com/graftgql/graft/internal/workload"
)

// BenchmarkDecode decodes the bench's POST bodies: q1 in full, q1 as a
// hash-only automatic persisted query, and q4 (the introspection query,
// whose text has an escaped newline on each line), with the query texts
// a router keeps.
func BenchmarkDecode(b *testing.B) {
	q4, err := json.Marshal(map[string]string{"query": workload.Q4})
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct{ name, body string }{
		{"q1", `{"query":"{ hello }"}`},
		{"q1-apq", `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"a8a2d5e1d0a3cd1e0c6e7f5e1fb3ef9fa2a4d9a2b05bfa3d7c4c1fbbd0eea0d1"}}}`},
		{"q4", string(q4)},
	}
	texts, err := NewQueryTexts(100, 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			raw := RawRequest{Method: "POST", ContentType: "application/json", Body: []byte(c.body), Texts: texts}
			scratch := make([]byte, 0, 4096)
			b.ReportAllocs()
			for b.Loop() {
				raw.Scratch = scratch
				if _, e := Decode(&raw); e != nil {
					b.Fatal(e.Err)
				}
			}
		})
	}
}
