package exec

import (
	"context"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/graftgql/graft/internal/gqlerr"
	schema "github.com/graftgql/graft/internal/schemadef"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Incremental delivery: running @defer and @stream.
//
// RunIncremental writes the initial payload like Run, with every active
// deferred fragment left out (incremental_plan.go) and every streamed
// list cut after its initialCount items. Each object written with a plan
// listing deferred fragments registers the active ones as jobs, and each
// streamed list registers the rest of its items as one; a job registered
// inside a value that is then nulled (a non-null error above it) is
// dropped with it. The jobs run in their own goroutines (at most
// Options.MaxConcurrency at once), each writing its payload with its own
// request, which registers the jobs nested in it; Incremental.Next hands
// out the payloads as they complete, several at once when several are
// ready. The response byte budget and the request's context cover all of
// them.

// Format is a wire format of incremental delivery.
type Format uint8

// The wire formats.
const (
	// FormatCurrent is the format of graphql-js 17 and of Apollo's
	// incrementalSpec=v0.2: pending announcements with ids, incremental
	// entries by id, completed entries.
	FormatCurrent Format = iota + 1
	// Format2022 is the format of deferSpec=20220824: incremental entries
	// with their path and label, no ids.
	Format2022
)

// Incremental reports whether o has a @defer or @stream that may defer
// work; only such operations are worth running with RunIncremental.
func (o *Operation) Incremental() bool { return o.inc != nil }

// incJob is a deferred fragment or the rest of a streamed list to deliver.
type incJob struct {
	id   int // given when announced
	path []pathElem
	at   int // the registering request's buffer length when registered
	// A deferred fragment: its registration, the object and its type.
	reg      *deferReg
	typeName string
	obj      unsafe.Pointer
	// A stream: the field, the list's output and value, the next item.
	f     *fieldPlan
	list  *schema.Output
	value unsafe.Pointer
	next  int
	// start is when the job began to run (runJob), and errors counts the
	// errors of its payloads so far, for its Part.
	start  time.Time
	errors int
}

// label returns the job's label and whether it has one.
func (j *incJob) label() (string, bool) {
	if j.reg != nil {
		return j.reg.site.label, j.reg.site.hasLabel
	}
	return j.f.stream.label, j.f.stream.hasLabel
}

// incResult is one delivery of a job.
type incResult struct {
	job *incJob
	// data is the fragment's object, or the items "[...]" of a stream; nil
	// when a non-null error nulled it.
	data []byte
	errs []*gqlerror.Error
	// from is the index of the first item (streams).
	from int
	kids []*incJob
	last bool      // the job is complete
	end  time.Time // when, if last
}

// Incremental is a running operation with deferred or streamed work. Next
// gives its payloads after the initial one; Close cancels what is left.
// Next and Close are for one goroutine.
type Incremental struct {
	e      *Engine
	o      *Operation
	vars   map[string]any // the request's, with the deferred fragments' own
	user   map[string]any // the request's
	format Format
	ctx    context.Context
	cancel context.CancelFunc
	ext    []byte

	results chan incResult
	bytes   atomic.Int64 // bytes of every payload, for the response budget
	over    atomic.Bool  // the response budget is spent

	mu      sync.Mutex
	queue   []*incJob
	running int

	// Next's own state.
	nextID  int
	pending map[int]*incJob
	done    bool
	parts   []Part // of the last payload, when reporting
}

// Part is a deferred fragment or a stream that a payload completed: what
// tracing makes a span of. Start is when its work began, End when its
// last result was ready.
type Part struct {
	// Label is the directive's label ("" without one).
	Label string
	// Path is the response path of the fragment's object or of the
	// streamed list, as a JSON array.
	Path string
	// Stream is true for a @stream, false for a @defer.
	Stream     bool
	Start, End time.Time
	// Errors counts the errors of its payloads.
	Errors int
}

// RunIncremental runs o with incremental delivery in the given format
// and appends the initial payload to buf: {"errors":...,"data":...,
// "pending":[...],"hasNext":...,"extensions":...}. When work was deferred
// it returns an Incremental whose Next gives the later payloads; it
// returns nil when nothing was (then the payload has "hasNext":false).
// ctx bounds the whole delivery: once it ends, the work left is
// cancelled and the last payload reports it. When errs is not nil, the
// initial payload's errors are appended to it, as RunReporting does.
func (e *Engine) RunIncremental(ctx context.Context, o *Operation, vars map[string]any, format Format, buf, extensions []byte, errs *[]*gqlerror.Error) (out []byte, hasErrors bool, inc *Incremental) {
	if o.inc == nil || o.root == nil || o.def.Operation == ast.Subscription {
		out, hasErrors = e.RunReporting(ctx, o, vars, buf, nil, errs)
		out = append(out[:len(out)-1], `,"hasNext":false`...)
		return closeResponse(out, extensions), hasErrors, nil
	}
	ictx, cancel := context.WithCancel(ctx)
	inc = &Incremental{e: e, o: o, format: format, ctx: ictx, cancel: cancel, ext: extensions,
		results: make(chan incResult, 16), pending: map[int]*incJob{}}
	inc.user = vars
	inc.vars = make(map[string]any, len(vars)+len(o.inc.sites))
	for k, v := range vars {
		inc.vars[k] = v
	}
	for _, s := range o.inc.sites {
		on := true
		if s.ifVar != "" {
			on, _ = vars[s.ifVar].(bool)
		}
		inc.vars[s.active] = on
	}
	r := inc.newRequest()
	start := len(buf)
	r.buf = append(buf, `{"data":`...)
	dataStart := len(r.buf)
	var ok bool
	if d := e.docDirs; d != nil && d.Operation != nil && d.Applies(o.def.Directives) {
		// The operation's directives wrap the initial payload; the
		// deferred parts run after they return.
		ok = r.executeDirected(o) // docdirectives.go
	} else {
		ok = r.executeRoot(o, nil)
	}
	if !ok {
		r.buf = append(r.buf[:dataStart], "null"...)
		r.jobs = r.jobs[:0]
	}
	r.logSuppressed()
	hasErrors = len(r.errs) > 0
	if hasErrors {
		list := append(make([]byte, 0, 256), `"errors":`...)
		list = appendErrorList(list, r.errs)
		list = append(list, ',')
		r.buf = slices_insert(r.buf, start+1, list)
		if errs != nil {
			*errs = append(*errs, r.errs...)
		}
	}
	jobs := r.jobs
	r.jobs = nil
	out = r.buf
	r.release()
	inc.bytes.Add(int64(len(out) - start))
	if len(jobs) > 0 && format == FormatCurrent {
		out = append(out, `,"pending":`...)
		out = inc.announce(out, jobs)
	} else {
		inc.register(jobs)
	}
	if len(jobs) == 0 {
		cancel()
		out = append(out, `,"hasNext":false`...)
		return closeResponse(out, extensions), hasErrors, nil
	}
	out = append(out, `,"hasNext":true`...)
	out = closeResponse(out, extensions)
	inc.spawn(jobs)
	return out, hasErrors, inc
}

// slices_insert inserts ins into b at i.
func slices_insert(b []byte, i int, ins []byte) []byte {
	n := len(ins)
	b = append(b, ins...)
	copy(b[i+n:], b[i:len(b)-n])
	copy(b[i:], ins)
	return b
}

// register gives jobs their ids and counts them as pending.
func (inc *Incremental) register(jobs []*incJob) {
	for _, j := range jobs {
		j.id = inc.nextID
		inc.nextID++
		inc.pending[j.id] = j
	}
}

// announce registers jobs and appends their pending entries as a JSON
// array.
func (inc *Incremental) announce(buf []byte, jobs []*incJob) []byte {
	inc.register(jobs)
	buf = append(buf, '[')
	for i, j := range jobs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"id":"`...)
		buf = strconv.AppendInt(buf, int64(j.id), 10)
		buf = append(buf, `","path":`...)
		buf = appendPath(buf, j.path, -1)
		if l, ok := j.label(); ok {
			buf = append(buf, `,"label":`...)
			buf = appendString(buf, l)
		}
		buf = append(buf, '}')
	}
	return append(buf, ']')
}

