// Package lookahead holds the context key under which the executor hands
// a resolver the selection below its field (schema.SelectionFrom reads
// it). It is a package of its own so that schema and the executor share
// the key without importing each other.
package lookahead

type key struct{}

// Key is the context key of the selection below the field being resolved.
var Key any = key{}
