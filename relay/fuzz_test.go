package relay

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// The fuzz targets of this file hold the package to properties, not only
// to not panicking: cursors and ids it writes decode to what was
// written, what it reads back it would have written, and every page is
// the window of the items the arguments ask for, with the page info that
// window has. The seeds are the cases of the package's tests.

// encodeCursor is the cursor of key in the connection with hash, as a
// page writes it.
func encodeCursor(hash [4]byte, key []byte) string {
	var w cursorWriter
	w.init(hash, 1, len(key))
	return strings.Clone(w.add(key))
}

// FuzzCursor decodes arbitrary text as a cursor, and encodes arbitrary
// keys: a key written decodes to itself, and text that decodes is the
// cursor of its key.
func FuzzCursor(f *testing.F) {
	hash := connectionHash("ItemConnection", "")
	for _, k := range []string{"", "0", "7", "30", "apple", "a:b", "\x00\xff", strings.Repeat("k", 100), strings.Repeat("k", 400)} {
		f.Add(encodeCursor(hash, []byte(k)), k)
	}
	f.Add("", "")
	f.Add("!!", "\xff")
	f.Add("AQ", "x")
	f.Add(encodeCursor(hash, []byte("7"))+"\n", "7")
	f.Add(encodeCursor(hash, []byte("30"))[:9]+"z", "30")
	f.Add(strings.Repeat("A", 600), "x")
	f.Fuzz(func(t *testing.T, c, key string) {
		if k, ok := decodeCursor(c, hash); ok {
			if w := encodeCursor(hash, k); w != c {
				t.Fatalf("cursor %q is read as key %q, whose cursor is %q", c, k, w)
			}
			if again, ok := decodeCursor(encodeCursor(hash, k), hash); !ok || !bytes.Equal(again, k) {
				t.Fatalf("cursor %q decodes to key %q, whose cursor decodes to %q, %v", c, k, again, ok)
			}
			if _, ok := decodeCursor(c, connectionHash("ItemConnection", "other")); ok {
				t.Fatalf("cursor %q is accepted in another scope", c)
			}
		}
		if len(key) > maxKeyLen {
			return
		}
		written := encodeCursor(hash, []byte(key))
		k, ok := decodeCursor(written, hash)
		if !ok || string(k) != key {
			t.Fatalf("key %q: cursor %q decodes to %q, %v", key, written, k, ok)
		}
		if _, ok := decodeCursor(written, connectionHash("OtherConnection", "")); ok {
			t.Fatalf("key %q: the cursor is accepted by another connection", key)
		}
	})
}

// FuzzCursorKeys reads arbitrary bytes as the key of an offset and of an
// integer keyset cursor: what is accepted is exactly what the package
// writes for that value, so one position has one cursor.
func FuzzCursorKeys(f *testing.F) {
	for _, k := range []string{"0", "7", "30", "-1", "+1", "-0", "007", "", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "1e3", " 1", "1_000", "0x10"} {
		f.Add([]byte(k))
	}
	f.Fuzz(func(t *testing.T, key []byte) {
		if n, ok := parseOffset(key); ok {
			if n < 0 {
				t.Fatalf("parseOffset(%q) = %d", key, n)
			}
			if w := appendOffset(nil, n); !bytes.Equal(w, key) {
				t.Fatalf("parseOffset(%q) = %d, whose key is %q", key, n, w)
			}
		}
		if n, ok := parseKey[int64](key); ok {
			if w := appendKey(nil, n); !bytes.Equal(w, key) {
				t.Fatalf("parseKey(%q) = %d, whose key is %q", key, n, w)
			}
		}
		if s, ok := parseKey[string](key); !ok || s != string(key) {
			t.Fatalf("parseKey[string](%q) = %q, %v", key, s, ok)
		}
	})
}

