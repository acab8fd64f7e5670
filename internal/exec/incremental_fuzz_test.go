package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/exec"
)

// FuzzIncrementalMatchesExecute generates documents with @defer and
// @stream from the fuzzer's bytes and holds their incremental delivery,
// in both formats, to what a single response gives: once every payload is
// merged at the paths it names, the data and the errors are those of
// Execute on the same document (which writes deferred fields in place and
// streams nothing). Along the way every payload is valid JSON, every
// announced fragment or stream completes once, nothing is delivered to a
// path that does not exist, and the last payload says hasNext false.
func FuzzIncrementalMatchesExecute(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{224, 116, 191, 108, 141, 23, 160, 135, 118, 81, 185, 145, 149, 93, 229, 96, 15, 95, 222, 210, 8, 175, 202, 30, 252},
		{147, 126, 103, 159, 207, 149, 252, 164, 102, 172, 0, 246, 233, 109, 134, 196, 191, 84, 255, 11, 11, 87, 14, 254, 143, 125, 88, 155, 29, 13, 38, 44},
		{165, 167, 228, 250, 127, 157, 107, 199, 167, 95, 84, 158, 253, 23, 155, 47, 123, 215, 30, 155, 195, 193, 81, 103, 187, 35, 96, 147, 170, 148, 222, 69, 83, 115, 7, 59, 157, 33, 235, 254},
		{218, 122, 130, 179, 22, 3, 175, 93, 251, 153, 36, 182, 69, 17, 69, 46, 52, 117, 35, 223, 225, 85, 35, 41, 32, 200, 129, 111, 211, 30, 91, 27, 131, 104, 221, 242, 162, 204, 167, 119, 114, 171, 253, 51, 12, 201, 248, 145},
		{35, 146, 43, 255, 206, 246, 55, 56, 139, 111, 154, 153, 31, 47, 148, 26, 86, 231, 198, 238, 135, 133, 68, 184, 140, 41, 143, 205, 95, 124, 60, 56, 246, 182, 98},
	} {
		f.Add(seed)
	}
	e := gatedEngine(f, newGated(), true)
	f.Fuzz(func(t *testing.T, choices []byte) {
		query := genIncremental(choices)
		doc, errs := e.Prepare(query)
		if errs != nil {
			return // an invalid document: validation's to answer, as for any other
		}
		op, gerr := doc.Operation("")
		if gerr != nil {
			return
		}
		vars, errs := e.CoerceVariables(op, nil)
		if errs != nil {
			return
		}
		ref := decodePayload(t, "Execute", e.Execute(context.Background(), op, vars, nil, nil))
		wantErrs := errorSet(ref["errors"])
		for _, format := range []exec.Format{exec.FormatCurrent, exec.Format2022} {
			m := &incMerge{t: t, format: format, pending: map[string][]any{}, done: map[string]bool{}}
			out, _, inc := e.RunIncremental(context.Background(), op, vars, format, nil, nil, nil)
			more := m.apply(decodePayload(t, "initial", out), true)
			if (inc != nil) != more {
				t.Fatalf("format %d: initial payload says hasNext %v, the run has more payloads %v\nquery: %s", format, more, inc != nil, query)
			}
			for n := 0; more; n++ {
				if n > 1000 {
					t.Fatalf("format %d: more than 1000 payloads\nquery: %s", format, query)
				}
				next := make(chan []byte, 1)
				go func() {
					b, m := inc.Next(nil, nil)
					more = m
					next <- b
				}()
				select {
				case b := <-next:
					m.apply(decodePayload(t, "subsequent", b), false)
					if m.more != more {
						t.Fatalf("format %d: payload says hasNext %v, the run has more %v\nquery: %s", format, m.more, more, query)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("format %d: no payload within 10s\nquery: %s", format, query)
				}
			}
			if inc != nil {
				inc.Close()
			}
			for id := range m.pending {
				if !m.done[id] {
					t.Errorf("format %d: pending %s never completed\nquery: %s", format, id, query)
				}
			}
			if !reflect.DeepEqual(m.data, ref["data"]) {
				t.Errorf("format %d: merged data differs from Execute's\nquery: %s\nmerged:  %s\nexecute: %s", format, query, mustMarshal(m.data), mustMarshal(ref["data"]))
			}
			if got := errorSet(m.errors); !slices.Equal(got, wantErrs) {
				t.Errorf("format %d: errors differ from Execute's\nquery: %s\nmerged:  %q\nexecute: %q", format, query, got, wantErrs)
			}
		}
	})
}

