package exec

import (
	"encoding/json"
	"fmt"
	"github.com/graftgql/graft/internal/clip"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/graftgql/graft/internal/gqlerr"
	schema "github.com/graftgql/graft/internal/schemadef"
)

// Writing RawJSON results: the selected fields are copied from the bytes
// a resolver returned, each value checked against its GraphQL type as it
// is met. Members that are not selected are skipped, not decoded. A value
// that does not fit its type is a field error at its own path, and the
// position becomes null as for any failed field. Objects of interface and
// union types name their concrete type in their "__typename" member, or
// the one the type declares (Type.RawTypeKey).

// rawTypeKey is the member that names the concrete type of an abstract
// value when its type declares none.
const rawTypeKey = "__typename"

// rawError is a RawJSON value that does not fit its GraphQL type.
type rawError struct{ msg string }

func (e rawError) Error() string { return e.msg }

// Extensions gives the error its code.
func (e rawError) Extensions() map[string]any {
	return map[string]any{"code": gqlerr.InternalServerError}
}

// rawQuoteMax bounds the upstream's value that a raw error's message
// quotes (a number or a string of any length).
const rawQuoteMax = 128

// rawClip returns v cut to rawQuoteMax bytes, at a character boundary.
func rawClip(v string) string {
	if len(v) <= rawQuoteMax {
		return v
	}
	return clip.Prefix(v, rawQuoteMax) + "…"
}

// rawMismatch records that the raw value at the current path does not fit
// the type want.
func (r *request) rawMismatch(f *fieldPlan, want string, why string) bool {
	r.addError(r.fieldError(f, rawError{fmt.Sprintf("Raw JSON of field %s.%s: %s where %s is expected.", f.parent, f.name, why, want)}))
	return false
}

// writeRaw writes the RawJSON value at p for the field f; false means the
// position is null because of an error already recorded.
func (r *request) writeRaw(f *fieldPlan, p unsafe.Pointer) bool {
	b := *(*schema.RawJSON)(p)
	if b == nil {
		return r.writeNull(f, f.def.Type.Kind == schema.NonNullRef, true)
	}
	if r.raw == nil {
		r.raw = new(rawState)
	}
	key := rawMemoKey{unsafe.SliceData(b), len(b), f}
	if seg, ok := r.raw.memo[key]; ok && len(r.buf)+int(seg.e-seg.s) <= r.e.maxResponse {
		// The same bytes under the same field: written before, copied.
		r.buf = append(r.buf, r.raw.arena[seg.s:seg.e]...)
		return true
	}
	start, nerrs := len(r.buf), len(r.errs)
	rd := schema.RawReader{B: b}
	if !r.rawInner(f, f.def.Type, &rd) {
		return false
	}
	if !rd.End() {
		return r.rawMismatch(f, f.def.Type.String(), "data after the value")
	}
	if n := len(r.buf) - start; n <= rawMemoMax && len(r.errs) == nerrs && nerrs < r.e.maxErrors && len(r.raw.arena)+n <= rawArenaMax {
		r.raw.remember(key, r.buf[start:])
	}
	return true
}

// An object shared by many parents (the user every post of an upstream
// answer points to) is one RawJSON value handed to each: its output is
// written once per request, and copied for the other parents. Only output
// written without errors is kept, at most rawMemoMax bytes of it per
// value and rawArenaMax in all.
const (
	rawMemoMax  = 4 << 10
	rawArenaMax = 1 << 20
)

// rawState is the raw writer's per-request state, kept with a pooled
// request.
type rawState struct {
	memo    map[rawMemoKey]rawSeg
	arena   []byte
	batches []rawBatch
	parent  schema.RawJSON // the parent handed to a raw resolver
	// starts, parents and ptrs are prepareRawBatches' storage, reused.
	starts  []int
	parents []schema.RawJSON
	ptrs    []unsafe.Pointer
}

// rawMemoKey names a raw value (its bytes) written for a field.
type rawMemoKey struct {
	p *byte
	n int
	f *fieldPlan
}

// rawSeg is where a written value lies in rawState.arena.
type rawSeg struct{ s, e int32 }