// FuzzID reads arbitrary text as a global id, and writes the ids of
// arbitrary type names and keys: an id written parses to its type and
// key, and an id that parses is the id of what it parses to.
func FuzzID(f *testing.F) {
	for _, c := range [][2]string{{"Book", "7"}, {"Book", "a:b"}, {"Item", ""}, {"Other", "\xff\x00"},
		{"Book", strings.Repeat("k", 700)}, {"Book", strings.Repeat("k", 2000)}} {
		f.Add(string(ID(c[0], c[1])), c[0], c[1])
	}
	for _, id := range []string{"", "!!", "Qm9vaw", "OjE", "Qm9vazo3=", "Qm9vazo4", "Qm9vazo3\n", "Qm9vazox", "Qm9vazoxMQ", "Qm9vazoxMR"} {
		f.Add(id, "Book", "7")
	}
	f.Fuzz(func(t *testing.T, id, typeName, key string) {
		if typ, k, ok := ParseID(schema.ID(id)); ok {
			if typ == "" || strings.Contains(typ, ":") {
				t.Fatalf("ParseID(%q) = type %q", id, typ)
			}
			if w := ID(typ, k); string(w) != id {
				t.Fatalf("ParseID(%q) = %q %q, whose id is %q", id, typ, k, w)
			}
			if t2, k2, ok := ParseID(ID(typ, k)); !ok || t2 != typ || k2 != k {
				t.Fatalf("ParseID(%q) = %q %q; its id parses to %q %q %v", id, typ, k, t2, k2, ok)
			}
			if k2, ok := KeyOf(schema.ID(id), typ); !ok || k2 != k {
				t.Fatalf("KeyOf(%q, %q) = %q, %v; ParseID gave %q", id, typ, k2, ok, k)
			}
		} else if _, ok := KeyOf(schema.ID(id), typeName); ok {
			t.Fatalf("KeyOf(%q) accepts an id ParseID refuses", id)
		}
		if typeName == "" || strings.Contains(typeName, ":") || len(typeName)+1+len(key) > maxIDLen {
			return // not a type name; or a key too long to be an id
		}
		written := ID(typeName, key)
		typ, k, ok := ParseID(written)
		if !ok || typ != typeName || k != key {
			t.Fatalf("ID(%.40q, %.40q) (%d bytes) = %.40q parses to %.40q %.40q %v", typeName, key, len(key), written, typ, k, ok)
		}
		if k, ok := KeyOf(written, typeName); !ok || k != key {
			t.Fatalf("KeyOf(ID(%q, %q)) = %q, %v", typeName, key, k, ok)
		}
		if _, ok := KeyOf(written, typeName+"x"); ok {
			t.Fatalf("KeyOf(ID(%q, %q)) accepts another type", typeName, key)
		}
	})
}

// pageCase is one fuzzed request for a page: the items, the arguments
// and how the cursors are made.
type pageCase struct {
	n                        int // items in the connection
	first, last              *int
	after, before            *string
	afterKey, beforeKey      *string // the key the cursor holds, when made by the connection
	afterWrong, beforeWrong  bool    // the cursor is of another scope or is not a cursor
	requirePageSize          bool
	defaultSize, maxPageSize int
}

// cursorArg turns a fuzzed string into an after or before argument by
// mode: absent, a cursor of the key of this connection and scope, of
// another scope, or the text itself.
func cursorArg(mode uint8, s string, hash, otherHash [4]byte) (arg, key *string, wrong bool) {
	switch mode % 4 {
	case 0:
		return nil, nil, false
	case 1:
		c := encodeCursor(hash, []byte(s))
		if len(s) > maxKeyLen {
			return &c, nil, true // the package never writes it
		}
		return &c, &s, false
	case 2:
		c := encodeCursor(otherHash, []byte(s))
		return &c, nil, true
	default:
		if _, ok := decodeCursor(s, hash); ok {
			k, _ := decodeCursor(s, hash)
			ks := string(k)
			return &s, &ks, false
		}
		return &s, nil, true
	}
}

func newPageCase(n uint8, first, last int64, flags uint8, after, before string, name, scope string) pageCase {
	hash, other := connectionHash(name, scope), connectionHash(name, scope+"x")
	pc := pageCase{n: int(n % 12), defaultSize: 3, maxPageSize: 5, requirePageSize: flags&0x40 != 0}
	if flags&1 != 0 {
		v := clampInt(first)
		pc.first = &v
	}
	if flags&2 != 0 {
		v := clampInt(last)
		pc.last = &v
	}
	pc.after, pc.afterKey, pc.afterWrong = cursorArg(flags>>2, after, hash, other)
	pc.before, pc.beforeKey, pc.beforeWrong = cursorArg(flags>>4, before, hash, other)
	return pc
}

func clampInt(v int64) int {
	if v > math.MaxInt {
		return math.MaxInt
	}
	if v < math.MinInt {
		return math.MinInt
	}
	return int(v)
}

// wantArgError is the argument a request is refused for, as the package
// documents the checks and their order, or "".
func (pc pageCase) wantArgError(validKey func(string) bool) string {
	switch {
	case pc.first != nil && pc.last != nil:
		return "last"
	case pc.first != nil && (*pc.first < 0 || *pc.first > pc.maxPageSize):
		return "first"
	case pc.last != nil && (*pc.last < 0 || *pc.last > pc.maxPageSize):
		return "last"
	case pc.first == nil && pc.last == nil && pc.requirePageSize:
		return "first"
	case pc.after != nil && pc.afterWrong:
		return "after"
	case pc.before != nil && pc.beforeWrong:
		return "before"
	case pc.after != nil && !validKey(*pc.afterKey):
		return "after"
	case pc.before != nil && !validKey(*pc.beforeKey):
		return "before"
	}
	return ""
}

