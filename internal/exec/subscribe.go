package exec

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/gqlerr"
	schema "github.com/graftgql/graft/internal/schemadef"
)

// Stream is the source stream of one running subscription, started by
// Subscribe. Next waits for events; Execute turns each one into a
// response by executing the operation's selection set against it, as a
// query result is executed. A Stream is used by one goroutine.
type Stream struct {
	e      *Engine
	op     *Operation
	vars   map[string]any
	index  int // the subscribed field's index in the root plan
	field  *fieldPlan
	events schema.Events
	queue  *schema.Queue
	// share, when set, is the operation's answers by event, shared by
	// its subscribers (the selection reads the event and nothing else).
	share *eventShare
}

// Subscribe starts the source stream of the subscription operation o with
// coerced variables vars. ctx is the subscription resolver's context for
// the whole life of the stream: the caller cancels it to end the
// subscription, and must do so once it stops reading. When the stream
// cannot start (bad arguments, an error or panic in the resolver) the
// returned Stream is nil and the response to send instead,
// {"errors":[...]}, is appended to buf.
func (e *Engine) Subscribe(ctx context.Context, o *Operation, vars map[string]any, buf []byte) (*Stream, []byte) {
	return e.SubscribeReporting(ctx, o, vars, buf, nil)
}

// SubscribeReporting is Subscribe that also appends the errors that kept
// the stream from starting, as values, to *errs when errs is not nil.
func (e *Engine) SubscribeReporting(ctx context.Context, o *Operation, vars map[string]any, buf []byte, errs *[]*gqlerror.Error) (*Stream, []byte) {
	fail := func(ge *gqlerror.Error) (*Stream, []byte) {
		if errs != nil {
			*errs = append(*errs, ge)
		}
		return nil, gqlerr.AppendResponse(buf, gqlerror.List{ge}, nil)
	}
	if o.root == nil || o.def.Operation != ast.Subscription {
		return fail(withCode(gqlerror.Errorf("The operation is not a subscription."), gqlerr.OperationUnsupported))
	}
	index := -1
	for i, f := range o.root.object.fields {
		if f.kind == kindModel && f.def.Subscribe != nil && (f.conds == nil || included(f.conds, vars)) {
			index = i
			break
		}
	}
	if index < 0 {
		return fail(withCode(gqlerror.ErrorPosf(o.def.Position, "A subscription must select one subscription field."), gqlerr.ValidationFailed))
	}
	s := &Stream{e: e, op: o, vars: vars, index: index, field: o.root.object.fields[index]}
	r := requestPool.Get().(*request)
	defer r.release()
	r.e, r.ctx, r.vars, r.limit = e, ctx, vars, e.maxResponse
	r.watch(ctx)
	r.path = append(r.path, pathElem{key: s.field.key, index: -1})
	var src schema.Source
	var err error
	if d := e.docDirs; d != nil && d.Operation != nil && d.Applies(o.def.Directives) {
		src, err = s.startDirected(r, d) // docdirectives.go
	} else {
		src, err = s.start(r)
	}
	if err != nil {
		return fail(r.resolverError(s.field, err))
	}
	s.events, s.queue = src.Next, src.Queue
	s.share = o.eventShare(s.field)
	return s, buf
}

// start converts the field's arguments and calls its Subscriber, turning
// a panic into errPanic.
func (s *Stream) start(r *request) (src schema.Source, err error) {
	f := s.field
	defer func() {
		if v := recover(); v != nil {
			s.e.logger.Error("graphql: subscription resolver panicked",
				"field", f.parent+"."+f.name, "panic", v, "stack", string(debug.Stack()))
			src, err = schema.Source{}, errPanic
		}
	}()
	args := f.args
	if f.argsErr != nil {
		return schema.Source{}, argumentError{f.argsErr}
	}
	if f.dynArgs {
		vals, err := s.e.coerce.Arguments(f.ast.Definition.Arguments, f.ast.Arguments, r.vars)
		if err == nil {
			args, err = f.def.NewArgs(vals)
		}
		if err != nil {
			return schema.Source{}, argumentError{err}
		}
	}
	src, err = f.def.Subscribe(r.ctx, args)
	if err == nil && src.Next == nil {
		err = fmt.Errorf("subscription field %s.%s returned no event stream", f.parent, f.name)
	}
	return src, err
}