// appendPath appends path as a JSON array, with index appended when it
// is not negative.
func appendPath(buf []byte, path []pathElem, index int) []byte {
	buf = append(buf, '[')
	for i, p := range path {
		if i > 0 {
			buf = append(buf, ',')
		}
		if p.index >= 0 {
			buf = strconv.AppendInt(buf, int64(p.index), 10)
		} else {
			buf = appendString(buf, p.key)
		}
	}
	if index >= 0 {
		if len(path) > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(index), 10)
	}
	return append(buf, ']')
}

// newRequest returns a pooled request of the delivery.
func (inc *Incremental) newRequest() *request {
	r := requestPool.Get().(*request)
	r.e, r.vars, r.limit = inc.e, inc.vars, inc.e.maxResponse
	r.watch(inc.ctx)
	c := r.newReqCtx(inc.ctx)
	r.ctx, r.sink = c, c
	r.inc = inc
	return r
}

// maxIncWorkers bounds the goroutines of one delivery when the engine's
// MaxConcurrency is larger.
const maxIncWorkers = 64

// spawn starts jobs, or queues them while the delivery runs as many as
// it may.
func (inc *Incremental) spawn(jobs []*incJob) {
	limit := min(inc.e.concurrency, maxIncWorkers)
	inc.mu.Lock()
	defer inc.mu.Unlock()
	for _, j := range jobs {
		if inc.running < limit {
			inc.running++
			go inc.work(j)
		} else {
			inc.queue = append(inc.queue, j)
		}
	}
}