func (pc pageCase) count() (n int, backward bool) {
	switch {
	case pc.first != nil:
		return *pc.first, false
	case pc.last != nil:
		return *pc.last, true
	}
	return pc.defaultSize, false
}

func (pc pageCase) args() PageArgs {
	return PageArgs{First: pc.first, Last: pc.last, After: pc.after, Before: pc.before}
}

// checkArgError checks that err is the documented refusal of arg.
func checkArgError(t *testing.T, err error, arg string) {
	t.Helper()
	var ge *gqlerror.Error
	if !errors.As(err, &ge) || ge.Extensions["code"] != "BAD_USER_INPUT" || ge.Extensions["argument"] != arg {
		t.Fatalf("error %#v, want BAD_USER_INPUT for %q", err, arg)
	}
	if ge.Message == "" || len(ge.Message) > 200 || !utf8.ValidString(ge.Message) {
		t.Fatalf("error message %q", ge.Message)
	}
}

// checkPage checks that conn is the window [lo, hi) of the items,
// cursors and page info included: node is the address of item i (nil
// when the nodes are not items' own), key the key of its cursor.
func checkPage[T any](t *testing.T, conn Connection[T], node func(i int) *T, lo, hi int, hasPrev, hasNext bool,
	hash [4]byte, key func(i int) string) {
	t.Helper()
	if conn.Edges == nil {
		t.Fatal("edges is nil, want a list")
	}
	if len(conn.Edges) != hi-lo {
		t.Fatalf("%d edges, want items [%d, %d)", len(conn.Edges), lo, hi)
	}
	for j, e := range conn.Edges {
		if node != nil && e.Node != node(lo+j) {
			t.Fatalf("edge %d is not item %d", j, lo+j)
		}
		k, ok := decodeCursor(e.Cursor, hash)
		if !ok || string(k) != key(lo+j) {
			t.Fatalf("edge %d: cursor %q holds %q, %v; want %q", j, e.Cursor, k, ok, key(lo+j))
		}
	}
	pi := conn.PageInfo
	if pi.HasPreviousPage != hasPrev || pi.HasNextPage != hasNext {
		t.Fatalf("items [%d, %d): hasPreviousPage=%v hasNextPage=%v, want %v %v", lo, hi, pi.HasPreviousPage, pi.HasNextPage, hasPrev, hasNext)
	}
	if hi == lo {
		if pi.StartCursor != nil || pi.EndCursor != nil {
			t.Fatal("an empty page has cursors")
		}
		return
	}
	if pi.StartCursor == nil || *pi.StartCursor != conn.Edges[0].Cursor || pi.EndCursor == nil || *pi.EndCursor != conn.Edges[hi-lo-1].Cursor {
		t.Fatalf("startCursor %v endCursor %v are not the cursors of the first and last edges", pi.StartCursor, pi.EndCursor)
	}
}

// pageSeeds adds the pages of the package's tests to f.
func pageSeeds(f *testing.F) {
	f.Add(uint8(7), int64(3), int64(0), uint8(1), "", "", "")
	f.Add(uint8(7), int64(3), int64(0), uint8(1|1<<2), "2", "", "")
	f.Add(uint8(7), int64(0), int64(3), uint8(2|1<<4), "", "4", "")
	f.Add(uint8(7), int64(3), int64(3), uint8(3), "", "", "")
	f.Add(uint8(7), int64(-1), int64(0), uint8(1), "", "", "")
	f.Add(uint8(7), int64(6), int64(0), uint8(1), "", "", "")
	f.Add(uint8(3), int64(0), int64(0), uint8(0x40), "", "", "")
	f.Add(uint8(7), int64(2), int64(0), uint8(1|1<<2), "9223372036854775807", "", "")
	f.Add(uint8(7), int64(2), int64(0), uint8(1|2<<2), "2", "", "a")
	f.Add(uint8(7), int64(2), int64(0), uint8(1|3<<2|3<<4), "AQ", "!!", "")
	f.Add(uint8(7), int64(0), int64(2), uint8(2|1<<2|1<<4), "1", "5", "")
	f.Add(uint8(7), int64(0), int64(2), uint8(2|1<<2|1<<4), "5", "1", "")
	f.Add(uint8(7), int64(0), int64(0), uint8(1), "", "", "")
	f.Add(uint8(7), int64(0), int64(0), uint8(1|1<<2), "+1", "", "")
	f.Add(uint8(7), int64(math.MaxInt64), int64(0), uint8(1), "", "", "")
}

