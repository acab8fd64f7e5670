package graftotel

import (
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

// TestAttrSetsBoundedByBytes: operation names come from clients, so the
// kept attribute sets stop growing at maxAttrSetBytes; past it a set is
// still returned, built for the call.
func TestAttrSetsBoundedByBytes(t *testing.T) {
	var a attrSets
	name := strings.Repeat("n", 1000)
	for i := range 200 {
		k := setKey{kind: "op", a: name + string(rune('a'+i%26)) + strings.Repeat("x", i/26), b: "query", c: "success"}
		if o := a.get(k, attribute.String("graphql.operation.name", k.a)); o == nil {
			t.Fatalf("call %d: no set", i)
		}
	}
	if a.bytes > maxAttrSetBytes || len(a.sets) == 0 || len(a.sets) >= 200 {
		t.Fatalf("%d sets of %d bytes kept, want fewer than 200 within %d bytes", len(a.sets), a.bytes, maxAttrSetBytes)
	}
}