// EventsEncoded returns how many subscription events the engine has
// executed into an answer, of every subscriber: an event delivered to
// many subscribers of one selection counts once (see eventShare).
func (e *Engine) EventsEncoded() int64 { return e.eventsEncoded.Load() }

// Queue returns the queue of a push source (schema.SubscriptionSink),
// through which a transport is told of events instead of waiting for
// them with Next; nil for other sources.
func (s *Stream) Queue() *schema.Queue { return s.queue }

// Next blocks until the next event and returns it, or reports false once
// the stream has ended: the source closed or ctx is done.
func (s *Stream) Next(ctx context.Context) (unsafe.Pointer, bool) {
	return s.events(ctx)
}

// Execute executes the operation's selection set against event (a value
// returned by Next) and appends the response to buf:
// {"errors":[...],"data":...}, with field errors, non-null propagation,
// error masking and the response bound as for a query. ctx is handed to
// the resolvers below the subscribed field.
func (s *Stream) Execute(ctx context.Context, event unsafe.Pointer, buf []byte) []byte {
	return s.ExecuteReporting(ctx, event, buf, nil)
}

// ExecuteReporting is Execute that also appends the response's errors,
// as values, to *errs when errs is not nil (see Engine.RunReporting).
func (s *Stream) ExecuteReporting(ctx context.Context, event unsafe.Pointer, buf []byte, errs *[]*gqlerror.Error) []byte {
	sh := s.share
	if sh == nil || event == nil {
		out, _ := s.execute(ctx, event, buf, errs)
		return out
	}
	bits := unsafe.Slice((*byte)(event), sh.size)
	ans, leader := sh.claim(bits, s.vars)
	if ans != nil {
		return append(buf, ans...)
	}
	if leader {
		// Released however the execution ends, so that no subscriber
		// waits for an answer that will not come.
		defer func() { sh.release(bits, s.vars, event, ans) }()
	}
	start := len(buf)
	out, hasErrors := s.execute(ctx, event, buf, errs)
	if !hasErrors {
		ans = out[start:]
		if !leader {
			sh.store(event, bits, s.vars, ans)
		}
	}
	return out
}

// Shared appends to buf the answer to event that an earlier execution,
// for another subscriber of the same selection and variables, left (see
// eventShare), and reports true; it reports false when there is none,
// and the event must be executed.
func (s *Stream) Shared(event unsafe.Pointer, buf []byte) ([]byte, bool) {
	sh := s.share
	if sh == nil || event == nil {
		return buf, false
	}
	ans := sh.lookup(unsafe.Slice((*byte)(event), sh.size), s.vars)
	if ans == nil {
		return buf, false
	}
	return append(buf, ans...), true
}

// SharedFrame returns the bytes a transport writes for event (frame
// applied to the answer Shared would copy), built once per event,
// selection and key and shared by every subscriber of the same selection
// and variables; it reports false when there is no answer to share, and
// the event must be executed. key names the framing (a transport's wire
// format): frame must give the same bytes for the same key and answer.
// frame runs at most once per event and key, with the share locked; it
// must append to dst and keep nothing. The returned bytes are shared:
// the caller must not modify them.
func (s *Stream) SharedFrame(event unsafe.Pointer, key any, frame func(dst, answer []byte) []byte) ([]byte, bool) {
	f := s.Feed()
	return f.SharedFrame(event, key, frame)
}

// Feed is what the delivery of a push subscription's events reads: its
// queue and the answers its subscribers share, copied out of the Stream.
// A transport that delivers one event to thousands of subscribers keeps
// it beside the state it reads anyway, so that an event whose answer is
// shared reads nothing of the Stream (one cache miss less a subscriber).
type Feed struct {
	queue *schema.Queue
	share *eventShare
	vars  map[string]any
}

