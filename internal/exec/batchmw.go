package exec

import (
	"context"
	"errors"
	"sync"
	"unsafe"
)

// Middleware around batch fields.
//
// A batch field with middleware is wrapped once per slot (a parent at
// one path). Each slot's middleware runs in a goroutine of its own, one
// slot after the other, up to its call of next (or its return): next
// parks the goroutine. Once every slot got that far, the batch function
// runs once with the distinct parents whose middleware called next, in
// slot order; then the parked goroutines are resumed one after the other,
// each next returning its parent's result, and each middleware's value
// becomes its slot's. Running one middleware at a time keeps the order of
// their effects that of the response, as for fields resolved in place.

// errNextTooLate is returned by a batch slot's next called after its
// middleware returned.
var errNextTooLate = errors.New("graphql: next was called after the field middleware returned")

// batchSlotCall is the middleware run of one slot of a batch group.
type batchSlotCall struct {
	call FieldCall
	// state receives one signal when next is first called and one when
	// the middleware returns (a single one if it returns first).
	state  chan struct{}
	resume chan struct{} // closed once the batch ran
	once   sync.Once
	// admitted is set when next was called before the middleware
	// returned; val and err are then next's result, p the pointer of val.
	admitted bool
	val      any
	err      error
	p        unsafe.Pointer
	// out and outErr are the middleware's result.
	out    any
	outErr error
}

// runBatchWrapped calls the batch resolver of g through the middleware of
// each slot and fills the slots.
func (r *request) runBatchWrapped(g *batchGroup, tr *groupTrack, ctx *fieldCtx, all []prefetched) {
	calls := make([]batchSlotCall, len(g.slots))
	index := make([]int, len(g.parents)) // parent -> position in parents, plus one
	// At most maxParkedSlots goroutines wait at once: a larger group runs
	// in chunks, one batch call each.
	for lo := 0; lo < len(calls); lo += maxParkedSlots {
		clear(index)
		r.runBatchChunk(g, tr, ctx, all, calls, index, lo, min(lo+maxParkedSlots, len(calls)))
	}
}

// maxParkedSlots bounds the middleware goroutines of a batch field parked
// at once (see runBatchWrapped).
const maxParkedSlots = 256

// runBatchChunk runs the middleware of slots lo to hi of g, then the batch
// function once for the parents they admitted, and fills those slots.
func (r *request) runBatchChunk(g *batchGroup, tr *groupTrack, ctx *fieldCtx, all []prefetched, calls []batchSlotCall, index []int, lo, hi int) {
	for i := lo; i < hi; i++ {
		c := &calls[i]
		f := tr.plans[i]
		j := i
		if g.multi {
			j = g.dup[i]
		}
		c.call = FieldCall{ParentType: f.parent, FieldName: f.name, Resolver: true, Path: tr.at[i].child(f.key).slice(), r: r, f: f, obj: g.parents[j]}
		c.state, c.resume = make(chan struct{}, 1), make(chan struct{})
		go r.runSlotMiddleware(c, f, ctx)
		<-c.state
	}
	// The distinct admitted parents, in slot order.
	parents := make([]unsafe.Pointer, 0, min(hi-lo, len(g.parents)))
	for i := lo; i < hi; i++ {
		if !calls[i].admitted {
			continue
		}
		j := i
		if g.multi {
			j = g.dup[i]
		}
		if index[j] == 0 {
			parents = append(parents, g.parents[j])
			index[j] = len(parents)
		}
	}
	var res unsafe.Pointer
	var size uintptr
	var errs []error
	if len(parents) > 0 {
		res, size, errs = r.callBatchChecked(g, parents, ctx)
	}
	for i := lo; i < hi; i++ {
		c := &calls[i]
		if c.admitted {
			j := i
			if g.multi {
				j = g.dup[i]
			}
			c.p, c.err = batchResult(res, size, errs, len(parents), index[j]-1)
			if c.err == nil {
				c.val = g.def.Value(c.p)
			}
		} else {
			c.err = errNextTooLate
		}
		close(c.resume)
		if c.admitted {
			<-c.state // the middleware returned
		}
		var p unsafe.Pointer
		err := c.outErr
		if err == nil {
			if c.admitted && c.err == nil && sameValue(c.out, c.val) {
				p = c.p
			} else {
				p, err = r.fromValue(tr.plans[i], c.out)
			}
		}
		all[g.slots[i]] = prefetched{ptr: p, err: err, set: true}
	}
}

// runSlotMiddleware runs the middleware of one batch slot (see
// runBatchWrapped), in its own goroutine.
func (r *request) runSlotMiddleware(c *batchSlotCall, f *fieldPlan, ctx context.Context) {
	defer func() {
		if v := recover(); v != nil {
			c.out, c.outErr = nil, r.middlewarePanicked(ctx, f, v)
		}
		c.once.Do(func() {}) // a later next is too late
		c.state <- struct{}{}
	}()
	c.out, c.outErr = f.mw(ctx, &c.call, func(context.Context) (any, error) {
		c.once.Do(func() {
			c.admitted = true
			c.state <- struct{}{}
		})
		<-c.resume
		return c.val, c.err
	})
}