// FuzzSlice pages arbitrary arguments through Slice over up to 11 items
// and checks the answer against the window the arguments ask for.
func FuzzSlice(f *testing.F) {
	pageSeeds(f)
	f.Fuzz(func(t *testing.T, n uint8, first, last int64, flags uint8, after, before, scope string) {
		pc := newPageCase(n, first, last, flags, after, before, "ItemConnection", scope)
		items := make([]int, pc.n)
		for i := range items {
			items[i] = i * 10
		}
		c := &ConnectionType[int]{name: "ItemConnection", cfg: Config{DefaultPageSize: pc.defaultSize, MaxPageSize: pc.maxPageSize, RequirePageSize: pc.requirePageSize}}
		conn, err := c.Slice(pc.args(), items, scope)
		offset := func(k string) (uint64, bool) {
			if k == "" || len(k) > 1 && k[0] == '0' {
				return 0, false
			}
			n, err := strconv.ParseUint(k, 10, 63)
			return n, err == nil
		}
		if arg := pc.wantArgError(func(k string) bool { _, ok := offset(k); return ok }); arg != "" {
			checkArgError(t, err, arg)
			return
		}
		if err != nil {
			t.Fatalf("%+v: %v", pc, err)
		}
		// The window, computed apart from the code under test: the items
		// after the after cursor and before the before cursor, then the
		// first or last count of them.
		start, end := uint64(0), uint64(pc.n)
		if pc.after != nil {
			a, _ := offset(*pc.afterKey)
			start = min(a+1, uint64(pc.n))
		}
		if pc.before != nil {
			b, _ := offset(*pc.beforeKey)
			end = max(min(b, end), start)
		}
		count, backward := pc.count()
		lo, hi := start, end
		if backward {
			lo = max(start, end-min(end, uint64(count)))
		} else {
			hi = min(end, start+min(uint64(count), end))
		}
		checkPage(t, conn, func(i int) *int { return &items[i] }, int(lo), int(hi), lo > 0, hi < uint64(pc.n),
			connectionHash("ItemConnection", scope), func(i int) string { return strconv.Itoa(i) })
		if conn.Total == nil {
			t.Fatal("Total is nil")
		}
		if total, err := conn.Total(context.Background()); total != pc.n || err != nil {
			t.Fatalf("Total = %d, %v", total, err)
		}
	})
}

// FuzzKeyset pages arbitrary arguments through Keyset over up to 11
// items keyed 10, 20, ..., with a fetch function that runs the query it
// is given, and checks the answer against the window the arguments ask
// for.
func FuzzKeyset(f *testing.F) {
	pageSeeds(f)
	f.Add(uint8(7), int64(2), int64(0), uint8(1|1<<2), "-5", "", "")
	f.Add(uint8(7), int64(0), int64(2), uint8(2|1<<4), "", "-9223372036854775808", "")
	f.Fuzz(func(t *testing.T, n uint8, first, last int64, flags uint8, after, before, scope string) {
		pc := newPageCase(n, first, last, flags, after, before, "ItemConnection", scope)
		items := make([]int64, pc.n)
		for i := range items {
			items[i] = int64(i+1) * 10
		}
		c := &ConnectionType[int64]{name: "ItemConnection", cfg: Config{DefaultPageSize: pc.defaultSize, MaxPageSize: pc.maxPageSize, RequirePageSize: pc.requirePageSize}}
		queries := 0
		conn, err := Keyset(c, pc.args(), scope, func(k *int64) int64 { return *k }, func(q KeysetQuery[int64]) ([]int64, error) {
			queries++
			if q.Limit < 1 {
				t.Fatalf("query limit %d", q.Limit)
			}
			return keysetModel(items, func(k *int64) int64 { return *k }, q), nil
		})
		key := func(k string) (int64, bool) {
			v, err := strconv.ParseInt(k, 10, 64)
			return v, err == nil && strconv.FormatInt(v, 10) == k
		}
		if arg := pc.wantArgError(func(k string) bool { _, ok := key(k); return ok }); arg != "" {
			checkArgError(t, err, arg)
			if queries != 0 {
				t.Fatalf("a refused page ran %d queries", queries)
			}
			return
		}
		if err != nil {
			t.Fatalf("%+v: %v", pc, err)
		}
		if queries > 1 {
			t.Fatalf("%d queries for one page", queries)
		}
		// The items between the cursors' keys, then the first or last
		// count of them.
		var in []int
		for i, k := range items {
			if pc.after != nil {
				if a, _ := key(*pc.afterKey); k <= a {
					continue
				}
			}
			if pc.before != nil {
				if b, _ := key(*pc.beforeKey); k >= b {
					continue
				}
			}
			in = append(in, i)
		}
		count, backward := pc.count()
		lo, hi := 0, 0
		var hasPrev, hasNext bool
		if len(in) > 0 {
			lo, hi = in[0], in[0]+len(in)
		}
		if backward {
			lo = max(lo, hi-count)
			hasPrev, hasNext = lo > in0(in), pc.before != nil
		} else {
			hi = min(hi, lo+count)
			hasNext, hasPrev = hi < in0(in)+len(in), pc.after != nil
		}
		checkPage(t, conn, nil, lo, hi, hasPrev, hasNext, connectionHash("ItemConnection", scope),
			func(i int) string { return strconv.FormatInt(int64(i+1)*10, 10) })
		for j, e := range conn.Edges {
			if *e.Node != items[lo+j] {
				t.Fatalf("edge %d holds %d, want %d", j, *e.Node, items[lo+j])
			}
		}
	})
}

