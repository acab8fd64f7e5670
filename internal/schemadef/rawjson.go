package schemadef

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"
	"unsafe"
)

// RawJSON is a JSON value as bytes, returned by a resolver instead of Go
// values: the body of an upstream answer or a JSON column, say. The
// executor writes the selected fields straight from the bytes, checking
// each value against its GraphQL type, without decoding the rest. A nil
// RawJSON is null. A field returning RawJSON declares its GraphQL type
// with OfType. It is json.RawMessage, so a struct field of this type
// decodes and encodes with encoding/json as the JSON it holds.
type RawJSON = json.RawMessage

var rawJSONType = reflect.TypeFor[RawJSON]()

// OutRaw is a RawJSON value; the field's GraphQL type (Field.Type)
// describes it.
const OutRaw = OutPtr + 1

// rawOutput is the Output of a field whose Go type is RawJSON.
func (bc *build) rawOutput(override string) (*TypeRef, *Output, error) {
	if override == "" {
		return nil, nil, errors.New("a RawJSON result needs its GraphQL type: give the field OfType (or a `type` tag on a struct field)")
	}
	ref, err := bc.refFromString(override)
	if err != nil {
		return nil, nil, err
	}
	if !isOutputType(ref.NamedType()) {
		return nil, nil, fmt.Errorf("%s is an input type and cannot be a field type", ref.NamedType().Name)
	}
	return ref, &Output{Kind: OutRaw, NonNull: ref.Kind == NonNullRef}, nil
}

// RawTypeKey declares, for an interface or union, the member of a RawJSON
// object that names its concrete object type (default "__typename").
func RawTypeKey(key string) Option {
	return func(o *options) { o.rawTypeKey = key }
}

// RawReader reads one JSON text without decoding it.
type RawReader struct {
	B []byte
	I int
}

// errMalformed reports bytes that are not JSON.
var errMalformed = errors.New("malformed JSON")

// WS skips white space.
func (rd *RawReader) WS() {
	for rd.I < len(rd.B) {
		switch rd.B[rd.I] {
		case ' ', '\t', '\n', '\r':
			rd.I++
		default:
			return
		}
	}
}

// Peek returns the next byte after white space, or 0 at the end.
func (rd *RawReader) Peek() byte {
	rd.WS()
	if rd.I < len(rd.B) {
		return rd.B[rd.I]
	}
	return 0
}

// Literal consumes lit (null, true, false) when it comes next.
func (rd *RawReader) Literal(lit string) bool {
	if len(rd.B)-rd.I >= len(lit) && string(rd.B[rd.I:rd.I+len(lit)]) == lit {
		rd.I += len(lit)
		return true
	}
	return false
}

// String consumes a string and returns its raw contents (between the
// quotes) and whether they hold escapes or bytes a JSON writer would
// escape (so they cannot be copied as they are).
func (rd *RawReader) String() (raw []byte, plain bool, err error) {
	if rd.I >= len(rd.B) || rd.B[rd.I] != '"' {
		return nil, false, errMalformed
	}
	s := rd.I + 1
	plain = true
	for i := s; i < len(rd.B); i++ {
		c := rd.B[i]
		switch {
		case c == '"':
			rd.I = i + 1
			return rd.B[s:i], plain, nil
		case c == '\\':
			plain = false
			i++
		case c < 0x20:
			return nil, false, errMalformed
		case c >= utf8.RuneSelf || !safeASCII[c]:
			plain = false
		}
	}
	return nil, false, errMalformed
}

// maxRawDepth bounds the nesting of arrays and objects Skip accepts.
const maxRawDepth = 1000

// Skip consumes one value of any kind.
func (rd *RawReader) Skip() error { return rd.skip(0) }