// Feed returns s's Feed.
func (s *Stream) Feed() Feed { return Feed{queue: s.queue, share: s.share, vars: s.vars} }

// Queue is Stream.Queue.
func (f *Feed) Queue() *schema.Queue { return f.queue }

// SharedFrame is Stream.SharedFrame.
func (f *Feed) SharedFrame(event unsafe.Pointer, key any, frame func(dst, answer []byte) []byte) ([]byte, bool) {
	sh := f.share
	if sh == nil || event == nil {
		return nil, false
	}
	return sh.frame(unsafe.Slice((*byte)(event), sh.size), f.vars, key, frame)
}

// execute executes the selection against event.
func (s *Stream) execute(ctx context.Context, event unsafe.Pointer, buf []byte, errs *[]*gqlerror.Error) ([]byte, bool) {
	s.e.eventsEncoded.Add(1)
	pre := make([]prefetched, len(s.op.root.object.fields))
	p, err := s.field.def.Resolve(ctx, event, nil)
	pre[s.index] = prefetched{ptr: p, err: err, set: true}
	out, hasErrors, _ := s.e.run(ctx, s.op, s.vars, pre, buf, nil, errs, s.e.maxResponse)
	return out, hasErrors
}

// Fan-out: one event delivered to many subscribers of the same operation
// is encoded once. When the selection below the subscribed field reads
// the event's own fields only (no resolver, middleware or abstract type:
// nothing that could differ from one subscriber to the next), the answer
// depends on the event and the variables alone; the operation keeps its
// last answers by event (the event's bytes: the copies a pubsub fan-out
// sends every subscriber are equal) and variables, and each further
// subscriber copies the answer. Answers with errors are not kept.

const (
	// eventShareSlots is how many events' answers an operation keeps.
	eventShareSlots = 4
	// eventShareMax bounds the answer kept per event.
	eventShareMax = 64 << 10
	// eventFrameKeys bounds the framings (SharedFrame) kept per event.
	eventFrameKeys = 4
)

// eventShare is an operation's answers by event.
type eventShare struct {
	size  uintptr // bytes of one event
	mu    sync.Mutex
	slots [eventShareSlots]eventAnswer
	next  int
	// flying are the events being executed, by bits and variables: a
	// subscriber of the same event waits for their answer (landed)
	// rather than executing it too.
	flying []eventFlight
	landed *sync.Cond // on mu, broadcast when a flight ends
	// encoded counts the answers encoded rather than copied (tests).
	encoded atomic.Int64
}

type eventFlight struct {
	bits []byte
	vars map[string]any
}

type eventAnswer struct {
	// event is the event answered, kept alive while its answer is: the
	// memory its bits point to (its strings, say) cannot be another
	// event's, so equal bits are the same event.
	event unsafe.Pointer
	bits  []byte
	vars  map[string]any
	ans   []byte
	// frames are the answer framed by transports (SharedFrame).
	frames []eventFrame
}

// eventFrame is an answer framed for one key.
type eventFrame struct {
	key any
	b   []byte
}

// find returns the slot kept for the event bits with vars, or nil; sh.mu
// is held.
func (sh *eventShare) find(bits []byte, vars map[string]any) *eventAnswer {
	for i := range sh.slots {
		a := &sh.slots[i]
		if a.ans != nil && bytes.Equal(a.bits, bits) && sameVars(a.vars, vars) {
			return a
		}
	}
	return nil
}

// claim returns the answer kept for the event bits with vars, waiting
// for it while another subscriber executes it. When there is none, the
// caller executes the event: as the leader, when no execution of it was
// in flight, it must then call release; otherwise (the one it waited for
// left no answer: errors, or too large to keep) it executes on its own,
// beside the others that waited, rather than one after the other.
func (sh *eventShare) claim(bits []byte, vars map[string]any) (ans []byte, leader bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	waited := false
	for {
		if a := sh.find(bits, vars); a != nil {
			return a.ans, false
		}
		if !sh.inFlight(bits, vars) {
			if waited {
				return nil, false
			}
			sh.flying = append(sh.flying, eventFlight{bits, vars})
			return nil, true
		}
		sh.landed.Wait()
		waited = true
	}
}

