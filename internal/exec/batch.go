package exec

import (
	"context"
	"encoding/json"
	"errors"
	"runtime/debug"
	"slices"
	"sync"
	"unsafe"

	"github.com/graftgql/graft/internal/batchsched"
	"github.com/graftgql/graft/internal/lookahead"
	schema "github.com/graftgql/graft/internal/schemadef"
)

// Resolving ahead, level by level.
//
// An operation whose plan reaches a batch field or a concurrent resolver
// (Operation.batched, known at plan time) runs in two phases. The first
// walks the response breadth-first: at each level it calls, for every
// object of the level, the resolvers that lead to such fields or are such
// fields, groups batch fields by field and arguments so that one call
// covers every parent of the level, and runs the concurrent resolvers and
// the batches of the level beside each other as tasks of a
// batchsched.Scheduler (which sends loader batches once every task is done
// or waiting). The objects of each level are kept in the order the
// depth-first writer meets them, with the values of their fields and the
// index of their first child in the next level. The second phase is the
// ordinary writer: each object it starts at level d takes the next object
// of level d (checking plan and address) with its values, and points the
// cursor of level d+1 at its first child, so an object abandoned half way
// (a non-null error) does not shift its neighbours. Operations that reach
// no such field never enter this file.

// defaultConcurrency bounds the tasks one request runs at once when
// Options.MaxConcurrency is 0.
const defaultConcurrency = 64

// levelObj is an object of the level being resolved.
type levelObj struct {
	op   *objectPlan
	ptr  unsafe.Pointer
	pre  int32 // the values of op.fields start at aheadLevel.all[pre]
	kids int32 // the first child in the next level
}

// aheadLevel is one level of the response resolved ahead.
type aheadLevel struct {
	objs []levelObj
	all  []prefetched
	// paths holds the path of each object of objs when the engine has
	// middleware (middleware.go), and is nil otherwise.
	paths []*pathNode
}

// resolverCall is an ordinary resolver of the level.
type resolverCall struct {
	f    *fieldPlan
	obj  unsafe.Pointer
	slot *prefetched
	at   *pathNode // the object's path, when tracked
}

// batchGroup is one call of a batch field: the parents that need the
// field with the same arguments.
type batchGroup struct {
	def     *schema.Field
	f       *fieldPlan // the first plan; for logging and look-ahead
	argsKey string
	args    unsafe.Pointer
	parents []unsafe.Pointer
	slots   []int32 // indexes of the level's values, one per parent
	multi   bool    // parents come from more than one field plan
	index   map[unsafe.Pointer]int
	dup     []int // slot i takes the result of parent dup[i] (multi only)
	// Small groups keep their parents and slots here.
	parentsBuf [4]unsafe.Pointer
	slotsBuf   [4]int32
}

// planArgs are the converted arguments of a field plan for this request.
type planArgs struct {
	f   *fieldPlan
	ptr unsafe.Pointer
	key string
	err error
}

// aheadState is the state of resolving ahead. A pooled request keeps it,
// emptied, with its buffers and scheduler.
type aheadState struct {
	aheadLeft int // objects that may still be resolved ahead
	// levels holds the objects resolved ahead, cursor the next object of
	// each level for the writer and depth the level of the object being
	// written.
	levels []aheadLevel
	cursor []int
	depth  int
	sched  batchsched.Scheduler
	// Buffers of one level, kept across levels and requests (cleared).
	seqBuf, concBuf []resolverCall
	groupBuf        []*batchGroup
	argsBuf         []planArgs
	// arena holds the task contexts and batch groups of the current
	// request, taken in order and never reused within it (a resolver may
	// keep its context or a batch function its parents); a new request
	// starts a new arena, so one allocation covers the usual request.
	arena              *aheadArena
	arenaCtx, arenaGrp int
	// tracks holds, for the batch groups of the level, the path and plan
	// of each slot when paths are tracked (the engine has middleware).
	tracks map[*batchGroup]*groupTrack
}

// groupTrack is the path of the object and the field plan of each slot of
// a batch group.
type groupTrack struct {
	at    []*pathNode
	plans []*fieldPlan
}

// aheadArena is the memory of the first task contexts and batch groups of
// a request.
type aheadArena struct {
	ctxs   [2]fieldCtx
	groups [1]batchGroup
}

