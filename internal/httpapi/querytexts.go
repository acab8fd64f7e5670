package httpapi

import (
	"fmt"
	"unsafe"

	"github.com/graftgql/graft/internal/costlru"
	"github.com/graftgql/graft/internal/pqattach"
)

// QueryTexts remembers the text of queries that arrive with JSON escapes
// (a multi-line query holds one \n per line, the introspection query a
// hundred), keyed by their escaped form as it is in the body, so that a
// repeated query is found by one map lookup rather than checked and
// unescaped again. It is bounded in entries and in bytes, and safe for
// concurrent use. Queries without escapes need no entry: they are read in
// place.
type QueryTexts struct {
	// c holds each query with the slot of what the router attached to it
	// (its prepared document; see internal/pqattach).
	c        *pqattach.Cache
	maxEntry int64
}

// queryTextOverhead is the bookkeeping counted for each entry beside its
// two texts: the list element, map slot and string headers.
const queryTextOverhead = 128

// NewQueryTexts returns a QueryTexts of at most entries entries whose
// texts add up to at most bytes bytes (escaped and unescaped form both
// count); a query longer than an eighth of that is not kept.
func NewQueryTexts(entries int, bytes int64) (*QueryTexts, error) {
	maxEntry := max(bytes/8, 1)
	c, err := costlru.New[string, *pqattach.Entry](entries, bytes, maxEntry, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("query texts: %w", err)
	}
	return &QueryTexts{c: c, maxEntry: maxEntry}, nil
}

// lookup returns the query whose escaped form is escaped (not empty),
// and the slot of its entry.
func (t *QueryTexts) lookup(escaped []byte) (string, *pqattach.Slot, bool) {
	// The key is only compared, never kept: it may alias the body.
	e, ok := t.c.Get(unsafe.String(&escaped[0], len(escaped)))
	if !ok {
		return "", nil, false
	}
	return e.Query, &e.Slot, true
}

// add remembers query under its escaped form (both are copied) and
// returns the new entry's query and slot; the query as given and a nil
// slot when it is too large to keep.
func (t *QueryTexts) add(escaped []byte, query string) (string, *pqattach.Slot) {
	cost := int64(len(escaped) + len(query) + queryTextOverhead)
	if cost > t.maxEntry {
		return query, nil // not copied only to be refused
	}
	e := &pqattach.Entry{Query: string(append([]byte(nil), query...))}
	t.c.Add(string(escaped), e, cost)
	return e.Query, &e.Slot
}

// Len returns the number of texts kept.
func (t *QueryTexts) Len() int { return t.c.Len() }
