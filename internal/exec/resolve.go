package exec

import (
	"context"
	"fmt"
	"runtime/debug"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

// sliceHeader is the memory layout of a Go slice.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

// prefetched is the result of a resolver started ahead of writing.
type prefetched struct {
	ptr   unsafe.Pointer
	err   error
	added []error // reported with AddError
	set   bool
}

// writeObject writes the fields of op for the object of type typeName at
// obj. It reports false when a non-null field failed, so the object itself
// must become null; the caller truncates what was written.
func (r *request) writeObject(op *objectPlan, typeName string, obj unsafe.Pointer, allowConcurrent bool) bool {
	var pre []prefetched
	if r.ahead {
		if op.work {
			return r.writeAhead(op, typeName, obj) // batch.go
		}
	} else if op.concurrent && allowConcurrent {
		pre = r.prefetch(op, obj)
	}
	return r.writeFields(op, typeName, obj, pre)
}

// writeFields writes the object as writeObject does, taking the values of
// concurrent fields from pre (indexed like op.fields) when given.
func (r *request) writeFields(op *objectPlan, typeName string, obj unsafe.Pointer, pre []prefetched) bool {
	r.buf = append(r.buf, '{')
	first := true
	for i, f := range op.fields {
		if f.conds != nil && !included(f.conds, r.vars) {
			continue
		}
		if first {
			r.buf = append(r.buf, f.keyJSON[1:]...)
			first = false
		} else {
			r.buf = append(r.buf, f.keyJSON...)
		}
		if f.fast && r.slow == 0 && len(r.buf) <= r.e.maxResponse {
			// The fast writer needs no path: one is pushed only if it
			// gives up.
			if p := r.plainValue(f, obj, pre, i); p != nil {
				if b, ok := r.fastValue(r.buf, f, f.def.Out, p); ok {
					r.buf = b
					continue
				}
			}
		}
		r.path = append(r.path, pathElem{key: f.key, index: -1})
		var ok bool
		switch f.kind {
		case kindTypename:
			r.buf = appendString(r.buf, typeName)
			ok = true
		case kindSchema:
			ok = r.writeIntroSchema(f)
		case kindType:
			ok = r.writeIntroTypeField(f)
		default:
			var p *prefetched
			if pre != nil && pre[i].set {
				p = &pre[i]
			}
			ok = r.writeModelField(f, obj, p)
		}
		r.path = r.path[:len(r.path)-1]
		if !ok {
			return false
		}
	}
	r.buf = append(r.buf, '}')
	if op.defers != nil && r.inc != nil {
		r.startDefers(op, typeName, obj) // incremental.go
	}
	return true
}

// plainValue returns the value of the fast field f (op.fields[i]) on obj
// when it is at hand with nothing to report: its prefetched value without
// an error, or a struct field read without a resolver or middleware. It
// returns nil otherwise, and the general path decides.
func (r *request) plainValue(f *fieldPlan, obj unsafe.Pointer, pre []prefetched, i int) unsafe.Pointer {
	if pre != nil && pre[i].set {
		if q := &pre[i]; q.err == nil && q.added == nil {
			return q.ptr
		}
		return nil
	}
	if f.def.Resolve == nil && f.mw == nil && obj != nil {
		return unsafe.Add(obj, f.def.Offset)
	}
	return nil
}

// writeModelField resolves f on obj (or takes its prefetched value) and
// writes the value.
func (r *request) writeModelField(f *fieldPlan, obj unsafe.Pointer, pre *prefetched) bool {
	if len(r.buf) > r.e.maxResponse && r.overResponseBudget(f) {
		return r.writeNull(f, f.def.Out.NonNull, false)
	}
	var p unsafe.Pointer
	var err error
	var added []error
	switch {
	case pre != nil:
		p, err, added = pre.ptr, pre.err, pre.added
	case f.def.Resolve == nil && obj != nil && f.mw == nil:
		p = unsafe.Add(obj, f.def.Offset) // a plain struct field
	case f.mw != nil:
		p, err = r.resolveWrapped(f, obj, nil, true) // middleware.go
		added = r.sink.take()
	default:
		p, err = r.resolveField(f, obj)
		added = r.sink.take()
	}
	for _, a := range added {
		r.addError(r.resolverError(f, a))
	}
	out := f.def.Out
	if f.fast && err == nil && p != nil && r.slow == 0 {
		if b, ok := r.fastValue(r.buf, f, out, p); ok {
			r.buf = b
			return true
		}
		// The general writer writes what the fast one gave up on.
		r.slow++
		ok := r.writeFieldValue(f, out, p, nil)
		r.slow--
		return ok
	}
	return r.writeFieldValue(f, out, p, err)
}

// writeFieldValue writes the value at p of the model field f, or its
// error err.
func (r *request) writeFieldValue(f *fieldPlan, out *schema.Output, p unsafe.Pointer, err error) bool {
	if err == nil && p != nil && out.Kind == schema.OutLeaf {
		// Fast path for scalar fields.
		b, lerr := out.WriteLeaf(r.buf, p)
		if lerr == nil {
			r.buf = b
			return true
		}
		r.addError(r.fieldError(f, lerr))
		return r.writeNull(f, out.NonNull, false)
	}
	if err != nil {
		r.addError(r.resolverError(f, err))
		return r.writeNull(f, out.NonNull, false)
	}
	return r.writeValue(f, out, p)
}

// resolveField computes the Go value of f on the parent obj. It is the one
// place a field's value is obtained, so batch resolvers can hook in here.
// It does not touch the response buffer, path or error list, so it may run
// in its own goroutine.
func (r *request) resolveField(f *fieldPlan, obj unsafe.Pointer) (unsafe.Pointer, error) {
	return r.resolveFieldCtx(f, obj, nil)
}

// resolveFieldCtx is resolveField with the context handed to the
// resolver; nil means the request's (with the field's selection).
func (r *request) resolveFieldCtx(f *fieldPlan, obj unsafe.Pointer, ctx context.Context) (unsafe.Pointer, error) {
	if f.mw != nil {
		return r.resolveWrapped(f, obj, ctx, false)
	}
	return r.resolveInner(f, obj, ctx)
}

// resolveInner is resolveFieldCtx without the field's middleware.
func (r *request) resolveInner(f *fieldPlan, obj unsafe.Pointer, ctx context.Context) (unsafe.Pointer, error) {
	def := f.def
	if def.Resolve == nil {
		if obj == nil {
			return nil, fmt.Errorf("field %s.%s has neither a resolver nor a parent value", f.parent, f.name)
		}
		return unsafe.Add(obj, def.Offset), nil
	}
	if r.over() {
		return nil, r.ctx.Err()
	}
	args := f.args
	if f.argsErr != nil {
		return nil, argumentError{f.argsErr}
	}
	if f.dynArgs {
		vals, err := r.e.coerce.Arguments(f.ast.Definition.Arguments, f.ast.Arguments, r.vars)
		if err == nil {
			args, err = def.NewArgs(vals)
		}
		if err != nil {
			return nil, argumentError{err}
		}
	}
	if ctx == nil {
		ctx = r.fieldContext(f)
	}
	return r.call(ctx, f, obj, args)
}

// call runs the resolver of f, turning a panic into errPanic.
func (r *request) call(ctx context.Context, f *fieldPlan, obj, args unsafe.Pointer) (p unsafe.Pointer, err error) {
	defer func() {
		if v := recover(); v != nil {
			stack := debug.Stack()
			r.logFieldError("graphql: resolver panicked",
				"field", f.parent+"."+f.name, "panic", v, "stack", string(stack))
			r.e.panicked(ctx, v, stack) // present.go
			p, err = nil, errPanic
		}
	}()
	return f.def.Resolve(ctx, obj, args)
}

// writeValue writes the value at p described by out. When the value cannot
// be completed (an error, or null at a non-null position below) and this
// position is nullable, what was written is replaced by null. It reports
// false when the failure must propagate to the parent.
func (r *request) writeValue(f *fieldPlan, out *schema.Output, p unsafe.Pointer) bool {
	start := len(r.buf)
	if r.writeInner(f, out, p) {
		return true
	}
	if out.NonNull {
		return false
	}
	r.buf = append(r.buf[:start], "null"...)
	if r.jobs != nil {
		r.dropJobs(start) // incremental.go
	}
	return true
}

// writeNull writes null for a nullable position, or records a non-null
// violation (unless the cause was already reported) and reports false.
func (r *request) writeNull(f *fieldPlan, nonNull, report bool) bool {
	if nonNull {
		if report {
			r.addError(r.nonNullError(f))
		}
		return false
	}
	r.buf = append(r.buf, "null"...)
	return true
}

// writeInner writes the value at p; false means the position is null
// because of an error already recorded.
func (r *request) writeInner(f *fieldPlan, out *schema.Output, p unsafe.Pointer) bool {
	if p == nil {
		return r.writeNull(f, out.NonNull, true)
	}
	switch out.Kind {
	case schema.OutLeaf:
		b, err := out.WriteLeaf(r.buf, p)
		if err != nil {
			r.addError(r.fieldError(f, err))
			return false
		}
		r.buf = b
		return true
	case schema.OutPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return r.writeNull(f, out.NonNull, true)
		}
		return r.writeInner(f, out.Elem, q)
	case schema.OutObject:
		op := f.sub.forType(out.Type.Name)
		if op == nil {
			r.addError(r.fieldError(f, fmt.Errorf("type %s is not selectable here", out.Type.Name)))
			return false
		}
		return r.writeObject(op, out.Type.Name, p, true)
	case schema.OutAbstract:
		t, q, err := out.ResolveType(r.ctx, p)
		if err != nil {
			r.addError(r.resolverError(f, err))
			return false
		}
		if t == nil || q == nil {
			return r.writeNull(f, out.NonNull, true)
		}
		op := f.sub.forType(t.Name)
		if op == nil {
			r.addError(r.fieldError(f, fmt.Errorf("type %s is not a possible type of %s", t.Name, out.Type.Name)))
			return false
		}
		return r.writeObject(op, t.Name, q, true)
	case schema.OutList:
		return r.writeList(f, out, p)
	case schema.OutRaw:
		return r.writeRaw(f, p) // raw.go
	case schema.OutSource:
		return r.writeSource(f, out, p) // incremental.go
	}
	r.addError(r.fieldError(f, fmt.Errorf("unknown output kind %d", out.Kind)))
	return false
}