// newCtxs returns n zeroed task contexts for this request.
func (st *aheadState) newCtxs(n int) []fieldCtx {
	if st.arena == nil {
		st.arena = &aheadArena{}
	}
	if st.arenaCtx+n <= len(st.arena.ctxs) {
		c := st.arena.ctxs[st.arenaCtx : st.arenaCtx+n : st.arenaCtx+n]
		st.arenaCtx += n
		return c
	}
	return make([]fieldCtx, n)
}

// newGroup returns a zeroed batch group for this request.
func (st *aheadState) newGroup() *batchGroup {
	if st.arena == nil {
		st.arena = &aheadArena{}
	}
	if st.arenaGrp < len(st.arena.groups) {
		st.arenaGrp++
		return &st.arena.groups[st.arenaGrp-1]
	}
	return &batchGroup{}
}

// resolveAhead runs the first phase for the root object and hands the
// root to the writer.
func (r *request) resolveAhead(root *objectPlan, serial bool) {
	r.resolveAheadFrom([]levelObj{{op: root}}, nil, serial)
}

// resolveAheadFrom runs the first phase from the objects of the first
// level: the root, or the objects of an incremental payload
// (incremental.go), with their paths when the engine has middleware (nil:
// the writer's current path).
func (r *request) resolveAheadFrom(objs []levelObj, paths []*pathNode, serial bool) {
	r.ahead = true
	if r.st == nil {
		r.st = &aheadState{}
	}
	r.st.sched.Reset(r.ctx, r.e.concurrency)
	r.st.arena, r.st.arenaCtx, r.st.arenaGrp = nil, 0, 0
	// Every object takes at least 2 bytes of the response, so more objects
	// than that cannot be written: nested lists that multiply stop being
	// resolved ahead there, and the writer's response budget ends them.
	r.st.aheadLeft = r.e.maxResponse / 2
	lv := r.levelAt(0)
	lv.objs = append(lv.objs, objs...)
	if r.e.mwFor != nil {
		if paths == nil {
			at := r.nodeOf()
			for range objs {
				paths = append(paths, at)
			}
		}
		lv.paths = append(lv.paths, paths...)
	}
	for d := 0; ; d++ {
		r.levelAt(d + 1) // may move r.st.levels
		r.resolveLevel(&r.st.levels[d], &r.st.levels[d+1].objs, &r.st.levels[d+1].paths, serial)
		r.st.cursor = append(r.st.cursor, 0)
		if len(r.st.levels[d+1].objs) == 0 {
			r.st.levels = r.st.levels[:d+1]
			return
		}
		serial = false
	}
}

// levelAt returns level d, the next after those in use, reusing the
// buffers a pooled request kept (empty and cleared, see releaseAhead).
func (r *request) levelAt(d int) *aheadLevel {
	if d < cap(r.st.levels) {
		r.st.levels = r.st.levels[:d+1]
	} else {
		r.st.levels = append(r.st.levels, aheadLevel{})
	}
	return &r.st.levels[d]
}

// maxKeptLevel bounds the buffers of one level a pooled request keeps.
const maxKeptLevel = 4096

// release clears the levels (they point into resolver results) and
// keeps their buffers, unless large, for the next request.
func (st *aheadState) release() {
	st.sched.ClearLocals() // loaders holding the request's objects
	levels := st.levels[:cap(st.levels)]
	for i := range levels {
		lv := &levels[i]
		clear(lv.objs)
		clear(lv.all)
		lv.objs, lv.all = lv.objs[:0], lv.all[:0]
		lv.paths = nil
		if cap(lv.objs) > maxKeptLevel || cap(lv.all) > maxKeptLevel {
			*lv = aheadLevel{}
		}
	}
	st.levels = levels[:0]
	st.cursor, st.depth = st.cursor[:0], 0
	st.arena = nil // the request's contexts may still be held
	st.tracks = nil
	// After a panic the level buffers may hold values still.
	clear(st.seqBuf[:cap(st.seqBuf)])
	clear(st.concBuf[:cap(st.concBuf)])
	clear(st.groupBuf[:cap(st.groupBuf)])
	clear(st.argsBuf[:cap(st.argsBuf)])
}

