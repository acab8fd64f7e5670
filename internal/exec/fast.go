package exec

import (
	"math"
	"slices"
	"strconv"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

// The fast writer.
//
// Most of a large response is plain data: struct fields read at an
// offset, strings, numbers, lists of them. For a field whose value and
// everything selected below it can only be such data (fieldPlan.fast,
// known at plan time), the writer first tries fastValue, which keeps the
// buffer in a local variable, inlines the commonest leaf writers and keeps
// no response path, since it never reports an error: on anything the
// general writer would report or treat specially (a null at a non-null
// position, a leaf writer's error, the response budget), it gives up, the
// caller drops what it wrote and the general writer writes the field
// instead, with fast writing off below it (request.slow). The fast writer
// has no side effects (it runs no resolver), so writing again is safe and
// gives the same answer.
//
// An object plan whose fields are all unconditional with keys of up to 16
// bytes also gets a table (fastField): each field's key, with the object's
// '{' folded into the first, and how to write its value, so fastTable
// writes the object in one tight loop. Strings, Ints and lists of strings
// are written in the loop itself; other values go through fastValue.

// markFast sets the fast flags below op: a field is fast when its value can
// be written by fastValue, an object plan when all its fields are plain
// struct fields that are fast. Plans are shared, not cyclic, so each is
// marked once.
func markFast(op *objectPlan) bool {
	if op.fastMarked {
		return op.fast
	}
	op.fastMarked = true
	fast := !op.concurrent && !op.work && op.defers == nil
	for _, f := range op.fields {
		switch f.kind {
		case kindTypename:
			continue
		case kindModel:
			if f.def == nil {
				fast = false
				continue
			}
			if f.sub != nil {
				markSelection(f.sub)
			}
			f.fast = outFast(f.def.Out, f.sub) && f.stream == nil
			f.how, f.off = howOf(f.def.Out), f.def.Offset
			if len(f.keyJSON) <= 16 {
				f.key16 = new([16]byte)
				copy(f.key16[:], f.keyJSON)
			}
			if !f.fast || f.mw != nil || f.def.Resolve != nil || f.def.Batch != nil {
				fast = false
			}
		default:
			fast = false
		}
	}
	op.fast = fast
	if fast {
		op.table = newFastTable(op.fields)
	}
	return fast
}

// fastField is a field of a fast object plan as fastTable reads it: the
// bytes before its value, what to write and where it is. The first
// field's key starts with '{' instead of ','.
type fastField struct {
	key    [16]byte
	keyLen uintptr
	off    uintptr
	f      *fieldPlan
	how    fastHow
	// nonNull: a nil slice of a howStrings field is [] rather than null.
	nonNull bool
}

// stringSlice reports whether out is a Go []string written as a list of
// strings.
func stringSlice(out *schema.Output) bool {
	return out.Kind == schema.OutList && !out.Array && stringElems(out)
}

// stringElems reports whether the elements of the list out are Go strings
// written as strings.
func stringElems(out *schema.Output) bool {
	e := out.Elem
	return e.Kind == schema.OutLeaf && e.Leaf == schema.LeafString && out.ElemSize == unsafe.Sizeof("")
}

// appendStrings appends the elements of a list of strings, without the
// brackets.
func appendStrings(buf []byte, ss []string) []byte {
	for i, s := range ss {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, s)
	}
	return buf
}

// newFastTable returns the table of fields, or nil when a field has
// conditions or a key longer than 16 bytes, or when there is no field (a
// selection whose every field a constant @skip or @include leaves out):
// the table's first key opens the object.
func newFastTable(fields []*fieldPlan) []fastField {
	if len(fields) == 0 {
		return nil
	}
	t := make([]fastField, len(fields))
	for i, f := range fields {
		if f.conds != nil || len(f.keyJSON) > 16 {
			return nil
		}
		e := &t[i]
		copy(e.key[:], f.keyJSON)
		if i == 0 {
			e.key[0] = '{'
		}
		e.keyLen, e.how, e.off, e.f = uintptr(len(f.keyJSON)), f.how, f.off, f
		switch {
		case f.kind == kindTypename:
			e.how = howTypename
		case stringSlice(f.def.Out):
			e.how, e.nonNull = howStrings, f.def.Out.NonNull
		}
	}
	return t
}