// work runs j, then the queued jobs, until none is left.
func (inc *Incremental) work(j *incJob) {
	for j != nil {
		inc.runJob(j)
		inc.mu.Lock()
		if len(inc.queue) > 0 {
			j = inc.queue[0]
			inc.queue[0] = nil
			inc.queue = inc.queue[1:]
		} else {
			j = nil
			inc.running--
		}
		inc.mu.Unlock()
	}
}

// runJob runs j. A panic outside the writers' own recovery (which turn
// panics into field errors) fails the job alone, so Next never waits for
// it.
func (inc *Incremental) runJob(j *incJob) {
	j.start = time.Now()
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			inc.e.logger.ErrorContext(inc.ctx, "graphql: incremental delivery panicked", "panic", p, "stack", string(stack))
			inc.e.panicked(inc.ctx, p, stack)
			inc.deliver(incResult{job: j, last: true, errs: []*gqlerror.Error{internalError(nil)}})
		}
	}()
	if j.reg != nil {
		inc.runDefer(j)
	} else {
		inc.runStream(j)
	}
}

// deliver hands res to Next and starts the jobs nested in it; it reports
// false once the delivery is cancelled.
func (inc *Incremental) deliver(res incResult) bool {
	if res.last {
		res.end = time.Now()
	}
	select {
	case inc.results <- res:
	case <-inc.ctx.Done():
		return false
	}
	if len(res.kids) > 0 {
		inc.spawn(res.kids)
	}
	return true
}

// guard runs write with r, turning a panic outside resolvers into an
// internal error as executeRoot does.
func (r *request) guard(write func() bool) (ok bool) {
	mark, depth := len(r.buf), len(r.path)
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			r.e.logger.ErrorContext(r.ctx, "graphql: execution panicked", "panic", p, "stack", string(stack))
			r.e.panicked(r.ctx, p, stack)
			r.buf = r.buf[:mark]
			r.path = r.path[:depth]
			r.addError(internalError(r.currentPath()))
			ok = false
		}
	}()
	return write()
}