// writeAhead writes an object of a batched operation with the values
// resolved ahead for it.
func (r *request) writeAhead(op *objectPlan, typeName string, obj unsafe.Pointer) bool {
	d := r.st.depth
	var pre []prefetched
	if d < len(r.st.levels) {
		lv := &r.st.levels[d]
		if c := r.st.cursor[d]; c < len(lv.objs) && lv.objs[c].op == op && lv.objs[c].ptr == obj {
			o := &lv.objs[c]
			pre = lv.all[o.pre : int(o.pre)+len(op.fields)]
			r.st.cursor[d] = c + 1
			if d+1 < len(r.st.cursor) {
				r.st.cursor[d+1] = int(o.kids)
			}
		}
	}
	r.st.depth++
	ok := r.writeFields(op, typeName, obj, pre)
	r.st.depth--
	return ok
}

// resolveLevel resolves the fields of the objects of lv and appends the
// objects of the next level to next, and their paths to nextPaths when
// lv tracks paths.
func (r *request) resolveLevel(lv *aheadLevel, next *[]levelObj, nextPaths *[]*pathNode, serial bool) {
	level := lv.objs
	total := 0
	for i := range level {
		level[i].pre = int32(total)
		total += len(level[i].op.fields)
	}
	if cap(lv.all) >= total {
		lv.all = lv.all[:total] // cleared when released
	} else {
		lv.all = make([]prefetched, total)
	}
	all := lv.all
	seq, conc, groups, args := r.st.seqBuf[:0], r.st.concBuf[:0], r.st.groupBuf[:0], r.st.argsBuf[:0]
	for i := range level {
		o := &level[i]
		pre := all[o.pre : int(o.pre)+len(o.op.fields)]
		var at *pathNode
		if lv.paths != nil {
			at = lv.paths[i]
		}
		for j, f := range o.op.fields {
			// The root fields of a mutation all run here, in order.
			if !f.early && (!serial || f.def == nil || f.def.Resolve == nil) {
				continue
			}
			if f.conds != nil && !included(f.conds, r.vars) {
				continue
			}
			slot := &pre[j]
			switch {
			case f.def.Batch != nil:
				a := r.argsFor(&args, f)
				if a.err != nil {
					*slot = prefetched{err: a.err, set: true}
					continue
				}
				groups = r.st.addToGroup(groups, f, a, o.ptr, o.pre+int32(j), len(level)-i, at)
			case f.def.Resolve != nil || f.mw != nil:
				c := resolverCall{f: f, obj: o.ptr, slot: slot, at: at}
				if f.def.Concurrent && !serial {
					conc = append(conc, c)
				} else {
					seq = append(seq, c)
				}
			default:
				*slot = prefetched{ptr: unsafe.Add(o.ptr, f.def.Offset), set: true}
			}
		}
	}
	if serial || len(seq) < 2 {
		for _, c := range seq {
			ctx := r.taskContext(c.f)
			p, err := r.resolveFieldAt(c.f, c.obj, ctx, c.at)
			*c.slot = prefetched{ptr: p, err: err, added: ctx.sink.take(), set: true}
			ctx.task.Done()
		}
	} else {
		r.runSequence(seq)
	}
	r.runTasks(conc, groups, all)
	kids := *next
	var paths *[]*pathNode
	if lv.paths != nil {
		paths = nextPaths
	}
	for i := range level {
		o := &level[i]
		o.kids = int32(len(kids))
		pre := all[o.pre : int(o.pre)+len(o.op.fields)]
		for j, f := range o.op.fields {
			if f.deep && pre[j].set && pre[j].err == nil {
				var at *pathNode
				if paths != nil {
					at = lv.paths[i].child(f.key)
				}
				kids = r.children(kids, f, f.def.Out, pre[j].ptr, paths, at)
			}
		}
	}
	*next = kids
	// Keep the buffers for the next level and request, cleared.
	clear(seq)
	clear(conc)
	clear(groups)
	clear(args)
	clear(r.st.tracks)
	r.st.seqBuf, r.st.concBuf, r.st.groupBuf, r.st.argsBuf = seq[:0], conc[:0], groups[:0], args[:0]
	if cap(seq)+cap(conc)+cap(groups) > maxKeptLevel {
		r.st.seqBuf, r.st.concBuf, r.st.groupBuf = nil, nil, nil
	}
}