// fastHow says how fastObject writes a field.
type fastHow uint8

const (
	howValue    fastHow = iota // fastValue
	howString                  // a Go string, String or ID
	howInt                     // a Go int, Int
	howTypename                // __typename (fastField only)
	howStrings                 // a Go []string, a list of String or ID (fastField only)
)

// howOf returns how fastObject writes a value described by out.
func howOf(out *schema.Output) fastHow {
	if out.Kind == schema.OutLeaf {
		switch out.Leaf {
		case schema.LeafString:
			return howString
		case schema.LeafInt:
			return howInt
		}
	}
	return howValue
}

// markSelection marks the object plans of sp.
func markSelection(sp *selectionPlan) {
	if sp.object != nil {
		markFast(sp.object)
	}
	for _, op := range sp.byType {
		markFast(op)
	}
}

// outFast reports whether fastValue can write values described by out
// with the selection sub.
func outFast(out *schema.Output, sub *selectionPlan) bool {
	switch out.Kind {
	case schema.OutLeaf:
		return true
	case schema.OutPtr, schema.OutList:
		return outFast(out.Elem, sub)
	case schema.OutObject:
		if sub == nil {
			return false
		}
		op := sub.forType(out.Type.Name)
		return op != nil && markFast(op)
	}
	return false
}

// fastValue appends the value at p (not nil) described by out, selected by
// f, to buf. It reports false when the general writer must write it.
func (r *request) fastValue(buf []byte, f *fieldPlan, out *schema.Output, p unsafe.Pointer) ([]byte, bool) {
	switch out.Kind {
	case schema.OutLeaf:
		return appendLeaf(buf, out, p)
	case schema.OutPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			if out.NonNull {
				return buf, false
			}
			return append(buf, "null"...), true
		}
		return r.fastValue(buf, f, out.Elem, q)
	case schema.OutObject:
		return r.fastObject(buf, f.sub.forType(out.Type.Name), out.Type.Name, p)
	case schema.OutList:
		return r.fastList(buf, f, out, p)
	}
	return buf, false
}

// fastList appends the slice or array at p.
func (r *request) fastList(buf []byte, f *fieldPlan, out *schema.Output, p unsafe.Pointer) ([]byte, bool) {
	base, n := p, out.Len
	if !out.Array {
		sh := (*sliceHeader)(p)
		if sh.data == nil && !out.NonNull {
			return append(buf, "null"...), true
		}
		base, n = sh.data, sh.len
	}
	buf = append(buf, '[')
	elem, size := out.Elem, out.ElemSize
	ok := true
	switch {
	case stringElems(out):
		buf = appendStrings(buf, unsafe.Slice((*string)(base), n))
	case elem.Kind == schema.OutLeaf:
		for i := range n {
			if i > 0 {
				buf = append(buf, ',')
			}
			if buf, ok = appendLeaf(buf, elem, unsafe.Add(base, uintptr(i)*size)); !ok {
				return buf, false
			}
		}
	case elem.Kind == schema.OutObject:
		op := f.sub.forType(elem.Type.Name)
		if t := op.table; t != nil {
			limit := r.limit
			for i := range n {
				if i > 0 {
					buf = append(buf, ',')
				}
				if buf, ok = r.fastTable(buf, t, elem.Type.Name, unsafe.Add(base, uintptr(i)*size), limit); !ok {
					return buf, false
				}
			}
			break
		}
		for i := range n {
			if i > 0 {
				buf = append(buf, ',')
			}
			if buf, ok = r.fastObject(buf, op, elem.Type.Name, unsafe.Add(base, uintptr(i)*size)); !ok {
				return buf, false
			}
		}
	default:
		for i := range n {
			if i > 0 {
				buf = append(buf, ',')
			}
			if buf, ok = r.fastValue(buf, f, elem, unsafe.Add(base, uintptr(i)*size)); !ok {
				return buf, false
			}
		}
	}
	return append(buf, ']'), true
}