// finish turns what r wrote into res, checking the response budget, and
// releases r.
func (inc *Incremental) finish(r *request, res *incResult, ok bool) {
	r.logSuppressed()
	if ok {
		res.data = r.buf
		res.kids = r.jobs
		if inc.bytes.Add(int64(len(r.buf))) > int64(inc.e.maxResponse) {
			res.data, res.kids = nil, nil
			inc.over.Store(true)
			r.addError(&gqlerror.Error{
				Message:    "The response is larger than the limit of " + strconv.Itoa(inc.e.maxResponse) + " bytes: select fewer fields or smaller lists.",
				Path:       r.currentPath(),
				Extensions: map[string]any{"code": gqlerr.ResponseTooLarge},
			})
		}
	}
	if len(r.errs) > 0 {
		res.errs = append([]*gqlerror.Error(nil), r.errs...)
	}
	r.jobs = nil
	r.buf = nil
	r.release()
}

// runDefer writes the deferred fragment j and delivers it.
func (inc *Incremental) runDefer(j *incJob) {
	r := inc.newRequest()
	r.path = append(r.path[:0], j.path...)
	r.buf = make([]byte, 0, 256)
	plan := j.reg.plan
	ok := !inc.over.Load() && r.guard(func() bool {
		if inc.o.batched && plan.work {
			r.resolveAheadFrom([]levelObj{{op: plan, ptr: j.obj}}, nil, false)
		}
		return r.writeObject(plan, j.typeName, j.obj, true)
	})
	res := incResult{job: j, last: true}
	inc.finish(r, &res, ok)
	inc.deliver(res)
}

// runStream delivers the items of the streamed list j after the first
// ones: those of a slice in one payload, those of a channel one by one
// as they arrive.
func (inc *Incremental) runStream(j *incJob) {
	list := j.list
	if list.Kind != schema.OutSource {
		base, n := j.value, list.Len
		if !list.Array {
			sh := (*sliceHeader)(j.value)
			base, n = sh.data, sh.len
		}
		items := make([]unsafe.Pointer, 0, n-j.next)
		for i := j.next; i < n; i++ {
			items = append(items, unsafe.Add(base, uintptr(i)*list.ElemSize))
		}
		if len(items) == 0 {
			inc.deliver(incResult{job: j, last: true})
			return
		}
		res := inc.writeItems(j, items)
		res.last = true
		inc.deliver(res)
		return
	}
	for {
		if inc.over.Load() {
			inc.deliver(incResult{job: j, last: true, errs: []*gqlerror.Error{{
				Message:    "The response is larger than the limit of " + strconv.Itoa(inc.e.maxResponse) + " bytes: select fewer fields or smaller lists.",
				Extensions: map[string]any{"code": gqlerr.ResponseTooLarge},
			}}})
			return
		}
		item, ok, err := list.Recv(inc.ctx, j.value)
		if err != nil {
			r := inc.newRequest()
			r.path = append(r.path[:0], j.path...)
			r.addError(r.resolverError(j.f, err))
			res := incResult{job: j, last: true}
			inc.finish(r, &res, false)
			inc.deliver(res)
			return
		}
		if !ok {
			inc.deliver(incResult{job: j, last: true})
			return
		}
		res := inc.writeItems(j, []unsafe.Pointer{item})
		if res.data == nil {
			res.last = true
		}
		if !inc.deliver(res) || res.last {
			return
		}
	}
}

// writeItems writes the items of the stream j at the pointers items,
// from index j.next, and advances j.next. A non-null error in an item
// nulls the items and ends the stream (res.data nil).
func (inc *Incremental) writeItems(j *incJob, items []unsafe.Pointer) incResult {
	r := inc.newRequest()
	r.path = append(r.path[:0], j.path...)
	r.buf = make([]byte, 0, 256)
	from := j.next
	j.next += len(items)
	elem := j.list.Elem
	ok := !inc.over.Load() && r.guard(func() bool {
		if inc.o.batched {
			var objs []levelObj
			if r.st == nil {
				r.st = &aheadState{}
			}
			r.st.aheadLeft = r.e.maxResponse / 2
			var paths *[]*pathNode
			var at *pathNode
			if r.e.mwFor != nil {
				paths, at = new([]*pathNode), r.nodeOf()
			}
			for i, p := range items {
				var item *pathNode
				if at != nil {
					item = at.item(from + i)
				}
				objs = r.children(objs, j.f, elem, p, paths, item)
			}
			if len(objs) > 0 {
				var ps []*pathNode
				if paths != nil {
					ps = *paths
				}
				r.resolveAheadFrom(objs, ps, false)
			}
		}
		r.buf = append(r.buf, '[')
		for i, p := range items {
			if i > 0 {
				r.buf = append(r.buf, ',')
			}
			r.path = append(r.path, pathElem{index: from + i})
			ok := r.writeValue(j.f, elem, p)
			r.path = r.path[:len(r.path)-1]
			if !ok {
				return false
			}
		}
		r.buf = append(r.buf, ']')
		return true
	})
	res := incResult{job: j, from: from}
	inc.finish(r, &res, ok)
	return res
}