// genIncremental writes a query over the gated schema's fields that
// resolve at once, each choice taken from the next byte (0 once they run
// out): fields, aliases, inline fragments with and without @defer,
// @stream on the lists.
func genIncremental(choices []byte) string {
	g := &incGen{b: choices}
	var sb strings.Builder
	sb.WriteString("{ ")
	g.selection(&sb, "Query", 0)
	sb.WriteString("}")
	return sb.String()
}

type incGen struct {
	b      []byte
	labels int
}

func (g *incGen) next(n int) int {
	if len(g.b) == 0 {
		return 0
	}
	c := int(g.b[0])
	g.b = g.b[1:]
	return c % n
}

// skip sometimes leaves the field just written out, or keeps it, with a
// constant condition.
func (g *incGen) skip(sb *strings.Builder) {
	switch g.next(8) {
	case 1:
		sb.WriteString("@skip(if: true) ")
	case 2:
		sb.WriteString("@include(if: true) ")
	}
}

func (g *incGen) alias(sb *strings.Builder) {
	switch g.next(4) {
	case 1:
		sb.WriteString("a: ")
	case 2:
		sb.WriteString("b: ")
	}
}

// listField writes list field name, aliased or not, and with @stream or
// not.
func (g *incGen) listField(sb *strings.Builder, name string) {
	g.alias(sb)
	sb.WriteString(name)
	if g.next(2) == 1 {
		g.directive(sb, "stream", "initialCount: "+strconv.Itoa(g.next(5)))
	}
}

// directive writes @defer or @stream's arguments: a label or none, and
// sometimes if: false.
func (g *incGen) directive(sb *strings.Builder, name string, extra string) {
	var args []string
	if g.next(2) == 1 {
		g.labels++
		args = append(args, `label: "L`+strconv.Itoa(g.labels)+`"`)
	}
	if g.next(5) == 0 {
		args = append(args, "if: false")
	}
	if extra != "" {
		args = append(args, extra)
	}
	sb.WriteString(" @" + name)
	if len(args) > 0 {
		sb.WriteString("(" + strings.Join(args, ", ") + ")")
	}
}

func (g *incGen) selection(sb *strings.Builder, typ string, depth int) {
	n := 1 + g.next(3)
	for range n {
		g.item(sb, typ, depth)
	}
}

func (g *incGen) item(sb *strings.Builder, typ string, depth int) {
	if depth > 3 {
		sb.WriteString("__typename ")
		return
	}
	if g.next(6) == 5 {
		// An inline fragment, deferred or not.
		sb.WriteString("...")
		if g.next(3) != 0 {
			g.directive(sb, "defer", "")
		}
		sb.WriteString(" { ")
		g.selection(sb, typ, depth+1)
		sb.WriteString("} ")
		return
	}
	if typ == "Query" {
		switch g.next(6) {
		case 0:
			sb.WriteString("__typename ")
		case 1, 2:
			g.alias(sb)
			sb.WriteString("obj { ")
			g.selection(sb, "Obj", depth+1)
			sb.WriteString("} ")
		case 3:
			g.listField(sb, "list")
			sb.WriteString(" { ")
			g.selection(sb, "Obj", depth+1)
			sb.WriteString("} ")
		case 4:
			g.listField(sb, "scalars")
			sb.WriteString(" ")
		case 5:
			g.alias(sb)
			sb.WriteString("fast ")
			g.skip(sb)
		}
		return
	}
	switch g.next(6) {
	case 0:
		sb.WriteString("__typename ")
	case 1:
		g.alias(sb)
		sb.WriteString("name ")
		g.skip(sb)
	case 2:
		g.alias(sb)
		sb.WriteString("nullableFail ")
		g.skip(sb)
	case 3:
		g.alias(sb)
		sb.WriteString("batched ")
		g.skip(sb)
	case 4:
		g.alias(sb)
		sb.WriteString("child { ")
		g.selection(sb, "Obj", depth+1)
		sb.WriteString("} ")
	case 5:
		g.alias(sb)
		sb.WriteString("id ")
		g.skip(sb)
	}
}

// incMerge merges the payloads of one incremental delivery.
type incMerge struct {
	t       *testing.T
	format  exec.Format
	data    any
	errors  []any
	pending map[string][]any // id: path (current format)
	done    map[string]bool
	more    bool
}

