package upload

import (
	"bytes"
	"testing"
)

// FuzzParse: any body, with any map and operations, is read or refused
// without a panic, and leaves nothing taken from the budget once closed.
func FuzzParse(f *testing.F) {
	seed := func(ops, m string, files map[string]string) {
		b, _ := body(&testing.T{}, ops, m, files)
		f.Add(b)
	}
	seed(`{"query":"q","variables":{"a":null}}`, `{"a":["variables.a"]}`, map[string]string{"a": "x"})
	seed(`[{"variables":{"a":[null,null]}},{"variables":{"b":{"c":null}}}]`, `{"0":["0.variables.a.1","1.variables.b.c"]}`, map[string]string{"0": "yy"})
	seed(`{"variables":{"a":null}}`, `{"0":["variables.a.99999999999"]}`, nil)
	f.Fuzz(func(t *testing.T, raw []byte) {
		// Every seed's boundary is random: rewrite the first line's.
		i := bytes.Index(raw, []byte("\r\n"))
		if i < 3 || raw[0] != '-' || raw[1] != '-' {
			return
		}
		ct := "multipart/form-data; boundary=" + string(raw[2:i])
		mem := NewBudget(64)
		lim := limits(t.TempDir(), mem)
		form, e := Parse(bytes.NewReader(raw), ct, lim)
		if e == nil {
			form.Close()
		} else if e.Status != 400 && e.Status != 413 && e.Status != 503 {
			t.Fatalf("status %d: %s", e.Status, e.Message)
		}
		if mem.Used() != 0 {
			t.Fatalf("budget holds %d bytes", mem.Used())
		}
	})
}