// startDefers registers the active deferred fragments of op for the
// object just written.
func (r *request) startDefers(op *objectPlan, typeName string, obj unsafe.Pointer) {
	for _, reg := range op.defers {
		if !r.deferActive(reg) {
			continue
		}
		r.jobs = append(r.jobs, &incJob{reg: reg, typeName: typeName, obj: obj, path: r.pathCopy(), at: len(r.buf)})
	}
}

// deferActive reports whether reg starts now: it is active and no
// fragment around it in the same plan is.
func (r *request) deferActive(reg *deferReg) bool {
	if on, _ := r.vars[reg.site.active].(bool); !on {
		return false
	}
	for _, o := range reg.outer {
		if on, _ := r.vars[o.active].(bool); on {
			return false
		}
	}
	return len(reg.site.conds) == 0 || included([][]condition{reg.site.conds}, r.vars)
}

// selectionVars are the variables a resolver's look-ahead
// (schema.SelectionFrom) reads: the request's own, so that the fields of
// deferred fragments are part of the selection a resolver sees although
// they are written later.
func (r *request) selectionVars() map[string]any {
	if r.inc != nil {
		return r.inc.user
	}
	return r.vars
}

// pathCopy copies the current path.
func (r *request) pathCopy() []pathElem {
	return append([]pathElem(nil), r.path...)
}

// dropJobs forgets the jobs registered from the buffer position start on:
// what they belong to was replaced by null.
func (r *request) dropJobs(start int) {
	n := len(r.jobs)
	for n > 0 && r.jobs[n-1].at >= start {
		n--
	}
	clear(r.jobs[n:])
	r.jobs = r.jobs[:n]
}

// streamCount returns the initialCount of the stream of f when it is
// active in this request, or -1.
func (r *request) streamCount(f *fieldPlan) int {
	st := f.stream
	if st.ifVar != "" {
		if on, _ := r.vars[st.ifVar].(bool); !on {
			return -1
		}
	}
	if st.countVar != "" {
		switch v := r.vars[st.countVar].(type) {
		case int64:
			return max(int(v), 0)
		case int:
			return max(v, 0)
		}
		return 0
	}
	return max(st.count, 0)
}

// outerList reports whether out is the list of the field f itself, not a
// list nested in it: the one @stream applies to.
func outerList(f *fieldPlan, out *schema.Output) bool {
	top := f.def.Out
	if top.Kind == schema.OutPtr {
		top = top.Elem
	}
	return out == top
}

// writeStreamed writes the first items of the streamed list at p (a
// slice or array) and registers the others.
func (r *request) writeStreamed(f *fieldPlan, out *schema.Output, p unsafe.Pointer, count int) bool {
	base, n := p, out.Len
	if !out.Array {
		sh := (*sliceHeader)(p)
		if sh.data == nil && !out.NonNull {
			r.buf = append(r.buf, "null"...)
			return true
		}
		base, n = sh.data, sh.len
	}
	first := min(count, n)
	r.buf = append(r.buf, '[')
	if !r.writeItems(f, out, base, 0, first) {
		return false
	}
	if n > first {
		r.jobs = append(r.jobs, &incJob{f: f, list: out, value: p, next: first, path: r.pathCopy(), at: len(r.buf)})
	}
	return true
}