func (m *incMerge) apply(p map[string]any, initial bool) bool {
	t := m.t
	if errs, ok := p["errors"].([]any); ok {
		m.errors = append(m.errors, errs...)
	}
	if initial {
		m.data = p["data"]
	} else if _, ok := p["data"]; ok {
		t.Fatalf("a subsequent payload has data at its top: %s", mustMarshal(p))
	}
	hasNext, ok := p["hasNext"].(bool)
	if !ok && (!initial || p["pending"] != nil || p["incremental"] != nil) {
		t.Fatalf("payload without hasNext: %s", mustMarshal(p))
	}
	m.more = hasNext
	for _, pe := range list(p["pending"]) {
		pe := pe.(map[string]any)
		id := pe["id"].(string)
		if _, dup := m.pending[id]; dup {
			t.Fatalf("pending id %s announced twice", id)
		}
		m.pending[id] = pe["path"].([]any)
	}
	for _, inc := range list(p["incremental"]) {
		inc := inc.(map[string]any)
		var path []any
		if m.format == exec.FormatCurrent {
			id, _ := inc["id"].(string)
			base, ok := m.pending[id]
			if !ok || m.done[id] {
				t.Fatalf("incremental entry for id %q, not pending: %s", id, mustMarshal(p))
			}
			path = append(slices.Clone(base), list(inc["subPath"])...)
		} else {
			path = list(inc["path"])
		}
		if errs, ok := inc["errors"].([]any); ok {
			m.errors = append(m.errors, errs...)
		}
		if items, ok := inc["items"]; ok {
			if m.format == exec.Format2022 {
				if len(path) == 0 {
					t.Fatalf("items without an index: %s", mustMarshal(inc))
				}
				idx, _ := path[len(path)-1].(float64)
				path = path[:len(path)-1]
				if cur, _ := m.at(path).([]any); int(idx) != len(cur) {
					t.Fatalf("items at index %v of a list of %d", idx, len(cur))
				}
			}
			if items == nil {
				continue // 2022: a stream ended by an error
			}
			m.set(path, append(m.at(path).([]any), items.([]any)...))
			continue
		}
		data, ok := inc["data"]
		if !ok {
			t.Fatalf("incremental entry with neither data nor items: %s", mustMarshal(inc))
		}
		if data == nil {
			continue // 2022: a fragment ended by an error
		}
		dst, ok := m.at(path).(map[string]any)
		if !ok {
			t.Fatalf("data for %v, which is not an object in %s", path, mustMarshal(m.data))
		}
		mergeInto(t, dst, data.(map[string]any))
	}
	for _, c := range list(p["completed"]) {
		c := c.(map[string]any)
		id := c["id"].(string)
		if _, ok := m.pending[id]; !ok || m.done[id] {
			t.Fatalf("completed %s, not pending", id)
		}
		m.done[id] = true
		if errs, ok := c["errors"].([]any); ok {
			m.errors = append(m.errors, errs...)
		}
	}
	return hasNext
}

// at returns the value at path in the merged data.
func (m *incMerge) at(path []any) any {
	v := m.data
	for _, k := range path {
		switch k := k.(type) {
		case string:
			o, ok := v.(map[string]any)
			if !ok {
				m.t.Fatalf("path %v: %v is not an object's key", path, k)
			}
			v = o[k]
		case float64:
			l, ok := v.([]any)
			if !ok || int(k) < 0 || int(k) >= len(l) {
				m.t.Fatalf("path %v: %v is not an index of the list", path, k)
			}
			v = l[int(k)]
		}
	}
	return v
}

// set replaces the list at path (whose parent exists).
func (m *incMerge) set(path []any, v any) {
	if len(path) == 0 {
		m.t.Fatal("items for the root")
	}
	parent := m.at(path[:len(path)-1])
	switch k := path[len(path)-1].(type) {
	case string:
		parent.(map[string]any)[k] = v
	case float64:
		parent.([]any)[int(k)] = v
	}
}

// mergeInto merges src into dst: objects key by key, lists of one length
// item by item; any other value already there must be equal.
func mergeInto(t *testing.T, dst, src map[string]any) {
	for k, sv := range src {
		dv, ok := dst[k]
		if !ok {
			dst[k] = sv
			continue
		}
		mergeValue(t, k, dv, sv)
	}
}

func mergeValue(t *testing.T, key string, dv, sv any) {
	switch d := dv.(type) {
	case map[string]any:
		if s, ok := sv.(map[string]any); ok {
			mergeInto(t, d, s)
			return
		}
	case []any:
		if s, ok := sv.([]any); ok && len(s) == len(d) {
			for i := range d {
				mergeValue(t, key, d[i], s[i])
			}
			return
		}
	}
	if !reflect.DeepEqual(dv, sv) {
		t.Fatalf("%s delivered twice, as %s and as %s", key, mustMarshal(dv), mustMarshal(sv))
	}
}

func decodePayload(t *testing.T, what string, b []byte) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%s payload is not a JSON object: %v\n%s", what, err, b)
	}
	return p
}

// errorSet returns each error's message and path, sorted.
func errorSet(v any) []string {
	var out []string
	for _, e := range list(v) {
		e := e.(map[string]any)
		out = append(out, fmt.Sprintf("%v %s", e["message"], mustMarshal(e["path"])))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func mustMarshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
