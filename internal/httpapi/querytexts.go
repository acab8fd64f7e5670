package httpapi

import (
	"fmt"
	"unsafe"

	"github.com/graftgql/graft/internal/costlru"
)

// QueryTexts remembers the text of queries that arrive with JSON escapes
// (a multi-line query holds one \n per line, the introspection query a
// hundred), keyed by their escaped form as it is in the body, so that a
// repeated query is found by one map lookup rather than checked and
// unescaped again. It is bounded in entries and in bytes, and safe for
// concurrent use. Queries without escapes need no entry: they are read in
// place.
type QueryTexts struct {
	c        *costlru.Cache[string, string]
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
	c, err := costlru.New[string, string](entries, bytes, maxEntry, nil)
	if err != nil {
		return nil, fmt.Errorf("query texts: %w", err)
	}
	return &QueryTexts{c: c, maxEntry: maxEntry}, nil
}

// lookup returns the query whose escaped form is escaped (not empty).
func (t *QueryTexts) lookup(escaped []byte) (string, bool) {
	// The key is only compared, never kept: it may alias the body.
	return t.c.Get(unsafe.String(&escaped[0], len(escaped)))
}

// add remembers query under its escaped form; both are copied.
func (t *QueryTexts) add(escaped []byte, query string) {
	cost := int64(len(escaped) + len(query) + queryTextOverhead)
	if cost > t.maxEntry {
		return // not copied only to be refused
	}
	t.c.Add(string(escaped), string(append([]byte(nil), query...)), cost)
}

// Len returns the number of texts kept.
func (t *QueryTexts) Len() int { return t.c.Len() }