// argsFor returns the arguments of f for this request, converting them
// once per level.
func (r *request) argsFor(cache *[]planArgs, f *fieldPlan) planArgs {
	for _, a := range *cache {
		if a.f == f {
			return a
		}
	}
	a := planArgs{f: f, ptr: f.args, key: f.argsKey}
	switch {
	case f.argsErr != nil:
		a.err = argumentError{f.argsErr}
	case f.dynArgs:
		vals, err := r.e.coerce.Arguments(f.ast.Definition.Arguments, f.ast.Arguments, r.vars)
		if err == nil {
			a.key = argsKey(vals)
			a.ptr, err = f.def.NewArgs(vals)
		}
		if err != nil {
			a.err = argumentError{err}
		}
	}
	*cache = append(*cache, a)
	return a
}

// argsKey identifies coerced argument values: equal values give equal
// keys (encoding/json sorts map keys).
func argsKey(vals map[string]any) string {
	if len(vals) == 0 {
		return ""
	}
	b, err := json.Marshal(vals)
	if err != nil {
		return "\x00unkeyed" // never equal to a JSON text
	}
	return string(b)
}

// addToGroup adds the parent obj of the batch field f to the group of its
// field and arguments.
// capHint is the number of objects of the level, an upper bound of the
// group's parents from one plan; at is the object's path, when tracked.
func (st *aheadState) addToGroup(groups []*batchGroup, f *fieldPlan, a planArgs, obj unsafe.Pointer, slot int32, capHint int, at *pathNode) []*batchGroup {
	var g *batchGroup
	for _, c := range groups {
		if c.def == f.def && c.argsKey == a.key {
			g = c
			break
		}
	}
	if g == nil {
		g = st.newGroup()
		g.def, g.f, g.argsKey, g.args = f.def, f, a.key, a.ptr
		if capHint <= len(g.parentsBuf) {
			g.parents, g.slots = g.parentsBuf[:0], g.slotsBuf[:0]
		} else {
			g.parents, g.slots = make([]unsafe.Pointer, 0, capHint), make([]int32, 0, capHint)
		}
		groups = append(groups, g)
	}
	if f != g.f && !g.multi {
		// A second plan of the field: parents may repeat from now on.
		g.multi = true
		g.index = make(map[unsafe.Pointer]int, len(g.parents))
		g.dup = make([]int, len(g.slots))
		for i, p := range g.parents {
			g.index[p] = i
			g.dup[i] = i
		}
	}
	if g.multi {
		i, ok := g.index[obj]
		if !ok {
			i = len(g.parents)
			g.index[obj] = i
			g.parents = append(g.parents, obj)
		}
		g.dup = append(g.dup, i)
	} else {
		g.parents = append(g.parents, obj)
	}
	g.slots = append(g.slots, slot)
	if at != nil {
		if st.tracks == nil {
			st.tracks = map[*batchGroup]*groupTrack{}
		}
		tr := st.tracks[g]
		if tr == nil {
			tr = &groupTrack{}
			st.tracks[g] = tr
		}
		tr.at = append(tr.at, at)
		tr.plans = append(tr.plans, f)
	}
	return groups
}

// runTasks runs the concurrent resolvers and the batches of a level
// beside each other, bounded by the request's concurrency, and waits for
// them. A single task runs in the request's goroutine.
func (r *request) runTasks(conc []resolverCall, groups []*batchGroup, all []prefetched) {
	n := len(conc) + len(groups)
	if n == 0 {
		return
	}
	ctxs := r.st.newCtxs(n)
	for i := range ctxs {
		r.initTaskContext(&ctxs[i], taskField(conc, groups, i))
	}
	if n == 1 {
		r.runTask(0, conc, groups, all, &ctxs[0])
		return
	}
	r.st.sched.Bound()
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			ctxs[i].task.Acquire()
			r.runTask(i, conc, groups, all, &ctxs[i])
		}()
	}
	wg.Wait()
}