// writeList writes the slice or array at p. List items are written one
// after the other; the concurrent resolvers of object items are started
// together for the whole list first.
func (r *request) writeList(f *fieldPlan, out *schema.Output, p unsafe.Pointer) bool {
	if f.stream != nil && r.inc != nil && outerList(f, out) {
		if count := r.streamCount(f); count >= 0 {
			return r.writeStreamed(f, out, p, count) // incremental.go
		}
	}
	base, n := p, out.Len
	if !out.Array {
		sh := (*sliceHeader)(p)
		if sh.data == nil && !out.NonNull {
			r.buf = append(r.buf, "null"...)
			return true
		}
		base, n = sh.data, sh.len
	}
	r.buf = append(r.buf, '[')
	if elem := out.Elem; elem.Kind == schema.OutLeaf {
		// Fast path for lists of scalars: on the first failing item, fall
		// through to the general loop from there.
		i := 0
		for ; i < n; i++ {
			if i > 0 {
				r.buf = append(r.buf, ',')
			}
			b, err := elem.WriteLeaf(r.buf, unsafe.Add(base, uintptr(i)*out.ElemSize))
			if err != nil {
				if i > 0 {
					r.buf = r.buf[:len(r.buf)-1]
				}
				break
			}
			r.buf = b
		}
		if i == n {
			r.buf = append(r.buf, ']')
			return true
		}
		return r.writeItems(f, out, base, i, n)
	}
	if r.ahead {
		return r.writeItems(f, out, base, 0, n)
	}
	if op, obj := r.concurrentItems(f, out.Elem); op != nil {
		return r.writeConcurrentItems(f, out, base, n, op, obj)
	}
	return r.writeItems(f, out, base, 0, n)
}

// writeItems writes the list items from..n of the list at base, and the
// closing bracket.
func (r *request) writeItems(f *fieldPlan, out *schema.Output, base unsafe.Pointer, from, n int) bool {
	for i := from; i < n; i++ {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.path = append(r.path, pathElem{index: i})
		ok := r.writeValue(f, out.Elem, unsafe.Add(base, uintptr(i)*out.ElemSize))
		r.path = r.path[:len(r.path)-1]
		if !ok {
			return false
		}
	}
	r.buf = append(r.buf, ']')
	return true
}