// inFlight reports whether the event bits with vars is being executed;
// sh.mu is held.
func (sh *eventShare) inFlight(bits []byte, vars map[string]any) bool {
	for _, f := range sh.flying {
		if bytes.Equal(f.bits, bits) && sameVars(f.vars, vars) {
			return true
		}
	}
	return false
}

// release ends the execution a leader's claim began: ans, the answer to
// event, is kept (store) unless nil (an answer with errors, which the
// subscribers waiting then execute themselves), and they are woken.
func (sh *eventShare) release(bits []byte, vars map[string]any, event unsafe.Pointer, ans []byte) {
	if ans != nil {
		sh.store(event, bits, vars, ans)
	}
	sh.mu.Lock()
	for i, f := range sh.flying {
		if bytes.Equal(f.bits, bits) && sameVars(f.vars, vars) {
			sh.flying = slices.Delete(sh.flying, i, i+1)
			break
		}
	}
	sh.mu.Unlock()
	sh.landed.Broadcast()
}

// lookup returns the answer kept for the event bits with vars, or nil.
func (sh *eventShare) lookup(bits []byte, vars map[string]any) []byte {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if a := sh.find(bits, vars); a != nil {
		return a.ans
	}
	return nil
}

// frame returns the answer kept for the event bits with vars framed for
// key, framing it first when no subscriber has (see Stream.SharedFrame).
func (sh *eventShare) frame(bits []byte, vars map[string]any, key any, frame func(dst, answer []byte) []byte) ([]byte, bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	a := sh.find(bits, vars)
	if a == nil {
		return nil, false
	}
	for i := range a.frames {
		if a.frames[i].key == key {
			return a.frames[i].b, true
		}
	}
	b := frame(nil, a.ans)
	if len(a.frames) < eventFrameKeys {
		a.frames = append(a.frames, eventFrame{key, b})
	}
	return b, true
}

// store keeps ans, the answer to event, whose bytes are bits, with vars.
func (sh *eventShare) store(event unsafe.Pointer, bits []byte, vars map[string]any, ans []byte) {
	sh.encoded.Add(1)
	if len(ans) > eventShareMax {
		return
	}
	a := eventAnswer{event: event, bits: bytes.Clone(bits), vars: vars, ans: bytes.Clone(ans)}
	sh.mu.Lock()
	sh.slots[sh.next] = a
	sh.next = (sh.next + 1) % eventShareSlots
	sh.mu.Unlock()
}

func sameVars(a, b map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// eventShare returns the operation's answers by event when the selection
// below the subscription field f reads the event alone, else nil.
func (o *Operation) eventShare(f *fieldPlan) *eventShare {
	if sh := o.events.Load(); sh != nil {
		return sh
	}
	if o.eventsImpure.Load() {
		return nil
	}
	size := f.def.ValueSize()
	if f.mw != nil || size == 0 || !pureSelection(f.sub, 0) {
		o.eventsImpure.Store(true)
		return nil
	}
	sh := &eventShare{size: size}
	sh.landed = sync.NewCond(&sh.mu)
	o.events.CompareAndSwap(nil, sh)
	return o.events.Load()
}

// pureSelection reports whether sp reads plain struct fields only (and
// __typename), down to its leaves.
func pureSelection(sp *selectionPlan, depth int) bool {
	if sp == nil {
		return true
	}
	if sp.object == nil || depth > 64 {
		return false // an abstract type resolves its concrete type with code
	}
	for _, f := range sp.object.fields {
		switch {
		case f.kind == kindTypename:
		case f.kind == kindModel && f.def != nil && f.def.Resolve == nil && f.def.Batch == nil && f.mw == nil:
			if !pureSelection(f.sub, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
