package graftotel

import (
	"strings"
	"testing"
)

// TestAttrSetsBoundedByBytes: operation names come from clients, so the
// kept series stop growing at maxAttrSetBytes; past it a kind's
// measurements go to its overflow series.
func TestAttrSetsBoundedByBytes(t *testing.T) {
	var a attrSets
	name := strings.Repeat("n", 1000)
	for i := range 200 {
		k := setKey{kind: "op", a: name + string(rune('a'+i%26)) + strings.Repeat("x", i/26), b: "query", c: "success"}
		if o := a.get(k); o == nil {
			t.Fatalf("call %d: no set", i)
		}
	}
	if a.bytes > maxAttrSetBytes || len(a.kept()) == 0 || len(a.kept()) >= 200 {
		t.Fatalf("%d sets of %d bytes kept, want fewer than 200 within %d bytes", len(a.kept()), a.bytes, maxAttrSetBytes)
	}
	over := a.kept()[overflowKey("op")]
	if over == nil || a.get(setKey{kind: "op", a: name + "late", b: "query", c: "success"}) != over {
		t.Fatal("a series past the bound is not counted in the overflow series")
	}
}