// in0 is the first index of in, or 0.
func in0(in []int) int {
	if len(in) == 0 {
		return 0
	}
	return in[0]
}

// The cases below are inputs the fuzz targets found; they run with every
// go test.

// TestSliceForgedOffsets pages from forged cursors holding the largest
// offsets and offsets written otherwise than the package writes them.
func TestSliceForgedOffsets(t *testing.T) {
	c := &ConnectionType[int]{name: "ItemConnection", cfg: Config{DefaultPageSize: 3, MaxPageSize: 5}}
	hash := connectionHash(c.name, "")
	items := []int{0, 10, 20, 30, 40, 50, 60}
	two := 2
	for _, tc := range []struct {
		after, before string
		want          string // the items of the page, or the argument refused
	}{
		{after: "9223372036854775807", want: ""},
		{after: "9223372036854775806", want: ""},
		{after: "6", want: ""},
		{after: "5", want: "60"},
		{before: "9223372036854775807", want: "50,60"},
		{after: "9223372036854775808", want: "after"},
		{after: "+1", want: "after"},
		{after: "-0", want: "after"},
		{after: "01", want: "after"},
		{before: "+3", want: "before"},
	} {
		args := PageArgs{}
		if tc.after != "" {
			a := encodeCursor(hash, []byte(tc.after))
			args.First, args.After = &two, &a
		}
		if tc.before != "" {
			b := encodeCursor(hash, []byte(tc.before))
			args.Last, args.Before = &two, &b
		}
		conn, err := c.Slice(args, items, "")
		if tc.want == "after" || tc.want == "before" {
			checkArgError(t, err, tc.want)
			continue
		}
		if err != nil {
			t.Fatalf("after %q before %q: %v", tc.after, tc.before, err)
		}
		var got []string
		for _, e := range conn.Edges {
			got = append(got, strconv.Itoa(*e.Node))
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("after %q before %q: items %v, want %s", tc.after, tc.before, got, tc.want)
		}
	}
}

// keysetOver pages args through Keyset over the int64 keys, counting the
// queries.
func keysetOver(keys []int64, args PageArgs, queries *int) (Connection[int64], error) {
	c := &ConnectionType[int64]{name: "ItemConnection", cfg: Config{DefaultPageSize: 3, MaxPageSize: 5}}
	return Keyset(c, args, "", func(k *int64) int64 { return *k }, func(q KeysetQuery[int64]) ([]int64, error) {
		*queries++
		return keysetModel(keys, func(k *int64) int64 { return *k }, q), nil
	})
}

// TestKeysetForgedKeys pages from forged cursors holding integer keys
// written otherwise than the package writes them: refused, so that a key
// has one cursor.
func TestKeysetForgedKeys(t *testing.T) {
	hash := connectionHash("ItemConnection", "")
	two := 2
	for _, tc := range []struct{ key, want string }{
		{"-5", "10,20"}, {"15", "20,30"}, {"-9223372036854775808", "10,20"}, {"9223372036854775807", ""},
		{"+10", "after"}, {"007", "after"}, {"-0", "after"}, {"9223372036854775808", "after"}, {"", "after"}, {" 1", "after"},
	} {
		after := encodeCursor(hash, []byte(tc.key))
		var queries int
		conn, err := keysetOver([]int64{10, 20, 30}, PageArgs{First: &two, After: &after}, &queries)
		if tc.want == "after" {
			checkArgError(t, err, "after")
			continue
		}
		if err != nil {
			t.Fatalf("after %q: %v", tc.key, err)
		}
		var got []string
		for _, e := range conn.Edges {
			got = append(got, strconv.FormatInt(*e.Node, 10))
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("after %q: %v, want %s", tc.key, got, tc.want)
		}
	}
}

