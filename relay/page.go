package relay

import (
	"context"
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// badInput is an argument error of a connection field: BAD_USER_INPUT,
// with the argument named in extensions.argument.
func badInput(arg, msg string) error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": "BAD_USER_INPUT", "argument": arg}}
}

// window is a checked request for a page: count items forward from after
// (or backward from before when backward is set).
type window struct {
	count    int
	backward bool
	after    []byte // the key of the after cursor, nil when absent
	before   []byte
	hash     [4]byte
}

// check validates args against the specification and the configuration.
func (c *ConnectionType[T]) check(args PageArgs, scope string) (window, error) {
	w := window{hash: connectionHash(c.name, scope)}
	if args.First != nil && args.Last != nil {
		return w, badInput("last", `Passing both "first" and "last" to paginate the `+c.name+` is not supported.`)
	}
	for _, a := range []struct {
		name string
		n    *int
	}{{"first", args.First}, {"last", args.Last}} {
		switch {
		case a.n == nil:
		case *a.n < 0:
			return w, badInput(a.name, `Argument "`+a.name+`" must be a non-negative integer; got `+strconv.Itoa(*a.n)+`.`)
		case *a.n > c.cfg.MaxPageSize:
			return w, badInput(a.name, `Argument "`+a.name+`" of `+strconv.Itoa(*a.n)+` exceeds the maximum page size of `+strconv.Itoa(c.cfg.MaxPageSize)+`.`)
		}
	}
	switch {
	case args.First != nil:
		w.count = *args.First
	case args.Last != nil:
		w.count, w.backward = *args.Last, true
	case c.cfg.RequirePageSize:
		return w, badInput("first", `You must provide a "first" or "last" value to paginate the `+c.name+`.`)
	default:
		w.count = c.cfg.DefaultPageSize
	}
	var ok bool
	if args.After != nil {
		if w.after, ok = decodeCursor(*args.After, w.hash); !ok {
			return w, badInput("after", `Argument "after" is not a cursor of this `+c.name+`.`)
		}
	}
	if args.Before != nil {
		if w.before, ok = decodeCursor(*args.Before, w.hash); !ok {
			return w, badInput("before", `Argument "before" is not a cursor of this `+c.name+`.`)
		}
	}
	return w, nil
}

// Slice returns the page of items that args ask for, items being the whole
// connection in order. scope tells apart connections of the same type
// (the id of the author whose books these are; "" for a root field):
// cursors issued for one scope are refused in another. Each edge's node
// points into items; the page allocates its edges and one buffer for all
// its cursors, nothing per edge.
func (c *ConnectionType[T]) Slice(args PageArgs, items []T, scope string) (Connection[T], error) {
	w, err := c.check(args, scope)
	if err != nil {
		return Connection[T]{}, err
	}
	start, end := 0, len(items) // the window [start, end) after the cursors
	if w.after != nil {
		i, ok := parseOffset(w.after)
		if !ok {
			return Connection[T]{}, badInput("after", `Argument "after" is not a cursor of this `+c.name+`.`)
		}
		start = len(items)
		if i < len(items) {
			start = i + 1 // i+1 itself would overflow for the largest offset
		}
	}
	if w.before != nil {
		i, ok := parseOffset(w.before)
		if !ok {
			return Connection[T]{}, badInput("before", `Argument "before" is not a cursor of this `+c.name+`.`)
		}
		end = max(min(i, end), start)
	}
	lo, hi := start, end
	if w.backward {
		lo = max(start, end-w.count)
	} else {
		hi = min(end, start+w.count)
	}
	total := len(items)
	conn := Connection[T]{Total: func(context.Context) (int, error) { return total, nil }}
	conn.PageInfo.HasPreviousPage = lo > 0
	conn.PageInfo.HasNextPage = hi < len(items)
	if hi > lo {
		var cw cursorWriter
		cw.init(w.hash, hi-lo, digits(hi))
		conn.Edges = make([]Edge[T], hi-lo)
		var key [20]byte
		for i := lo; i < hi; i++ {
			conn.Edges[i-lo] = Edge[T]{Cursor: cw.add(appendOffset(key[:0], i)), Node: &items[i]}
		}
		conn.PageInfo.StartCursor = &conn.Edges[0].Cursor
		conn.PageInfo.EndCursor = &conn.Edges[hi-lo-1].Cursor
	} else {
		conn.Edges = []Edge[T]{}
	}
	return conn, nil
}