// fastObject appends the fields of op for the object of type typeName at
// obj.
func (r *request) fastObject(buf []byte, op *objectPlan, typeName string, obj unsafe.Pointer) ([]byte, bool) {
	limit := r.limit
	if op.table != nil {
		return r.fastTable(buf, op.table, typeName, obj, limit)
	}
	buf = append(buf, '{')
	first := true
	ok := true
	for _, f := range op.fields {
		if f.conds != nil && !included(f.conds, r.vars) {
			continue
		}
		if len(buf) > limit {
			return buf, false
		}
		if first {
			buf = append(buf, f.keyJSON[1:]...)
			first = false
		} else {
			buf = appendKey(buf, f)
		}
		if f.kind == kindTypename {
			buf = appendString(buf, typeName)
			continue
		}
		p := unsafe.Add(obj, f.off)
		switch f.how {
		case howString:
			buf = appendString(buf, *(*string)(p))
		case howInt:
			v := *(*int)(p)
			if v < math.MinInt32 || v > math.MaxInt32 {
				return buf, false
			}
			buf = appendInt(buf, v)
		default:
			if buf, ok = r.fastValue(buf, f, f.def.Out, p); !ok {
				return buf, false
			}
		}
	}
	return append(buf, '}'), true
}

// fastTable is fastObject's loop over a table of fields (op.table), which
// is never empty (see newFastTable).
func (r *request) fastTable(buf []byte, t []fastField, typeName string, obj unsafe.Pointer, limit int) ([]byte, bool) {
	ok := true
	for i := range t {
		e := &t[i]
		n := len(buf)
		if n > limit {
			return buf, false
		}
		// Room for the key and a small number after it.
		if cap(buf)-n < 16+4 {
			buf = slices.Grow(buf, 16+4)
		}
		*(*[16]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), n)) = e.key
		n += int(e.keyLen)
		buf = buf[:n]
		p := unsafe.Add(obj, e.off)
		switch e.how {
		case howString:
			buf = appendString(buf, *(*string)(p))
		case howInt:
			v := *(*int)(p)
			if uint(v) < uint(len(smallInts)) {
				d := smallInts[v]
				*(*[4]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), n)) = d
				buf = buf[:n+int(d[3])]
				continue
			}
			if v < math.MinInt32 || v > math.MaxInt32 {
				return buf, false
			}
			buf = appendInt(buf, v)
		case howTypename:
			buf = appendString(buf, typeName)
		case howStrings:
			sh := (*sliceHeader)(p)
			if sh.data == nil && !e.nonNull {
				buf = append(buf, "null"...)
				continue
			}
			buf = append(appendStrings(append(buf, '['), unsafe.Slice((*string)(sh.data), sh.len)), ']')
		default:
			if buf, ok = r.fastValue(buf, e.f, e.f.def.Out, p); !ok {
				return buf, false
			}
		}
	}
	return append(buf, '}'), true
}

// smallInts holds the decimal digits of 0 to 999, padded to three bytes,
// with their number in the fourth.
var smallInts = func() (t [1000][4]byte) {
	for v := range t {
		d := strconv.Itoa(v)
		copy(t[v][:], d)
		t[v][3] = byte(len(d))
	}
	return t
}()

// appendKey appends f.keyJSON; a key of up to 16 bytes is one fixed-size
// store rather than a copy of variable length.
func appendKey(buf []byte, f *fieldPlan) []byte {
	if f.key16 == nil {
		return append(buf, f.keyJSON...)
	}
	n := len(buf)
	if cap(buf)-n < 16 {
		buf = slices.Grow(buf, 16)
	}
	*(*[16]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), n)) = *f.key16
	return buf[:n+len(f.keyJSON)]
}

// appendLeaf appends the leaf value at p described by out, inlining the
// commonest writers.
func appendLeaf(buf []byte, out *schema.Output, p unsafe.Pointer) ([]byte, bool) {
	switch out.Leaf {
	case schema.LeafString:
		return appendString(buf, *(*string)(p)), true
	case schema.LeafInt:
		v := *(*int)(p)
		if v < math.MinInt32 || v > math.MaxInt32 {
			return buf, false
		}
		return appendInt(buf, v), true
	case schema.LeafBool:
		if *(*bool)(p) {
			return append(buf, "true"...), true
		}
		return append(buf, "false"...), true
	}
	b, err := out.WriteLeaf(buf, p)
	return b, err == nil
}