// TestLongKeys checks that the cursors and ids of the longest keys the
// package writes read back, and that it refuses to write longer ones
// instead of writing what it would then refuse.
func TestLongKeys(t *testing.T) {
	c := &ConnectionType[string]{name: "WordConnection", cfg: Config{DefaultPageSize: 1, MaxPageSize: 1}}
	one := 1
	for _, n := range []int{379, 380, 512, 513} {
		words := []string{strings.Repeat("a", n), strings.Repeat("b", n)}
		page := func(args PageArgs) (Connection[string], error) {
			return Keyset(c, args, "", func(w *string) string { return *w }, func(q KeysetQuery[string]) ([]string, error) {
				var out []string
				for _, w := range words {
					if (q.After == nil || w > *q.After) && len(out) < q.Limit {
						out = append(out, w)
					}
				}
				return out, nil
			})
		}
		conn, err := page(PageArgs{First: &one})
		if n > maxKeyLen {
			if err == nil {
				t.Errorf("a key of %d bytes: no error", n)
			}
			continue
		}
		if err != nil {
			t.Fatalf("a key of %d bytes: %v", n, err)
		}
		next, err := page(PageArgs{First: &one, After: conn.PageInfo.EndCursor})
		if err != nil || len(next.Edges) != 1 || *next.Edges[0].Node != words[1] {
			t.Errorf("a key of %d bytes: the page after its cursor is %v, %v", n, next.Edges, err)
		}
	}
	for _, n := range []int{762, 763, maxIDLen - len("Book:"), maxIDLen - len("Book")} {
		key := strings.Repeat("k", n)
		typ, k, ok := ParseID(ID("Book", key))
		if want := n+len("Book:") <= maxIDLen; ok != want || ok && (typ != "Book" || k != key) {
			t.Errorf("a key of %d bytes: ParseID = %v, want %v", n, ok, want)
		}
	}
}

// TestKeysetEmptyPage checks that first: 0 and last: 0 tell whether items
// follow or precede, as Slice does, with one query of one item.
func TestKeysetEmptyPage(t *testing.T) {
	zero := 0
	for _, tc := range []struct {
		args             PageArgs
		keys             []int64
		hasPrev, hasNext bool
	}{
		{PageArgs{First: &zero}, []int64{10, 20}, false, true},
		{PageArgs{First: &zero}, nil, false, false},
		{PageArgs{Last: &zero}, []int64{10, 20}, true, false},
		{PageArgs{Last: &zero}, nil, false, false},
	} {
		var queries int
		conn, err := keysetOver(tc.keys, tc.args, &queries)
		if err != nil || len(conn.Edges) != 0 || conn.PageInfo.HasPreviousPage != tc.hasPrev || conn.PageInfo.HasNextPage != tc.hasNext || queries != 1 {
			t.Errorf("%v over %v: %d edges, %+v, %d queries, %v; want hasPreviousPage %v hasNextPage %v, one query",
				tc.args, tc.keys, len(conn.Edges), conn.PageInfo, queries, err, tc.hasPrev, tc.hasNext)
		}
		c := &ConnectionType[int64]{name: "ItemConnection", cfg: Config{DefaultPageSize: 3, MaxPageSize: 5}}
		s, _ := c.Slice(tc.args, tc.keys, "")
		if s.PageInfo != conn.PageInfo {
			t.Errorf("%v over %v: Slice's page info %+v, Keyset's %+v", tc.args, tc.keys, s.PageInfo, conn.PageInfo)
		}
	}
}

// TestIDsAndCursorsAreReadAsWritten checks that an id or cursor is read
// only in the one form the package writes: not with a line break, nor
// with other bits in the unused part of its last character.
func TestIDsAndCursorsAreReadAsWritten(t *testing.T) {
	for _, id := range []schema.ID{"Qm9vazo3\n", "Qm9v\r\nazo3", "Qm9vazoxMR", "Qm9vazoxMT"} {
		if typ, key, ok := ParseID(id); ok {
			t.Errorf("ParseID(%q) = %q %q, the id of %q", id, typ, key, ID(typ, key))
		}
	}
	if typ, key, ok := ParseID("Qm9vazoxMQ"); !ok || typ != "Book" || key != "11" {
		t.Errorf("ParseID = %q %q %v", typ, key, ok)
	}
	hash := connectionHash("ItemConnection", "")
	c := encodeCursor(hash, []byte("30")) // 7 bytes: the last character has 2 unused bits
	last := strings.IndexByte(cursorAlphabet, c[len(c)-1])
	for _, bad := range []string{c + "\n", c[:4] + "\r\n" + c[4:], c[:len(c)-1] + cursorAlphabet[last+1:last+2]} {
		if k, ok := decodeCursor(bad, hash); ok {
			t.Errorf("cursor %q is read as %q, whose cursor is %q", bad, k, c)
		}
	}
	if k, ok := decodeCursor(c, hash); !ok || string(k) != "30" {
		t.Errorf("decodeCursor(%q) = %q, %v", c, k, ok)
	}
}

const cursorAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// routerItem is a node of the router FuzzRouterPages serves, keyed by
// its word.
type routerItem struct {
	Key  int64  `graphql:"key"`
	Word string `graphql:"word"`
}