// remember keeps out, the output of key.
func (st *rawState) remember(key rawMemoKey, out []byte) {
	if st.memo == nil {
		st.memo = make(map[rawMemoKey]rawSeg)
	}
	s := len(st.arena)
	st.arena = append(st.arena, out...)
	st.memo[key] = rawSeg{int32(s), int32(len(st.arena))}
}

// reset empties st for the next request, dropping an arena grown large.
func (st *rawState) reset() {
	clear(st.memo)
	if cap(st.arena) > 64<<10 {
		st.arena = nil
	}
	st.arena = st.arena[:0]
	clear(st.batches)
	st.batches = st.batches[:0]
	clear(st.parents)
	clear(st.ptrs)
	st.starts, st.parents, st.ptrs = st.starts[:0], st.parents[:0], st.ptrs[:0]
	if cap(st.starts) > 4096 {
		st.starts, st.parents, st.ptrs = nil, nil, nil
	}
}

// rawBatch is the result of a raw batch field for the objects of one raw
// list: the parents start at starts in the bytes at base.
type rawBatch struct {
	f      *fieldPlan
	base   *byte
	starts []int
	res    unsafe.Pointer
	size   uintptr
	errs   []error
}

// prepareRawBatches calls, once for every object of the JSON array at
// rd (a list of objects of the selection op), each raw batch field of op,
// and keeps the results for rawResolved.
func (r *request) prepareRawBatches(op *objectPlan, rd schema.RawReader) {
	var fields []*fieldPlan
	for _, sf := range op.fields {
		if sf.kind == kindModel && sf.def != nil && sf.def.RawBatch != nil && (sf.conds == nil || included(sf.conds, r.vars)) {
			fields = append(fields, sf)
		}
	}
	if len(fields) == 0 || rd.Peek() != '[' {
		return
	}
	if r.raw == nil {
		r.raw = new(rawState)
	}
	rd.I++
	st := r.raw
	parents, first := st.parents[:0], len(st.starts)
	for rd.Peek() != ']' {
		s := rd.I
		isObj := rd.Peek() == '{'
		if rd.Skip() != nil {
			return // the writer reports the malformed text
		}
		if isObj {
			parents = append(parents, schema.RawJSON(rd.B[s:rd.I:rd.I]))
			st.starts = append(st.starts, s)
		}
		if rd.Peek() == ',' {
			rd.I++
		} else if rd.Peek() != ']' {
			return
		}
	}
	st.parents = parents
	if len(parents) == 0 {
		return
	}
	starts := st.starts[first:len(st.starts):len(st.starts)]
	ptrs := st.ptrs[:0]
	for i := range parents {
		ptrs = append(ptrs, unsafe.Pointer(&parents[i]))
	}
	st.ptrs = ptrs
	base := unsafe.SliceData(rd.B)
	for _, sf := range fields {
		b := rawBatch{f: sf, base: base, starts: starts}
		if args, err := r.rawArgs(sf); err != nil {
			b.errs = []error{err}
		} else {
			b.res, b.size, b.errs = r.rawBatchCall(sf, ptrs, args)
		}
		r.raw.batches = append(r.raw.batches, b)
	}
}

// rawArgs returns the arguments of sf, as resolveInner computes them.
func (r *request) rawArgs(sf *fieldPlan) (unsafe.Pointer, error) {
	if sf.argsErr != nil {
		return nil, argumentError{sf.argsErr}
	}
	if !sf.dynArgs {
		return sf.args, nil
	}
	vals, err := r.e.coerce.Arguments(sf.ast.Definition.Arguments, sf.ast.Arguments, r.vars)
	var args unsafe.Pointer
	if err == nil {
		args, err = sf.def.NewArgs(vals)
	}
	if err != nil {
		return nil, argumentError{err}
	}
	return args, nil
}

// rawBatchCall runs the raw batch resolver of sf, turning a panic into
// errPanic for every parent.
func (r *request) rawBatchCall(sf *fieldPlan, parents []unsafe.Pointer, args unsafe.Pointer) (res unsafe.Pointer, size uintptr, errs []error) {
	ctx := r.fieldContext(sf)
	defer func() {
		if v := recover(); v != nil {
			stack := debug.Stack()
			r.logFieldError("graphql: batch resolver panicked", "field", sf.parent+"."+sf.name, "panic", v, "stack", string(stack))
			r.e.panicked(ctx, v, stack)
			res, errs = nil, []error{errPanic}
		}
	}()
	if r.over() {
		return nil, 0, []error{r.ctx.Err()}
	}
	return sf.def.RawBatch(ctx, parents, args)
}