// runSequence runs the resolvers of a level that are not concurrent, one
// at a time and in order, on this goroutine until one of them waits for a
// load: the rest of the sequence then goes on in a goroutine of its own
// while it waits (handing over before the batch is sent), so that their
// loads share one batch rather than one each, and the baton keeps any two
// of them from running at once.
func (r *request) runSequence(seq []resolverCall) {
	ctxs := r.st.newCtxs(len(seq))
	baton := make(chan struct{}, 1)
	var wg sync.WaitGroup
	// run runs seq[start:]; ctxs[start] is registered already.
	var run func(start int)
	run = func(start int) {
		for i := start; i < len(seq); i++ {
			ctx, c := &ctxs[i], seq[i]
			if i > start {
				r.initTaskContext(ctx, c.f)
			}
			handedOff := false
			var handoff func()
			if i+1 < len(seq) {
				next := i + 1
				handoff = func() {
					handedOff = true
					r.initTaskContext(&ctxs[next], seq[next].f)
					wg.Add(1)
					go func() {
						defer wg.Done()
						run(next)
					}()
				}
			}
			ctx.task.Serialize(baton, handoff)
			p, err := r.resolveFieldAt(c.f, c.obj, ctx, c.at)
			*c.slot = prefetched{ptr: p, err: err, added: ctx.sink.take(), set: true}
			ctx.task.Done()
			if handedOff {
				return // the rest of the sequence runs in the goroutine started
			}
		}
	}
	r.initTaskContext(&ctxs[0], seq[0].f)
	run(0)
	wg.Wait()
}

// runTask runs task i of a level: a concurrent resolver or a batch.
func (r *request) runTask(i int, conc []resolverCall, groups []*batchGroup, all []prefetched, c *fieldCtx) {
	if i < len(conc) {
		call := conc[i]
		p, err := r.resolveFieldAt(call.f, call.obj, c, call.at)
		*call.slot = prefetched{ptr: p, err: err, added: c.sink.take(), set: true}
	} else {
		r.runBatch(groups[i-len(conc)], c, all)
	}
	c.task.Done()
}

// taskField returns the field plan of task i of a level.
func taskField(conc []resolverCall, groups []*batchGroup, i int) *fieldPlan {
	if i < len(conc) {
		return conc[i].f
	}
	return groups[i-len(conc)].f
}

// runBatch calls the batch resolver of g and fills its slots.
func (r *request) runBatch(g *batchGroup, ctx *fieldCtx, all []prefetched) {
	if g.f.mw != nil && r.st.tracks[g] != nil {
		r.runBatchWrapped(g, r.st.tracks[g], ctx, all) // batchmw.go
		return
	}
	res, size, errs := r.callBatchChecked(g, g.parents, ctx)
	for i, si := range g.slots {
		j := i
		if g.multi {
			j = g.dup[i]
		}
		p, err := batchResult(res, size, errs, len(g.parents), j)
		all[si] = prefetched{ptr: p, err: err, set: true}
	}
}

// batchResult is the value of parent j of n from a batch call's results.
func batchResult(res unsafe.Pointer, size uintptr, errs []error, n, j int) (unsafe.Pointer, error) {
	switch {
	case len(errs) == 1 && (n != 1 || errs[0] != nil):
		return nil, errs[0]
	case len(errs) > 1 && errs[j] != nil:
		return nil, errs[j]
	case res == nil:
		return nil, nil
	}
	return unsafe.Add(res, uintptr(j)*size), nil
}

// callBatchChecked runs the batch resolver of g for parents unless the
// request is over.
func (r *request) callBatchChecked(g *batchGroup, parents []unsafe.Pointer, ctx context.Context) (unsafe.Pointer, uintptr, []error) {
	if (r.done != nil || r.ender != nil) && r.ctx.Err() != nil {
		return nil, 0, []error{r.ctx.Err()}
	}
	return r.callBatch(g, parents, ctx)
}

// callBatch runs the batch resolver of g for parents, turning a panic
// into errPanic for every parent.
func (r *request) callBatch(g *batchGroup, parents []unsafe.Pointer, ctx context.Context) (res unsafe.Pointer, size uintptr, errs []error) {
	defer func() {
		if v := recover(); v != nil {
			stack := debug.Stack()
			r.e.logger.ErrorContext(ctx, "graphql: batch resolver panicked",
				"field", g.f.parent+"."+g.f.name, "parents", len(parents), "panic", v, "stack", string(stack))
			r.e.panicked(ctx, v, stack)
			res, errs = nil, []error{errPanic}
		}
	}()
	res, size, errs = g.def.Batch(ctx, parents, g.args)
	var ce *schema.BatchCountError
	if len(errs) == 1 && errors.As(errs[0], &ce) {
		// A bug of the resolver: logged once, and an internal error on
		// every parent, whatever the masking.
		r.e.logger.ErrorContext(ctx, "graphql: batch resolver broke its contract",
			"field", g.f.parent+"."+g.f.name, "error", ce.Error())
		return nil, size, []error{errPanic}
	}
	return res, size, errs
}