// writeSource writes the list of the channel at p: every item, or, when
// the field is streamed, the first count and registers the others.
func (r *request) writeSource(f *fieldPlan, out *schema.Output, p unsafe.Pointer) bool {
	count := -1
	if f.stream != nil && r.inc != nil && outerList(f, out) {
		count = r.streamCount(f)
	}
	r.buf = append(r.buf, '[')
	for i := 0; count < 0 || i < count; i++ {
		item, ok, err := out.Recv(r.ctx, p)
		if err != nil {
			r.addError(r.resolverError(f, err))
			return false
		}
		if !ok {
			r.buf = append(r.buf, ']')
			return true
		}
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.path = append(r.path, pathElem{index: i})
		ok = r.writeValue(f, out.Elem, item)
		r.path = r.path[:len(r.path)-1]
		if !ok {
			return false
		}
	}
	r.buf = append(r.buf, ']')
	r.jobs = append(r.jobs, &incJob{f: f, list: out, value: p, next: count, path: r.pathCopy(), at: len(r.buf)})
	return true
}

// Next waits for the next payload and appends it to buf. more is false
// once it is the last one (then Next must not be called again). When the
// delivery's context ends first, the last payload reports every pending
// fragment and stream as failed. When errs is not nil, the payload's
// errors are appended to it.
func (inc *Incremental) Next(buf []byte, errs *[]*gqlerror.Error) (out []byte, more bool) {
	if inc.done {
		return buf, false
	}
	batch := make([]incResult, 0, 4)
	select {
	case res := <-inc.results:
		batch = append(batch, res)
	case <-inc.ctx.Done():
		return inc.abort(buf, errs), false
	}
drain:
	for len(batch) < 64 {
		select {
		case res := <-inc.results:
			batch = append(batch, res)
		default:
			break drain
		}
	}
	buf = inc.appendPayload(buf, batch, errs)
	if len(inc.pending) == 0 {
		inc.done = true
		inc.cancel()
	}
	return buf, !inc.done
}