var routerItems = []routerItem{{10, "a"}, {20, "a:b"}, {30, "b"}, {40, "é"}, {50, "\u2028"}, {60, strings.Repeat("z", maxKeyLen)}, {70, "~"}}

// newPagesClient serves routerItems as a Slice connection, an integer and
// a string Keyset connection and nodes.
func newPagesClient(t testing.TB) *grafttest.Client {
	b := schema.New()
	nodes := NewNodes(b)
	obj := schema.Object[routerItem](b, "Item", schema.Implements("Node"))
	Register(nodes, obj, func(i *routerItem) string { return i.Word }, func(_ context.Context, keys []string) ([]*routerItem, []error) {
		out := make([]*routerItem, len(keys))
		for i, k := range keys {
			for j := range routerItems {
				if routerItems[j].Word == k {
					out[i] = &routerItems[j]
				}
			}
		}
		return out, nil
	})
	conn := NewConnection[routerItem](b, "Item", Config{DefaultPageSize: 3, MaxPageSize: 5, TotalCount: true})
	schema.Query(b, "slice", func(_ context.Context, a PageArgs) (Connection[routerItem], error) {
		return conn.Slice(a, routerItems, "")
	}, conn.Cost())
	schema.Query(b, "keyset", func(_ context.Context, a PageArgs) (Connection[routerItem], error) {
		return Keyset(conn, a, "k", func(i *routerItem) int64 { return i.Key }, func(q KeysetQuery[int64]) ([]routerItem, error) {
			return keysetModel(routerItems, func(i *routerItem) int64 { return i.Key }, q), nil
		})
	}, conn.Cost())
	schema.Query(b, "words", func(_ context.Context, a PageArgs) (Connection[routerItem], error) {
		sorted := slices.SortedFunc(slices.Values(routerItems), func(x, y routerItem) int { return strings.Compare(x.Word, y.Word) })
		return Keyset(conn, a, "w", func(i *routerItem) string { return i.Word }, func(q KeysetQuery[string]) ([]routerItem, error) {
			return keysetModel(sorted, func(i *routerItem) string { return i.Word }, q), nil
		})
	}, conn.Cost())
	return clientOf(t, b)
}

