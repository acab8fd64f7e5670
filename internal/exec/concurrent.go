package exec

import (
	"context"
	"sync"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

// maxConcurrentResolvers bounds the goroutines one prefetch runs at once,
// so a long list does not start thousands of resolvers together.
const maxConcurrentResolvers = 64

// prefetch runs the concurrent resolvers among op's included fields for
// the object obj (nil for the root), in goroutines, and waits for them.
func (r *request) prefetch(op *objectPlan, obj unsafe.Pointer) []prefetched {
	return r.prefetchAll(op, []unsafe.Pointer{obj}, false, false)
}

// prefetchAll runs the concurrent resolvers among op's included fields for
// the objects objs (skipping nil ones when skipNil is set), in goroutines
// (at most maxConcurrentResolvers at a time), and waits for them. The
// result for object i and field j is at i*len(op.fields)+j. The objects
// are at the writer's path, or at its items when items is set.
func (r *request) prefetchAll(op *objectPlan, objs []unsafe.Pointer, skipNil, items bool) []prefetched {
	k := len(op.fields)
	pre := make([]prefetched, k*len(objs))
	var at *pathNode // the writer's path, when the engine has middleware
	if r.e.mwFor != nil {
		at = r.nodeOf()
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxConcurrentResolvers)
	for j, f := range op.fields {
		if f.def == nil || !f.def.Concurrent || f.def.Resolve == nil {
			continue
		}
		if f.conds != nil && !included(f.conds, r.vars) {
			continue
		}
		for i, obj := range objs {
			if obj == nil && skipNil {
				continue
			}
			objAt := at
			if at != nil && items {
				objAt = at.item(i)
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() {
					<-sem
					wg.Done()
				}()
				sink := &errorSink{}
				p, err := r.resolveFieldAt(f, obj, context.WithValue(r.fieldContext(f), sinkKey{}, sink), objAt)
				pre[i*k+j] = prefetched{ptr: p, err: err, added: sink.errs, set: true}
			}()
		}
	}
	wg.Wait()
	return pre
}

// concurrentItems returns the plan of a list's object items, and the
// object's Output, when the items are objects of one type with concurrent
// fields; otherwise nil.
func (r *request) concurrentItems(f *fieldPlan, elem *schema.Output) (*objectPlan, *schema.Output) {
	obj := elem
	if obj.Kind == schema.OutPtr {
		obj = obj.Elem
	}
	if obj.Kind != schema.OutObject || f.sub == nil {
		return nil, nil
	}
	op := f.sub.forType(obj.Type.Name)
	if op == nil || !op.concurrent {
		return nil, nil
	}
	return op, obj
}

// writeConcurrentItems writes the n object items of the list at base (the
// opening bracket already written) after running the concurrent resolvers
// of all items together.
func (r *request) writeConcurrentItems(f *fieldPlan, out *schema.Output, base unsafe.Pointer, n int, op *objectPlan, obj *schema.Output) bool {
	elem := out.Elem
	objs := make([]unsafe.Pointer, n)
	for i := range objs {
		p := unsafe.Add(base, uintptr(i)*out.ElemSize)
		if elem.Kind == schema.OutPtr {
			p = *(*unsafe.Pointer)(p)
		}
		objs[i] = p
	}
	pre := r.prefetchAll(op, objs, true, true)
	k := len(op.fields)
	for i, p := range objs {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.path = append(r.path, pathElem{index: i})
		start := len(r.buf)
		var ok bool
		if p == nil {
			ok = r.writeNull(f, elem.NonNull, true)
		} else if ok = r.writeFields(op, obj.Type.Name, p, pre[i*k:(i+1)*k]); !ok && !elem.NonNull {
			r.buf = append(r.buf[:start], "null"...)
			if r.jobs != nil {
				r.dropJobs(start)
			}
			ok = true
		}
		r.path = r.path[:len(r.path)-1]
		if !ok {
			return false
		}
	}
	r.buf = append(r.buf, ']')
	return true
}