// rawResolved resolves sf, a field declared with RawFieldFunc or
// RawGroupFieldFunc, for the raw object b[s:e], and writes its value.
func (r *request) rawResolved(sf *fieldPlan, b []byte, s, e int) bool {
	// The resolvers read the parent at once (schemadef's wrappers copy
	// it), so one slot per request serves every call.
	r.raw.parent = schema.RawJSON(b[s:e:e])
	var p unsafe.Pointer
	var err error
	if sf.def.RawBatch != nil {
		p, err = r.rawBatchResult(sf, b, s, &r.raw.parent)
	} else if args, aerr := r.rawArgs(sf); aerr != nil {
		err = aerr
	} else {
		p, err = r.rawCall(sf, &r.raw.parent, args)
	}
	r.raw.parent = nil
	if r.sink != nil {
		for _, a := range r.sink.take() {
			r.addError(r.resolverError(sf, a))
		}
	}
	return r.writeFieldValue(sf, sf.def.Out, p, err)
}

// rawBatchResult finds the value of the raw batch field sf for the object
// starting at s in b among the prepared batches, or resolves it alone.
func (r *request) rawBatchResult(sf *fieldPlan, b []byte, s int, parent *schema.RawJSON) (unsafe.Pointer, error) {
	base := unsafe.SliceData(b)
	for i := range r.raw.batches { // r.raw is set: writeRaw set it
		rb := &r.raw.batches[i]
		if rb.f != sf || rb.base != base {
			continue
		}
		j, found := slices.BinarySearch(rb.starts, s)
		if !found {
			continue
		}
		switch {
		case len(rb.errs) == 1 && (len(rb.starts) != 1 || rb.errs[0] != nil):
			return nil, rb.errs[0]
		case len(rb.errs) == len(rb.starts) && rb.errs[j] != nil:
			return nil, rb.errs[j]
		case rb.res == nil:
			return nil, nil
		}
		return unsafe.Add(rb.res, uintptr(j)*rb.size), nil
	}
	args, err := r.rawArgs(sf)
	if err != nil {
		return nil, err
	}
	res, _, errs := r.rawBatchCall(sf, []unsafe.Pointer{unsafe.Pointer(parent)}, args)
	if len(errs) > 0 && errs[0] != nil {
		return nil, errs[0]
	}
	return res, nil
}

// rawCall runs the raw resolver of sf, turning a panic into errPanic.
func (r *request) rawCall(sf *fieldPlan, parent *schema.RawJSON, args unsafe.Pointer) (p unsafe.Pointer, err error) {
	ctx := r.fieldContext(sf)
	defer func() {
		if v := recover(); v != nil {
			stack := debug.Stack()
			r.logFieldError("graphql: resolver panicked", "field", sf.parent+"."+sf.name, "panic", v, "stack", string(stack))
			r.e.panicked(ctx, v, stack)
			p, err = nil, errPanic
		}
	}()
	if r.over() {
		return nil, r.ctx.Err()
	}
	return sf.def.RawResolve(ctx, unsafe.Pointer(parent), args)
}

// rawValue writes the value at rd of type ref, writing null in place of
// a nullable value that failed. It reports false when the failure must
// propagate. rd is past the value afterwards, failed or not.
func (r *request) rawValue(f *fieldPlan, ref *schema.TypeRef, rd *schema.RawReader) bool {
	start, at := len(r.buf), rd.I
	if r.rawInner(f, ref, rd) {
		return true
	}
	if ref.Kind == schema.NonNullRef {
		return false
	}
	r.buf = append(r.buf[:start], "null"...)
	rd.I = at
	if rd.Skip() != nil {
		rd.I = len(rd.B) // the enclosing value reports the malformed text
	}
	return true
}