// KeysetQuery is the query Keyset asks its fetch function to run over the
// items ordered by their key: those with a key after After (when not nil)
// and before Before (when not nil), at most Limit of them (the page size
// plus one), in ascending key order, or in descending order when
// Descending is set (paging backward with last: the items nearest Before).
// In SQL: WHERE key > $after AND key < $before ORDER BY key ASC|DESC
// LIMIT $limit.
type KeysetQuery[K Key] struct {
	After, Before *K
	Limit         int
	Descending    bool
}

// Key is the type of a keyset key: an integer or a string.
type Key interface{ int64 | string }

// Keyset returns the page args ask for from items ordered by a unique key,
// running one query: fetch returns the items of the KeysetQuery, and the
// extra item it may return tells whether another page follows (or, paging
// backward, precedes) without a second query. key returns an item's key.
// Paging forward, hasPreviousPage is true when after was given (the item
// it points to precedes the page); paging backward, hasNextPage is true
// when before was given. Total is nil: set it to count the items when
// totalCount is declared. See Slice for scope. A key is at most 512
// bytes (a string key; an int64 is shorter): the page of an item with a
// longer key is an error, as its cursor could not be read back.
func Keyset[T any, K Key](c *ConnectionType[T], args PageArgs, scope string, key func(*T) K,
	fetch func(q KeysetQuery[K]) ([]T, error)) (Connection[T], error) {
	w, err := c.check(args, scope)
	if err != nil {
		return Connection[T]{}, err
	}
	q := KeysetQuery[K]{Limit: w.count + 1, Descending: w.backward}
	if w.after != nil {
		k, ok := parseKey[K](w.after)
		if !ok {
			return Connection[T]{}, badInput("after", `Argument "after" is not a cursor of this `+c.name+`.`)
		}
		q.After = &k
	}
	if w.before != nil {
		k, ok := parseKey[K](w.before)
		if !ok {
			return Connection[T]{}, badInput("before", `Argument "before" is not a cursor of this `+c.name+`.`)
		}
		q.Before = &k
	}
	// A page of 0 items still queries one: it tells hasNextPage (or
	// hasPreviousPage), as for Slice.
	items, err := fetch(q)
	if err != nil {
		return Connection[T]{}, err
	}
	more := len(items) > w.count
	if more {
		items = items[:w.count]
	}
	if w.backward {
		for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
	}
	var conn Connection[T]
	if w.backward {
		conn.PageInfo.HasPreviousPage, conn.PageInfo.HasNextPage = more, w.before != nil
	} else {
		conn.PageInfo.HasNextPage, conn.PageInfo.HasPreviousPage = more, w.after != nil
	}
	conn.Edges = make([]Edge[T], len(items))
	if len(items) == 0 {
		return conn, nil
	}
	var cw cursorWriter
	cw.init(w.hash, len(items), 20)
	var kb [64]byte
	for i := range items {
		k := appendKey(kb[:0], key(&items[i]))
		if len(k) > maxKeyLen {
			return Connection[T]{}, fmt.Errorf("relay: the key of an item of the %s is %d bytes, more than a cursor holds (%d)", c.name, len(k), maxKeyLen)
		}
		conn.Edges[i] = Edge[T]{Cursor: cw.add(k), Node: &items[i]}
	}
	conn.PageInfo.StartCursor = &conn.Edges[0].Cursor
	conn.PageInfo.EndCursor = &conn.Edges[len(items)-1].Cursor
	return conn, nil
}

func appendKey[K Key](buf []byte, k K) []byte {
	switch x := any(k).(type) {
	case int64:
		return strconv.AppendInt(buf, x, 10)
	case string:
		return append(buf, x...)
	}
	return buf
}

func parseKey[K Key](b []byte) (K, bool) {
	var k K
	switch p := any(&k).(type) {
	case *int64:
		n, err := strconv.ParseInt(string(b), 10, 64)
		var tmp [20]byte
		if err != nil || string(strconv.AppendInt(tmp[:0], n, 10)) != string(b) {
			return k, false // not as appendKey writes it: a key has one cursor
		}
		*p = n
	case *string:
		*p = string(b)
	}
	return k, true
}

// digits returns the number of decimal digits of n >= 0.
func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}
