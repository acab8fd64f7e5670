package schema_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/graftgql/graft/schema"
)

// FuzzRawJSONSplit compares RawJSONMembers, RawMember and
// RawJSONElements with encoding/json on the same bytes: for valid JSON
// they find the same members (the last of repeated keys, escaped keys
// decoded) and elements, byte for byte.
func FuzzRawJSONSplit(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b\u0031":[true],"a":null}`,
		` [1, {"a":[2]} ,"x\"]"] `,
		`{"\u0061":"x","a":"y"}`,
		"{\"k\xff\":1,\"k\xfe\":2}",
		`{"a":{"b":{"c":[1,2,{"d":"\ud800"}]}},"e":-0.5e10}`,
		`{"a":"\\","b":"\\\"","c":"\\\\"}`,
		`[]`, `{}`, `[1,]`, `{"a"}`, `[1] x`, `null`, `"s"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		members, merr := schema.RawJSONMembers(b)
		elems, eerr := schema.RawJSONElements(b)
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil && m != nil {
			if merr != nil {
				t.Fatalf("RawJSONMembers(%q): %v", b, merr)
			}
			if len(members) != len(m) {
				t.Fatalf("RawJSONMembers(%q) = %q, encoding/json has %q", b, members, m)
			}
			for k, v := range m {
				if !bytes.Equal(members[k], v) {
					t.Fatalf("RawJSONMembers(%q)[%q] = %q, encoding/json has %q", b, k, members[k], v)
				}
				if got := schema.RawMember(b, k); !bytes.Equal(got, v) {
					t.Fatalf("RawMember(%q, %q) = %q, want %q", b, k, got, v)
				}
			}
		}
		var l []json.RawMessage
		if json.Unmarshal(b, &l) == nil && l != nil {
			if eerr != nil || len(elems) != len(l) {
				t.Fatalf("RawJSONElements(%q) = %q, %v; encoding/json has %q", b, elems, eerr, l)
			}
			for i := range l {
				if !bytes.Equal(elems[i], l[i]) {
					t.Fatalf("RawJSONElements(%q)[%d] = %q, want %q", b, i, elems[i], l[i])
				}
			}
		}
	})
}