// rawInner writes the value at rd of type ref; false means the position
// is null because of an error already recorded.
func (r *request) rawInner(f *fieldPlan, ref *schema.TypeRef, rd *schema.RawReader) bool {
	nonNull := ref.Kind == schema.NonNullRef
	if nonNull {
		ref = ref.OfType
	}
	c := rd.Peek()
	if c == 'n' && rd.Literal("null") {
		return r.writeNull(f, nonNull, true)
	}
	if ref.Kind == schema.ListRef {
		return r.rawList(f, ref, rd)
	}
	t := ref.Named
	switch t.Kind {
	case schema.ObjectKind:
		op := f.sub.forType(t.Name)
		if op == nil {
			return r.rawMismatch(f, t.Name, "a type not selectable here")
		}
		return r.rawObject(f, t.Name, op, rd)
	case schema.InterfaceKind, schema.UnionKind:
		return r.rawAbstract(f, t, rd)
	case schema.EnumKind:
		raw, plain, err := rd.String()
		if err != nil {
			return r.rawMismatch(f, t.Name, "not a string")
		}
		name := unsafe.String(unsafe.SliceData(raw), len(raw))
		if !plain {
			// Escaped ("HAPP\u0059"): the value is the decoded string.
			if name, err = schema.RawKey(raw, plain); err != nil {
				return r.rawMismatch(f, t.Name, "malformed JSON")
			}
		}
		for _, v := range t.EnumValues {
			if v.Name == name {
				r.buf = appendString(r.buf, v.Name)
				return true
			}
		}
		return r.rawMismatch(f, t.Name, fmt.Sprintf("%q, not a value of the enum,", rawClip(name)))
	}
	return r.rawScalar(f, t, rd)
}

// rawScalar writes the scalar at rd of type t.
func (r *request) rawScalar(f *fieldPlan, t *schema.Type, rd *schema.RawReader) bool {
	c := rd.Peek()
	switch t.Name {
	case "String", "ID":
		if c == '"' {
			raw, plain, err := rd.String()
			if err == nil {
				r.buf, err = schema.AppendRawString(r.buf, raw, plain)
			}
			if err != nil {
				return r.rawMismatch(f, t.Name, "malformed JSON")
			}
			return true
		}
		if t.Name == "ID" && (c == '-' || c >= '0' && c <= '9') {
			num, integer, err := rd.Number()
			if err == nil && integer {
				r.buf = append(append(append(r.buf, '"'), num...), '"')
				return true
			}
		}
		return r.rawMismatch(f, t.Name, "not a string")
	case "Int":
		if c != '-' && (c < '0' || c > '9') {
			return r.rawMismatch(f, t.Name, "not a number")
		}
		num, integer, err := rd.Number()
		if err != nil {
			return r.rawMismatch(f, t.Name, "malformed JSON")
		}
		if integer && len(num) <= 11 {
			if n, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(num), len(num)), 10, 32); err == nil {
				r.buf = strconv.AppendInt(r.buf, n, 10)
				return true
			}
		} else if v, err := strconv.ParseFloat(string(num), 64); err == nil && v == math.Trunc(v) && v >= math.MinInt32 && v <= math.MaxInt32 {
			r.buf = strconv.AppendInt(r.buf, int64(v), 10)
			return true
		}
		return r.rawMismatch(f, t.Name, rawClip(string(num))+", not a 32-bit integer,")
	case "Float":
		if c != '-' && (c < '0' || c > '9') {
			return r.rawMismatch(f, t.Name, "not a number")
		}
		num, integer, err := rd.Number()
		if err != nil {
			return r.rawMismatch(f, t.Name, "malformed JSON")
		}
		// An integer of more than 300 digits may be beyond float64's range
		// (about 1.8e308) as a fraction or an exponent may be.
		if !integer || len(num) > 300 {
			if v, err := strconv.ParseFloat(string(num), 64); err != nil || math.IsInf(v, 0) {
				return r.rawMismatch(f, t.Name, rawClip(string(num))+", not a finite number,")
			}
		}
		r.buf = append(r.buf, num...)
		return true
	case "Boolean":
		switch {
		case rd.Literal("true"):
			r.buf = append(r.buf, "true"...)
		case rd.Literal("false"):
			r.buf = append(r.buf, "false"...)
		default:
			return r.rawMismatch(f, t.Name, "not a boolean")
		}
		return true
	}
	// A custom scalar: any JSON value, copied.
	s := rd.I
	if rd.Skip() != nil || !json.Valid(rd.B[s:rd.I]) {
		return r.rawMismatch(f, t.Name, "malformed JSON")
	}
	r.buf = appendValidUTF8(r.buf, rd.B[s:rd.I])
	return true
}