// clientOf builds b and returns a client of a router serving it.
func clientOf(t testing.TB, b *schema.Builder) *grafttest.Client {
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

// pagesQuery asks for a page of the connection field and for nodes.
func pagesQuery(field string) string {
	return `query($f: Int, $l: Int, $a: String, $b: String, $id: ID!, $ids: [ID!]!) {
	` + field + `(first: $f, last: $l, after: $a, before: $b) {
		edges { cursor node { id key word } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
	node(id: $id) { id ... on Item { word } }
	nodes(ids: $ids) { id }
}`
}

// pageAnswer is one connection's page in pagesAnswer.
type pageAnswer struct {
	Edges []struct {
		Cursor string
		Node   struct {
			ID   string
			Key  int64
			Word string
		}
	}
	PageInfo struct {
		HasNextPage, HasPreviousPage bool
		StartCursor, EndCursor       *string
	}
}

// pagesAnswer is the data of pagesQuery.
type pagesAnswer struct {
	Slice, Keyset, Words *pageAnswer
	Node                 *struct {
		ID   string
		Word string
	}
	Nodes []*struct{ ID string }
}

// FuzzRouterPages sends arbitrary page arguments and ids to connections
// and nodes through a router: every refusal is a BAD_USER_INPUT naming
// its argument, never an internal error; a page holds consecutive items
// in order with their own ids; node finds the object of an id written for
// it, with that very id.
func FuzzRouterPages(f *testing.F) {
	f.Add(int32(3), int32(0), uint8(1), "", "", string(ID("Item", "a:b")))
	f.Add(int32(0), int32(2), uint8(2|1<<3), "", encodeCursor(connectionHash("ItemConnection", ""), []byte("4")), string(ID("Item", "é")))
	f.Add(int32(2), int32(0), uint8(1|1<<2|1<<4), encodeCursor(connectionHash("ItemConnection", "k"), []byte("30")), "", "Qm9vazo3")
	f.Add(int32(5), int32(0), uint8(1|1<<2|2<<4), encodeCursor(connectionHash("ItemConnection", "w"), []byte("b")), "", string(ID("Item", routerItems[5].Word)))
	f.Add(int32(0), int32(5), uint8(2|1<<3|2<<4), "", encodeCursor(connectionHash("ItemConnection", "w"), []byte("b")), "")
	f.Add(int32(-1), int32(0), uint8(1), "", "", "")
	f.Add(int32(9), int32(9), uint8(3|3<<2), "x", "y", "\n")
	c := newPagesClient(f)
	f.Fuzz(func(t *testing.T, first, last int32, flags uint8, after, before, id string) {
		vars := map[string]any{"id": id, "ids": []string{id, after}}
		if flags&1 != 0 {
			vars["f"] = first
		}
		if flags&2 != 0 {
			vars["l"] = last
		}
		if flags&4 != 0 {
			vars["a"] = after
		}
		if flags&8 != 0 {
			vars["b"] = before
		}
		field := []string{"slice", "keyset", "words"}[flags>>4%3]
		resp := c.Do(t, pagesQuery(field), vars)
		if resp.Status >= 500 {
			t.Fatalf("status %d: %s", resp.Status, resp.Body)
		}
		failed := map[string]bool{}
		for _, e := range resp.Errors {
			arg, _ := e.Extensions["argument"].(string)
			if e.Code() != "BAD_USER_INPUT" || len(e.Path) != 1 || !slices.Contains([]string{"first", "last", "after", "before"}, arg) {
				t.Fatalf("error %+v: %s", e, resp.Body)
			}
			failed[e.Path[0].(string)] = true
		}
		if string(resp.Data) == "null" {
			if len(failed) == 0 {
				t.Fatalf("no data and no error: %s", resp.Body)
			}
			return // a connection is non-null: its error nulls the data
		}
		var data pagesAnswer
		resp.Decode(t, &data)
		for name, conn := range map[string]*pageAnswer{"slice": data.Slice, "keyset": data.Keyset, "words": data.Words} {
			if name != field {
				continue
			}
			if (conn == nil) != failed[name] {
				t.Fatalf("%s: an answer and an error, or neither: %s", name, resp.Body)
			}
			if conn == nil {
				continue
			}
			prev := ""
			for i, e := range conn.Edges {
				if e.Node.ID != string(ID("Item", e.Node.Word)) {
					t.Fatalf("%s: node %q has id %q", name, e.Node.Word, e.Node.ID)
				}
				if name == "words" && i > 0 && e.Node.Word <= prev || name != "words" && i > 0 && e.Node.Key != int64(len(prev))+10 {
					t.Fatalf("%s: the items of the page are not consecutive: %s", name, resp.Body)
				}
				prev = e.Node.Word
				if name != "words" {
					prev = strings.Repeat(".", int(e.Node.Key))
				}
			}
			if n := len(conn.Edges); n > 5 || (n == 0) != (conn.PageInfo.StartCursor == nil) {
				t.Fatalf("%s: %d edges, pageInfo %+v", name, n, conn.PageInfo)
			}
		}
		typ, key, ok := ParseID(schema.ID(id))
		exists := ok && typ == "Item" && slices.ContainsFunc(routerItems, func(it routerItem) bool { return it.Word == key })
		if (data.Node != nil) != exists || exists && (data.Node.ID != id || data.Node.Word != key) {
			t.Fatalf("node(id: %q): %s", id, resp.Body)
		}
		if len(data.Nodes) != 2 || (data.Nodes[0] != nil) != exists {
			t.Fatalf("nodes(ids: [%q, %q]): %s", id, after, resp.Body)
		}
	})
}

// TestALongNodeKeyIsAFieldError checks that the id field of an object
// whose key is too long for ParseID to read back fails that field,
// instead of writing an id that node(id:) would not find.
func TestALongNodeKeyIsAFieldError(t *testing.T) {
	b := schema.New()
	nodes := NewNodes(b)
	obj := schema.Object[routerItem](b, "Item", schema.Implements("Node"))
	Register(nodes, obj, func(i *routerItem) string { return i.Word }, func(context.Context, []string) ([]*routerItem, []error) { return nil, nil })
	longest := strings.Repeat("k", maxIDLen-len("Item:"))
	schema.QueryNoArgs(b, "items", func(context.Context) ([]*routerItem, error) {
		return []*routerItem{{Word: longest}, {Word: longest + "k"}}, nil
	})
	resp := clientOf(t, b).Do(t, `{ items { id } }`, nil)
	if want := `{"items":[{"id":"` + string(ID("Item", longest)) + `"},null]}`; string(resp.Data) != want || len(resp.Errors) != 1 ||
		!strings.Contains(resp.Errors[0].Message, "the key of a Item is 1020 bytes") {
		t.Errorf("%.300s", resp.Body)
	}
}

// keysetModel answers q over rows sorted by key as a database would: the
// rows after After and before Before, in q's direction, at most Limit.
func keysetModel[T any, K Key](rows []T, key func(*T) K, q KeysetQuery[K]) []T {
	var out []T
	for i := range rows {
		r := &rows[i]
		if q.Descending {
			r = &rows[len(rows)-1-i]
		}
		k := key(r)
		if (q.After == nil || k > *q.After) && (q.Before == nil || k < *q.Before) && len(out) < q.Limit {
			out = append(out, *r)
		}
	}
	return out
}