func (rd *RawReader) skip(depth int) error {
	rd.WS()
	if rd.I >= len(rd.B) {
		return errMalformed
	}
	switch c := rd.B[rd.I]; c {
	case '"':
		return rd.skipString()
	case '{', '[':
		if depth >= maxRawDepth {
			return errMalformed
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		rd.I++
		if rd.Peek() == end {
			rd.I++
			return nil
		}
		for {
			if c == '{' {
				if rd.Peek() != '"' {
					return errMalformed
				}
				if err := rd.skipString(); err != nil {
					return err
				}
				if rd.Peek() != ':' {
					return errMalformed
				}
				rd.I++
			}
			if err := rd.skip(depth + 1); err != nil {
				return err
			}
			switch rd.Peek() {
			case ',':
				rd.I++
			case end:
				rd.I++
				return nil
			default:
				return errMalformed
			}
		}
	case 't':
		return rd.lit("true")
	case 'f':
		return rd.lit("false")
	case 'n':
		return rd.lit("null")
	default:
		_, _, err := rd.Number()
		return err
	}
}

// skipString consumes the string at rd, finding its closing quote without
// looking at the bytes in between: a skipped string is never written, and
// one that is written is read again by String, which checks it.
func (rd *RawReader) skipString() error {
	i := rd.I + 1
	for {
		j := bytes.IndexByte(rd.B[i:], '"')
		if j < 0 {
			return errMalformed
		}
		i += j
		k := i // the quote is escaped after an odd run of backslashes
		for k > rd.I+1 && rd.B[k-1] == '\\' {
			k--
		}
		i++
		if (i-1-k)%2 == 0 {
			rd.I = i
			return nil
		}
	}
}

func (rd *RawReader) lit(s string) error {
	if !rd.Literal(s) {
		return errMalformed
	}
	return nil
}

// Number consumes a number and returns its bytes and whether it is
// written as an integer (no fraction or exponent).
func (rd *RawReader) Number() (num []byte, integer bool, err error) {
	s, i := rd.I, rd.I
	b := rd.B
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return nil, false, errMalformed
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		i++
		integer = false
		if digits() == 0 {
			return nil, false, errMalformed
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		integer = false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false, errMalformed
		}
	}
	rd.I = i
	return b[s:i], integer, nil
}

// AppendRawString appends the JSON string whose raw contents are raw (as
// String returns them) the way AppendJSONString writes strings.
func AppendRawString(buf, raw []byte, plain bool) ([]byte, error) {
	if plain {
		buf = append(buf, '"')
		buf = append(buf, raw...)
		return append(buf, '"'), nil
	}
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return buf, errMalformed
	}
	return AppendJSONString(buf, s), nil
}

// RawJSONElements splits a JSON array into its elements, without
// decoding them.
func RawJSONElements(b RawJSON) ([]RawJSON, error) {
	rd := RawReader{B: b}
	if rd.Peek() != '[' {
		return nil, errors.New("raw JSON: not an array")
	}
	rd.I++
	var out []RawJSON
	if rd.Peek() == ']' {
		rd.I++
		return out, rd.end()
	}
	for {
		rd.WS()
		s := rd.I
		if err := rd.Skip(); err != nil {
			return nil, fmt.Errorf("raw JSON: %w", err)
		}
		out = append(out, b[s:rd.I:rd.I])
		switch rd.Peek() {
		case ',':
			rd.I++
		case ']':
			rd.I++
			return out, rd.end()
		default:
			return nil, fmt.Errorf("raw JSON: %w", errMalformed)
		}
	}
}

// RawJSONMembers returns the members of a JSON object by key, without
// decoding their values; of repeated keys the last counts.
func RawJSONMembers(b RawJSON) (map[string]RawJSON, error) {
	rd := RawReader{B: b}
	if rd.Peek() != '{' {
		return nil, errors.New("raw JSON: not an object")
	}
	rd.I++
	out := map[string]RawJSON{}
	if rd.Peek() == '}' {
		rd.I++
		return out, rd.end()
	}
	for {
		rd.WS()
		raw, plain, err := rd.String()
		if err != nil {
			return nil, fmt.Errorf("raw JSON: %w", err)
		}
		key, err := rawKey(raw, plain)
		if err != nil {
			return nil, err
		}
		if rd.Peek() != ':' {
			return nil, fmt.Errorf("raw JSON: %w", errMalformed)
		}
		rd.I++
		rd.WS()
		s := rd.I
		if err := rd.Skip(); err != nil {
			return nil, fmt.Errorf("raw JSON: %w", err)
		}
		out[key] = b[s:rd.I:rd.I]
		switch rd.Peek() {
		case ',':
			rd.I++
		case '}':
			rd.I++
			return out, rd.end()
		default:
			return nil, fmt.Errorf("raw JSON: %w", errMalformed)
		}
	}
}

// RawKey returns the string whose raw contents are raw.
func rawKey(raw []byte, plain bool) (string, error) {
	if plain {
		return string(raw), nil
	}
	b, err := AppendRawString(nil, raw, false)
	if err != nil {
		return "", fmt.Errorf("raw JSON: %w", err)
	}
	var s string
	_ = json.Unmarshal(b, &s)
	return s, nil
}

// RawKey is rawKey for the executor.
func RawKey(raw []byte, plain bool) (string, error) { return rawKey(raw, plain) }

// end checks that only white space follows.
func (rd *RawReader) end() error {
	rd.WS()
	if rd.I != len(rd.B) {
		return fmt.Errorf("raw JSON: %w: data after the value", errMalformed)
	}
	return nil
}

// End reports whether only white space follows.
func (rd *RawReader) End() bool { return rd.end() == nil }

// Resolvers with a raw parent.
//
// RawFieldFunc and RawGroupFieldFunc declare a field whose resolver reads
// its parent as raw JSON. When the parent object was written from
// RawJSON (an upstream answer), the executor hands the resolver the
// object's bytes as they are: it can read the members it needs (a
// userId) without decoding the rest. When the parent is a Go value, it
// is encoded with encoding/json first, so the field works under either.