// appendValidUTF8 appends the JSON text v with each byte that is not part
// of valid UTF-8 (json.Valid lets them through, in strings) replaced by
// U+FFFD, as encoding/json decodes such strings: the response stays UTF-8.
func appendValidUTF8(buf, v []byte) []byte {
	if utf8.Valid(v) {
		return append(buf, v...)
	}
	for len(v) > 0 {
		c, size := utf8.DecodeRune(v)
		if c == utf8.RuneError && size == 1 {
			buf = utf8.AppendRune(buf, utf8.RuneError)
		} else {
			buf = append(buf, v[:size]...)
		}
		v = v[size:]
	}
	return buf
}

// rawList writes the JSON array at rd, a list of type ref.
func (r *request) rawList(f *fieldPlan, ref *schema.TypeRef, rd *schema.RawReader) bool {
	if rd.Peek() != '[' {
		return r.rawMismatch(f, ref.String(), "not a list")
	}
	if t := ref.OfType; t != nil {
		if t.Kind == schema.NonNullRef {
			t = t.OfType
		}
		if t.Kind == schema.NamedRef && t.Named.Kind == schema.ObjectKind {
			if op := f.sub.forType(t.Named.Name); op != nil {
				r.prepareRawBatches(op, *rd)
			}
		}
	}
	rd.I++
	r.buf = append(r.buf, '[')
	if rd.Peek() == ']' {
		rd.I++
		r.buf = append(r.buf, ']')
		return true
	}
	for i := 0; ; i++ {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.path = append(r.path, pathElem{index: i})
		ok := r.rawValue(f, ref.OfType, rd)
		r.path = r.path[:len(r.path)-1]
		if !ok {
			return false
		}
		switch rd.Peek() {
		case ',':
			rd.I++
		case ']':
			rd.I++
			r.buf = append(r.buf, ']')
			return true
		default:
			return r.rawMismatch(f, ref.String(), "malformed JSON")
		}
	}
}

// rawSpan is where a member's value lies in the raw bytes.
type rawSpan struct{ s, e int32 }

// rawObject writes the selection op of the object type typeName from the
// JSON object at rd.
func (r *request) rawObject(f *fieldPlan, typeName string, op *objectPlan, rd *schema.RawReader) bool {
	if rd.Peek() != '{' {
		return r.rawMismatch(f, typeName, "not an object")
	}
	objStart := rd.I
	var spanBuf [16]rawSpan
	spans := spanBuf[:0]
	if len(op.fields) > len(spanBuf) {
		spans = make([]rawSpan, 0, len(op.fields))
	}
	spans = spans[:len(op.fields)]
	for i := range spans {
		spans[i] = rawSpan{-1, -1}
	}
	if !r.rawMembers(rd, op, spans) {
		return r.rawMismatch(f, typeName, "malformed JSON")
	}
	objEnd := rd.I
	r.buf = append(r.buf, '{')
	first := true
	for i, sf := range op.fields {
		if sf.conds != nil && !included(sf.conds, r.vars) {
			continue
		}
		if first {
			r.buf = append(r.buf, sf.keyJSON[1:]...)
			first = false
		} else {
			r.buf = append(r.buf, sf.keyJSON...)
		}
		r.path = append(r.path, pathElem{key: sf.key, index: -1})
		var ok bool
		switch {
		case sf.kind == kindTypename:
			r.buf = appendString(r.buf, typeName)
			ok = true
		case sf.kind != kindModel || sf.def == nil:
			ok = r.rawMismatch(sf, typeName, "a field that raw JSON cannot serve")
		case len(r.buf) > r.limit && r.overResponseBudget(sf):
			ok = r.writeNull(sf, sf.def.Type.Kind == schema.NonNullRef, false)
		case sf.def.RawResolve != nil || sf.def.RawBatch != nil:
			ok = r.rawResolved(sf, rd.B, objStart, objEnd)
		case spans[i].s < 0:
			ok = r.writeNull(sf, sf.def.Type.Kind == schema.NonNullRef, true)
		default:
			// rd reads the member's value, then the object again: a
			// reader of its own would be moved to the heap (the writer
			// is recursive), one allocation per field.
			b, at := rd.B, rd.I
			rd.B, rd.I = b[:spans[i].e], int(spans[i].s)
			ok = r.rawValue(sf, sf.def.Type, rd)
			rd.B, rd.I = b, at
		}
		r.path = r.path[:len(r.path)-1]
		if !ok {
			return false
		}
	}
	r.buf = append(r.buf, '}')
	return true
}