// appendCurrent appends the payload of batch in the current format.
func (inc *Incremental) appendCurrent(buf []byte, batch []incResult) []byte {
	var kids []*incJob
	for _, res := range batch {
		kids = append(kids, res.kids...)
	}
	buf = append(buf, '{')
	sep := false
	if len(kids) > 0 {
		buf = append(buf, `"pending":`...)
		buf = inc.announce(buf, kids)
		sep = true
	}
	first := true
	for _, res := range batch {
		if res.data == nil {
			continue
		}
		if first {
			if sep {
				buf = append(buf, ',')
			}
			buf = append(buf, `"incremental":[`...)
			first = false
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, '{')
		if res.errs != nil {
			buf = append(buf, `"errors":`...)
			buf = appendErrorList(buf, res.errs)
			buf = append(buf, ',')
		}
		if res.job.reg != nil {
			buf = append(buf, `"data":`...)
		} else {
			buf = append(buf, `"items":`...)
		}
		buf = append(buf, res.data...)
		buf = append(buf, `,"id":"`...)
		buf = strconv.AppendInt(buf, int64(res.job.id), 10)
		buf = append(buf, `"}`...)
	}
	if !first {
		buf = append(buf, ']')
		sep = true
	}
	first = true
	for _, res := range batch {
		if !res.last && res.data != nil {
			continue
		}
		if first {
			if sep {
				buf = append(buf, ',')
			}
			buf = append(buf, `"completed":[`...)
			first = false
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"id":"`...)
		buf = strconv.AppendInt(buf, int64(res.job.id), 10)
		buf = append(buf, '"')
		if res.data == nil && res.errs != nil {
			buf = append(buf, `,"errors":`...)
			buf = appendErrorList(buf, res.errs)
		}
		buf = append(buf, '}')
		delete(inc.pending, res.job.id)
	}
	if !first {
		buf = append(buf, ']')
		sep = true
	}
	if sep {
		buf = append(buf, ',')
	}
	buf = append(buf, `"hasNext":`...)
	buf = strconv.AppendBool(buf, len(inc.pending) > 0)
	return append(buf, '}')
}

// append2022 appends the payload of batch in the 2022 format. A
// completed stream with nothing more to say adds no entry.
func (inc *Incremental) append2022(buf []byte, batch []incResult) []byte {
	buf = append(buf, '{')
	first := true
	for _, res := range batch {
		inc.register(res.kids)
		if res.last {
			delete(inc.pending, res.job.id)
		}
		stream := res.job.reg == nil
		if stream && res.data == nil && res.errs == nil {
			continue // the end of a stream
		}
		if first {
			buf = append(buf, `"incremental":[`...)
			first = false
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, '{')
		if res.errs != nil {
			buf = append(buf, `"errors":`...)
			buf = appendErrorList(buf, res.errs)
			buf = append(buf, ',')
		}
		switch {
		case !stream:
			buf = append(buf, `"data":`...)
		default:
			buf = append(buf, `"items":`...)
		}
		if res.data == nil {
			buf = append(buf, "null"...)
		} else {
			buf = append(buf, res.data...)
		}
		buf = append(buf, `,"path":`...)
		if stream {
			buf = appendPath(buf, res.job.path, res.from)
		} else {
			buf = appendPath(buf, res.job.path, -1)
		}
		if l, ok := res.job.label(); ok {
			buf = append(buf, `,"label":`...)
			buf = appendString(buf, l)
		}
		buf = append(buf, '}')
	}
	if !first {
		buf = append(buf, "],"...)
	}
	buf = append(buf, `"hasNext":`...)
	buf = strconv.AppendBool(buf, len(inc.pending) > 0)
	return append(buf, '}')
}

// abort appends the last payload once the delivery's context ended:
// every pending fragment and stream fails with the context's error.
func (inc *Incremental) abort(buf []byte, errs *[]*gqlerror.Error) []byte {
	inc.done = true
	code, msg := gqlerr.RequestTimeout, "Request timed out."
	if inc.ctx.Err() != context.DeadlineExceeded {
		code, msg = gqlerr.RequestTimeout, "The request was cancelled before it completed."
	}
	batch := make([]incResult, 0, len(inc.pending))
	for id := 0; id < inc.nextID; id++ {
		j := inc.pending[id]
		if j == nil {
			continue
		}
		path := make(ast.Path, 0, len(j.path))
		for _, p := range j.path {
			if p.index >= 0 {
				path = append(path, ast.PathIndex(p.index))
			} else {
				path = append(path, ast.PathName(p.key))
			}
		}
		ge := &gqlerror.Error{Message: msg, Path: path, Extensions: map[string]any{"code": code}}
		batch = append(batch, incResult{job: j, last: true, from: -1, errs: []*gqlerror.Error{ge}})
	}
	buf = inc.appendPayload(buf, batch, errs)
	inc.cancel()
	return buf
}

// appendPayload appends the payload of batch in the delivery's format and
// its errors to *errs when errs is not nil.
func (inc *Incremental) appendPayload(buf []byte, batch []incResult, errs *[]*gqlerror.Error) []byte {
	if errs != nil {
		inc.parts = inc.parts[:0]
		for _, res := range batch {
			*errs = append(*errs, res.errs...)
			j := res.job
			j.errors += len(res.errs)
			if res.last {
				label, _ := j.label()
				inc.parts = append(inc.parts, Part{Label: label, Path: string(appendPath(nil, j.path, -1)),
					Stream: j.reg == nil, Start: j.start, End: res.end, Errors: j.errors})
			}
		}
	}
	if inc.format == FormatCurrent {
		return inc.appendCurrent(buf, batch)
	}
	return inc.append2022(buf, batch)
}

// Parts reports the deferred fragments and streams that the payload of
// the last call of Next completed, when that call collected its errors
// (errs not nil); the slice is reused by the next call.
func (inc *Incremental) Parts() []Part { return inc.parts }

// Close cancels the work left (resolver contexts end). It does not wait
// for resolvers that ignore their context.
func (inc *Incremental) Close() {
	inc.done = true
	inc.cancel()
}