// children appends the objects of the value at p (described by out) that
// have fields to resolve ahead. When paths is not nil, it appends their
// paths to it, at being the path of p.
func (r *request) children(next []levelObj, f *fieldPlan, out *schema.Output, p unsafe.Pointer, paths *[]*pathNode, at *pathNode) []levelObj {
	if p == nil {
		return next
	}
	switch out.Kind {
	case schema.OutPtr:
		return r.children(next, f, out.Elem, *(*unsafe.Pointer)(p), paths, at)
	case schema.OutObject:
		if op := f.sub.forType(out.Type.Name); op != nil && op.work && r.st.aheadLeft > 0 {
			r.st.aheadLeft--
			next = append(next, levelObj{op: op, ptr: p})
			if paths != nil {
				*paths = append(*paths, at)
			}
		}
	case schema.OutAbstract:
		t, q, err := out.ResolveType(r.ctx, p)
		if err != nil || t == nil || q == nil {
			return next // the writer reports it
		}
		if op := f.sub.forType(t.Name); op != nil && op.work && r.st.aheadLeft > 0 {
			r.st.aheadLeft--
			next = append(next, levelObj{op: op, ptr: q})
			if paths != nil {
				*paths = append(*paths, at)
			}
		}
	case schema.OutList:
		base, n := p, out.Len
		if !out.Array {
			sh := (*sliceHeader)(p)
			base, n = sh.data, sh.len
		}
		if f.stream != nil && r.inc != nil && outerList(f, out) {
			if count := r.streamCount(f); count >= 0 {
				n = min(n, count) // the others are resolved with their payload
			}
		}
		if out.Elem.Kind != schema.OutList && out.Elem.Kind != schema.OutLeaf {
			next = slices.Grow(next, min(n, r.st.aheadLeft))
		}
		for i := range n {
			var item *pathNode
			if paths != nil {
				item = at.item(i)
			}
			next = r.children(next, f, out.Elem, unsafe.Add(base, uintptr(i)*out.ElemSize), paths, item)
		}
	}
	return next
}

// fieldCtx is the context a resolver receives: the request's context,
// carrying the resolver's task (for loaders) and the selection below the
// field (for look-ahead).
type fieldCtx struct {
	context.Context
	task    batchsched.Task
	tracked bool
	hasSel  bool
	view    selectionView
	// sink collects what a tracked resolver reports with AddError; the
	// writer attaches it to the field (prefetched.added). An untracked
	// resolver (fieldContext) reports to the request's sink, which the
	// writer reads once the resolver returns.
	sink errorSink
}

// Value returns the task, the selection, or the request context's value.
func (c *fieldCtx) Value(k any) any {
	switch k {
	case batchsched.Key:
		if c.tracked {
			return &c.task
		}
	case lookahead.Key:
		if c.hasSel {
			return &c.view
		}
		return nil
	case sinkKey{}:
		if c.tracked {
			return &c.sink
		}
	}
	return c.Context.Value(k)
}

// fieldContext returns the context for an untracked resolver of f: the
// request's context itself when f has no sub-selection.
func (r *request) fieldContext(f *fieldPlan) context.Context {
	if f.sub == nil {
		return r.ctx
	}
	return &fieldCtx{Context: r.ctx, hasSel: true, view: selectionView{e: r.e, vars: r.selectionVars(), sp: f.sub}}
}

// taskContext returns the context of a resolver of f run as a task of the
// request's scheduler, registered with it.
func (r *request) taskContext(f *fieldPlan) *fieldCtx {
	c := &r.st.newCtxs(1)[0]
	r.initTaskContext(c, f)
	return c
}

// initTaskContext fills c as taskContext does.
func (r *request) initTaskContext(c *fieldCtx, f *fieldPlan) {
	c.Context, c.tracked = r.ctx, true
	r.st.sched.Init(&c.task)
	if f.sub != nil {
		c.view, c.hasSel = selectionView{e: r.e, vars: r.selectionVars(), sp: f.sub}, true
	}
}