// rawMembers reads the JSON object at rd, recording in spans where the
// value of each model field of op lies. It reports false for malformed
// JSON.
func (r *request) rawMembers(rd *schema.RawReader, op *objectPlan, spans []rawSpan) bool {
	rd.I++ // '{'
	if rd.Peek() == '}' {
		rd.I++
		return true
	}
	for {
		rd.WS()
		raw, plain, err := rd.String()
		if err != nil {
			return false
		}
		if rd.Peek() != ':' {
			return false
		}
		rd.I++
		rd.WS()
		s := rd.I
		if rd.Skip() != nil {
			return false
		}
		key := unsafe.String(unsafe.SliceData(raw), len(raw))
		if !plain {
			if key, err = schema.RawKey(raw, plain); err != nil {
				return false
			}
		}
		for i, sf := range op.fields {
			if sf.kind == kindModel && sf.name == key {
				spans[i] = rawSpan{int32(s), int32(rd.I)}
			}
		}
		switch rd.Peek() {
		case ',':
			rd.I++
		case '}':
			rd.I++
			return true
		default:
			return false
		}
	}
}

// rawAbstract writes the JSON object at rd, of the interface or union t,
// as the object type its "__typename" member names.
func (r *request) rawAbstract(f *fieldPlan, t *schema.Type, rd *schema.RawReader) bool {
	if rd.Peek() != '{' {
		return r.rawMismatch(f, t.Name, "not an object")
	}
	key := t.RawTypeKey
	if key == "" {
		key = rawTypeKey
	}
	probe := schema.RawReader{B: rd.B, I: rd.I + 1}
	name, found, ok := rawTypeName(&probe, key)
	if !ok {
		return r.rawMismatch(f, t.Name, "malformed JSON")
	}
	if !found {
		return r.rawMismatch(f, t.Name, "an object without a string "+key+" member")
	}
	var obj *schema.Type
	for _, pt := range t.PossibleTypes {
		if pt.Name == name {
			obj = pt
		}
	}
	op := f.sub.forType(name)
	if obj == nil || op == nil {
		return r.rawMismatch(f, t.Name, fmt.Sprintf("type %q, not a possible type,", rawClip(name)))
	}
	return r.rawObject(f, obj.Name, op, rd)
}

// rawTypeName finds the string member typeKey of the object whose members
// start at rd.
func rawTypeName(rd *schema.RawReader, typeKey string) (name string, found, ok bool) {
	if rd.Peek() == '}' {
		return "", false, true
	}
	for {
		rd.WS()
		raw, plain, err := rd.String()
		if err != nil || rd.Peek() != ':' {
			return "", false, false
		}
		rd.I++
		key := string(raw)
		if !plain {
			if key, err = schema.RawKey(raw, plain); err != nil {
				return "", false, false
			}
		}
		switch {
		case key == typeKey && rd.Peek() == '"':
			v, vplain, err := rd.String()
			if err != nil {
				return "", false, false
			}
			name, found = string(v), true
			if !vplain {
				if name, err = schema.RawKey(v, vplain); err != nil {
					return "", false, false
				}
			}
		case key == typeKey:
			// Of repeated members the last counts, as for any member: a
			// later one that is not a string leaves none.
			name, found = "", false
			fallthrough
		default:
			if rd.Skip() != nil {
				return "", false, false
			}
		}
		switch rd.Peek() {
		case ',':
			rd.I++
		case '}':
			return name, found, true
		default:
			return "", false, false
		}
	}
}