// RawFieldFunc adds to obj a field resolved from the parent's raw JSON.
func RawFieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(context.Context, RawJSON, A) (R, error), opts ...Option) {
	if fn == nil {
		obj.decl.add(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), nil, nil, true)
		return
	}
	raw, _ := compile(func(ctx context.Context, parent, args unsafe.Pointer) (R, error) {
		var a A
		if args != nil {
			a = *(*A)(args)
		}
		return fn(ctx, *(*RawJSON)(parent), a)
	})
	boxed, _ := compile(func(ctx context.Context, parent, args unsafe.Pointer) (R, error) {
		b, err := json.Marshal((*T)(parent))
		if err != nil {
			var zero R
			return zero, fmt.Errorf("encoding the parent of %s as JSON: %w", name, err)
		}
		var a A
		if args != nil {
			a = *(*A)(args)
		}
		return fn(ctx, RawJSON(b), a)
	})
	obj.decl.add(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), boxed, nil, false)
	obj.decl.fields[len(obj.decl.fields)-1].rawResolve = raw
}

// RawFieldFuncNoArgs is RawFieldFunc for a field without arguments.
func RawFieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(context.Context, RawJSON) (R, error), opts ...Option) {
	var wrapped func(context.Context, RawJSON, struct{}) (R, error)
	if fn != nil {
		wrapped = func(ctx context.Context, parent RawJSON, _ struct{}) (R, error) { return fn(ctx, parent) }
	}
	RawFieldFunc(obj, name, wrapped, opts...)
	fd := obj.decl.fields[len(obj.decl.fields)-1]
	fd.argType, fd.newArgs = nil, nil
}

// RawGroupFieldFunc adds to obj a batch field resolved from the raw JSON
// of its parents: one call for every parent of a raw list (the objects of
// one RawJSON array), or of the level when the parents are Go values.
func RawGroupFieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(context.Context, []RawJSON, A) ([]R, []error), opts ...Option) {
	var batch, raw BatchResolver
	if fn != nil {
		raw = compileBatch(func(ctx context.Context, parents []*RawJSON, args unsafe.Pointer) ([]R, []error) {
			var a A
			if args != nil {
				a = *(*A)(args)
			}
			ps := make([]RawJSON, len(parents))
			for i, p := range parents {
				ps[i] = *p
			}
			return fn(ctx, ps, a)
		})
		batch = compileBatch(func(ctx context.Context, parents []*T, args unsafe.Pointer) ([]R, []error) {
			var a A
			if args != nil {
				a = *(*A)(args)
			}
			ps := make([]RawJSON, len(parents))
			for i, p := range parents {
				b, err := json.Marshal(p)
				if err != nil {
					return nil, []error{fmt.Errorf("encoding a parent of %s as JSON: %w", name, err)}
				}
				ps[i] = b
			}
			return fn(ctx, ps, a)
		})
	}
	obj.decl.addBatch(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), batch)
	obj.decl.fields[len(obj.decl.fields)-1].rawBatch = raw
}

// RawGroupFieldFuncNoArgs is RawGroupFieldFunc for a field without
// arguments.
func RawGroupFieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(context.Context, []RawJSON) ([]R, []error), opts ...Option) {
	var wrapped func(context.Context, []RawJSON, struct{}) ([]R, []error)
	if fn != nil {
		wrapped = func(ctx context.Context, parents []RawJSON, _ struct{}) ([]R, []error) { return fn(ctx, parents) }
	}
	RawGroupFieldFunc(obj, name, wrapped, opts...)
	fd := obj.decl.fields[len(obj.decl.fields)-1]
	fd.argType, fd.newArgs = nil, nil
}

// RawMember returns the value of the member key of the JSON object b
// without decoding it or the other members (nil when b is not an object
// or has no such member; of repeated keys the last counts).
func RawMember(b RawJSON, key string) RawJSON {
	rd := RawReader{B: b}
	if rd.Peek() != '{' {
		return nil
	}
	rd.I++
	var found RawJSON
	if rd.Peek() == '}' {
		return nil
	}
	for {
		rd.WS()
		raw, plain, err := rd.String()
		if err != nil || rd.Peek() != ':' {
			return nil
		}
		rd.I++
		rd.WS()
		s := rd.I
		if rd.Skip() != nil {
			return nil
		}
		if plain && string(raw) == key {
			found = b[s:rd.I:rd.I]
		} else if !plain {
			if k, err := RawKey(raw, plain); err == nil && k == key {
				found = b[s:rd.I:rd.I]
			}
		}
		switch rd.Peek() {
		case ',':
			rd.I++
		case '}':
			return found
		default:
			return nil
		}
	}
}
