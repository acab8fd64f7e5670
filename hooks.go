package graft

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/pqstate"
)

// Phase names a step of serving a request, in the order they happen.
type Phase int

// The phases of a request. Every transport (net/http, fasthttp, Lambda,
// Execute, WebSocket, SSE, multipart) runs them through the one pipeline.
const (
	// PhaseReceived: the request is decoded and about to run.
	PhaseReceived Phase = iota
	// PhaseParsed: the document is parsed and validated (or taken from
	// the document cache).
	PhaseParsed
	// PhaseValidated: the operation is selected and its variables are
	// coerced.
	PhaseValidated
	// PhaseAnalyzed: the limits analysis is checked.
	PhaseAnalyzed
	// PhaseExecuted: the operation ran (or, for a subscription, started).
	PhaseExecuted
	// PhasePayload: one payload of a streamed answer, once per payload:
	// each event of a subscription, on every streaming transport. Before
	// runs before the payload is executed (the context it returns is the
	// payload's resolvers', and is dropped afterwards); After sees the
	// payload's errors. A refusal in Before replaces that payload with
	// the error; the stream goes on.
	PhasePayload
	// PhaseAnswered: the response is complete (for a subscription, its
	// stream has ended). Its After sees the status and the errors of the
	// answer. Every answer passes it, requests refused before they were
	// decoded included (see Hook).
	PhaseAnswered
)

var phaseNames = [...]string{"received", "parsed", "validated", "analyzed", "executed", "payload", "answered"}

// String returns the phase's lower-case name ("received", "parsed", ...).
func (p Phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// HookEvent is what a Hook sees before and after each phase.
type HookEvent struct {
	Phase Phase
	// Request is the request's information (headers, request ID, method,
	// client address, and once known the operation name and variables).
	Request *RequestInfo
	// OperationType is "query", "mutation" or "subscription", and
	// OperationName the operation's name ("" when anonymous), once the
	// operation is selected; "" before.
	OperationType string
	OperationName string
	// Operation is the selected operation, its fields bound to their
	// definitions in the schema, from the After of PhaseValidated on; nil
	// before and for a request refused before it was selected. Hooks read
	// it and must not change it: it may be shared by other requests.
	Operation *ast.OperationDefinition
	// Start is when the request entered the pipeline; Duration is, in
	// After, how long the phase took (0 in Before).
	Start    time.Time
	Duration time.Duration
	// ErrorCount is, in the After of PhasePayload and PhaseAnswered, the
	// number of errors of the payload or of the whole answer (for a
	// subscription, every event's included).
	ErrorCount int
	// Errors are those errors as values, with their extensions (the
	// first 100 of a subscription's answer), and ErrorCodes their
	// extensions.code ("" for an error without one).
	Errors     []*gqlerror.Error
	ErrorCodes []string
	// Status is the HTTP status of the answer, in PhaseAnswered.
	Status int
	// Payload numbers the payloads of a streamed answer, from 1, in
	// PhasePayload; 0 otherwise.
	Payload int
	// Parts are, in the After of PhasePayload of an incremental
	// response (@defer, @stream), the deferred fragments and streams that
	// the payload completed; tracing makes a span of each. Nil otherwise.
	Parts []IncrementalPart
	// Received reports, in PhaseAnswered, whether this hook's Before of
	// PhaseReceived ran for the request: false for a request refused
	// before it was decoded (bad JSON, CSRF, Auth, 404, 413, ...) or by
	// an earlier hook at PhaseReceived. A hook that counts requests in
	// flight from PhaseReceived counts down only when it is true.
	Received bool
	// PersistedQuery is "hit" when the query came from the persisted
	// query store, "miss" when the request named a hash the store did not
	// have (or registered it now), "" otherwise; set from PhaseParsed on.
	PersistedQuery string
	// DocumentCached reports, from the After of PhaseParsed on, whether
	// the document came from the document cache.
	DocumentCached bool

	// query is the request's query text, from PhaseParsed until the
	// request is answered, and hash its DocumentHash once computed.
	query, hash string
	// streamed: the answer was delivered in payloads (PhasePayload ran),
	// so its headers were written before PhaseAnswered.
	streamed bool
	// run is the hooks' run the event belongs to (for SkipPhases), nil
	// for an event built elsewhere.
	run *phaseRun
}

// SkipPhases, called by a hook from its Before or After, tells the
// request's run to call that hook for no later phase of the request but
// PhaseAnswered (whose Before and After it still gets), as if its
// Phases named only PhaseAnswered from the next phase on. A tracing hook
// whose sampler left the request out calls it, so that an unsampled
// request costs the phases nothing. It does nothing on an event the
// router did not make, nor for a hook past the router's 64th, which is
// called for every phase it observes.
func (ev *HookEvent) SkipPhases() {
	if p := ev.run; p != nil && p.calling >= 0 && p.calling < 64 {
		p.skipNext |= 1 << p.calling
	}
}

// SkipRequest, called by a hook from its Before or After, tells the
// request's run to call that hook no more for the request: for no later
// phase, PhaseAnswered included, and, called from a Before, not for that
// phase's After either. A tracing hook whose sampler left the request out
// and that has nothing to measure at its end calls it, so that the
// request costs it one call. It does nothing on an event the router did
// not make, nor for a hook past the router's 64th, which is called for
// every phase it observes.
func (ev *HookEvent) SkipRequest() {
	if p := ev.run; p != nil && p.calling >= 0 && p.calling < 64 {
		p.done |= 1 << p.calling
	}
}

// DocumentHash returns the SHA-256 of the request's query text in
// lowercase hex, the name automatic persisted queries give the document,
// from the After of PhaseParsed on ("" before, and once the request is
// answered). It is computed on the first call.
func (ev *HookEvent) DocumentHash() string {
	if ev.hash == "" && ev.query != "" {
		sum := sha256.Sum256([]byte(ev.query))
		ev.hash = hex.EncodeToString(sum[:])
	}
	return ev.hash
}

// Hook observes the phases of every request, on every transport. Before
// runs before a phase and After after it, in pairs, both on the request's
// goroutine. Before may return a derived context (nil keeps the one it
// got): the next hooks, the later phases and, from PhaseExecuted, the
// resolvers run with it — so a hook can start a trace span. After gets
// the latest context.
//
// Every answer ends with PhaseAnswered, which every hook sees (but one
// that called HookEvent.SkipRequest for the request): a request
// refused before it is decoded (bad JSON, CSRF prevention, Config.Auth,
// an unknown path, 406, 413, 414, 415, a 503 of the server's bounds)
// passes PhaseAnswered alone, with HookEvent.Received false.
//
// Before may refuse the request by returning a *graft.Refusal (any 4xx or
// 5xx status, with headers such as Retry-After) or a *graft.Error (status
// 401 for CodeUnauthenticated, 403 for CodeForbidden, 400 otherwise): the
// client gets it as a GraphQL error with its code, beside the headers
// already set (X-Request-ID, CORS). The hooks before it in the list get
// the After of that phase; the refusing hook is not called again for the
// request, so it ends what it started before returning the refusal. Any
// other error, and a panic in either method, is logged and the request
// goes on.
//
// A hook adds to the response's top-level extensions with SetExtension.
type Hook interface {
	Before(ctx context.Context, ev *HookEvent) (context.Context, error)
	After(ctx context.Context, ev *HookEvent)
}

// HookPhases is implemented by a Hook that observes only some phases:
// the router asks once, when it is built, and calls the hook's Before
// and After for those phases alone, and for PhaseAnswered, which every
// hook sees. A phase no hook observes is not timed, so hooks that
// observe only PhaseReceived and PhaseAnswered (the access log, metrics)
// cost a request two calls and no clock reading per phase. A hook
// without the method observes every phase.
type HookPhases interface {
	Phases() []Phase
}

// phaseMask is a set of phases, one bit per Phase.
type phaseMask uint16

const allPhases phaseMask = 1<<(PhaseAnswered+1) - 1

func (m phaseMask) has(p Phase) bool { return m&(1<<p) != 0 }

// hookMasks returns the phases each of hooks observes.
func hookMasks(hooks []Hook) []phaseMask {
	masks := make([]phaseMask, len(hooks))
	for i, h := range hooks {
		m := allPhases
		if hp, ok := h.(HookPhases); ok {
			m = 1 << PhaseAnswered
			for _, p := range hp.Phases() {
				if p >= 0 && p <= PhaseAnswered {
					m |= 1 << p
				}
			}
		}
		masks[i] = m
	}
	return masks
}

// phaseHooks returns, for each phase, the hooks observing it among the
// first 64 (a bit per hook index).
func phaseHooks(masks []phaseMask) (by [PhaseAnswered + 1]uint64) {
	for i, m := range masks[:min(len(masks), 64)] {
		for p := range by {
			if m.has(Phase(p)) {
				by[p] |= 1 << i
			}
		}
	}
	return by
}

// HookFuncs adapts functions to a Hook; nil fields do nothing.
type HookFuncs struct {
	BeforeFunc func(ctx context.Context, ev *HookEvent) error
	AfterFunc  func(ctx context.Context, ev *HookEvent)
}

// Before calls BeforeFunc; it keeps the context.
func (h HookFuncs) Before(ctx context.Context, ev *HookEvent) (context.Context, error) {
	if h.BeforeFunc == nil {
		return nil, nil
	}
	return nil, h.BeforeFunc(ctx, ev)
}

// After calls AfterFunc.
func (h HookFuncs) After(ctx context.Context, ev *HookEvent) {
	if h.AfterFunc != nil {
		h.AfterFunc(ctx, ev)
	}
}

// SetExtension sets key in the top-level extensions of the response of
// the request ctx belongs to; value is marshalled as JSON when the
// response is written. It reports false when ctx is not a graft request's.
// Hooks and resolvers may call it; it is safe for concurrent use.
func SetExtension(ctx context.Context, key string, value any) bool {
	st := stateFrom(ctx)
	if st == nil {
		return false
	}
	st.mu.Lock()
	if st.ext == nil {
		st.ext = make(map[string]any, 2)
	}
	st.ext[key] = value
	st.mu.Unlock()
	return true
}

// phaseRun tracks the phases of one request for the hooks.
type phaseRun struct {
	r   *Router         // its hooks and hookMasks are the run's
	ctx context.Context // the latest context hooks returned
	st  *requestState
	ev  HookEvent
	// started is when the current phase began, as time since
	// ev.Start: the phases are timed on the monotonic clock alone
	// (time.Since), half the cost of time.Now.
	started time.Duration
	phase   Phase
	open    bool // Before of phase ran and After is due
	// received is set once the Before of PhaseReceived ran; refuser is
	// the index of the hook that refused the request (-1 for none), at
	// phase refusedAt.
	received  bool
	refuser   int
	refusedAt Phase
	// stream holds the errors of a streamed answer's payloads, nil
	// until one has some (most answers are not streamed).
	stream *streamErrors
	// skip holds the hooks (by index, the first 64) that asked with
	// SkipPhases to see no more phases but PhaseAnswered, skipNext those
	// that asked during the current phase (skipped from the next one);
	// calling is the index of the hook being called, -1 between calls.
	skip     uint64
	skipNext uint64
	calling  int
	// done holds the hooks (by index, the first 64) that asked with
	// SkipRequest to be called no more for the request.
	done uint64
}

// wants reports whether hook i observes phase.
func (p *phaseRun) wants(i int, phase Phase) bool {
	if masks := p.r.hookMasks; i == p.refuser || i < len(masks) && !masks[i].has(phase) {
		return false
	}
	if i >= 64 {
		return true
	}
	return p.done&(1<<i) == 0 && (phase == PhaseAnswered || p.skip&(1<<i) == 0)
}

// observed reports whether some hook observes phase: a phase none
// observes is neither called nor timed. With 64 hooks or fewer it is
// wants of every hook at once, on their bits.
func (p *phaseRun) observed(phase Phase) bool {
	if len(p.r.hooks) > 64 {
		for i := range p.r.hooks {
			if p.wants(i, phase) {
				return true
			}
		}
		return false
	}
	m := p.r.phaseHooks[phase] &^ p.done
	if phase != PhaseAnswered {
		m &^= p.skip
	}
	if p.refuser >= 0 {
		m &^= 1 << p.refuser
	}
	return m != 0
}

// maxHookErrors bounds the errors a streamed answer's PhaseAnswered
// carries as values: a long subscription may report many.
const maxHookErrors = 100

// hooksEnabled reports whether requests track phases at all.
func (r *Router) hooksEnabled() bool { return len(r.hooks) > 0 }

// beginPhases starts the tracking of a request's phases, or returns nil
// when nothing observes them (the fast path). st is fresh (see enter), so
// the run it holds is zero, and only the fields that do not start at zero
// are set: assigning the whole run, a struct of many pointers, costs a
// write barrier on each of them while the garbage collector marks.
func (r *Router) beginPhases(ctx context.Context, st *requestState) *phaseRun {
	if !r.hooksEnabled() {
		return nil
	}
	var p *phaseRun
	if h := st.hookedState(); h != nil {
		p = &h.ph
	} else {
		p = new(phaseRun)
	}
	p.r, p.st, p.ctx = r, st, ctx
	p.refuser, p.calling = -1, -1
	p.ev.Request, p.ev.Start, p.ev.run = &st.info, time.Now(), p
	return p
}

// rebase makes ctx (the request's, with Auth's values) the context the
// hooks start from.
func (p *phaseRun) rebase(ctx context.Context) {
	if p != nil {
		p.ctx = ctx
	}
}

// before ends the open phase, if any, and runs the Before of phase. A
// refusal becomes the answer's error.
func (p *phaseRun) before(_ context.Context, phase Phase) *httpapi.Error {
	if p == nil {
		return nil
	}
	if phase == PhaseReceived {
		p.received = true
	}
	// One clock read ends the open phase and starts this one.
	now, read := time.Duration(0), false
	if p.open {
		now, read = p.end()
	}
	p.skip |= p.skipNext // SkipPhases asked during the phase just ended
	p.skipNext = 0
	if !p.observed(phase) {
		// No hook observes it: it is neither called nor timed.
		p.phase, p.ev.Phase = phase, phase
		return nil
	}
	if !read {
		now = p.clock()
	}
	p.phase, p.open, p.started = phase, true, now
	p.ev.Phase, p.ev.Duration = phase, 0
	for i, h := range p.r.hooks {
		if !p.wants(i, phase) {
			continue
		}
		if e := p.callBefore(i, h); e != nil {
			// The hooks before the refusing one end the phase; the
			// refusing one is not called again.
			p.ev.Duration = p.clock() - p.started
			for j := range i {
				if p.wants(j, phase) {
					p.callAfter(p.ctx, j, p.r.hooks[j])
				}
			}
			p.open, p.refuser, p.refusedAt = false, i, phase
			return e
		}
	}
	return nil
}

// context is the request's context as the hooks derived it.
func (p *phaseRun) context(ctx context.Context) context.Context {
	if p == nil {
		return ctx
	}
	return p.ctx
}

// notePersisted records the persisted-query outcome for the hooks.
func (p *phaseRun) notePersisted(res *pqstate.Resolution, err error) {
	if p == nil {
		return
	}
	switch {
	case err != nil && persistedNotFound(err):
		p.ev.PersistedQuery = "miss"
	case err != nil || !res.Persisted:
	case res.Register:
		p.ev.PersistedQuery = "miss"
	default:
		p.ev.PersistedQuery = "hit"
	}
}

// persistedNotFound reports whether err is a persisted-query miss (in a
// function of its own: the error variable errors.As needs escapes).
func persistedNotFound(err error) bool {
	var pe *pqstate.Error
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Extensions["code"] == gqlerr.PersistedQueryNotFound
}

// noteDocument records whether query's document is cached.
func (p *phaseRun) noteDocument(query string) {
	if p == nil {
		return
	}
	_, pinned := p.r.pinned[query]
	p.ev.DocumentCached = pinned || p.r.docs.Contains(query)
	p.ev.query, p.ev.hash = query, ""

}

// setOperation records the selected operation's type and name.
func (p *phaseRun) setOperation(op *ast.OperationDefinition) {
	if p != nil {
		p.ev.OperationType, p.ev.OperationName, p.ev.Operation = string(op.Operation), op.Name, op
	}
}

// after runs the After of the open phase.
func (p *phaseRun) after() {
	if p != nil {
		p.end()
	}
}

// clock is the time since the request's start.
func (p *phaseRun) clock() time.Duration { return time.Since(p.ev.Start) }

// end runs the After of the open phase, if any, and returns when it
// ended (since the request's start). The clock is read only when a hook
// gets that After (read reports it).
func (p *phaseRun) end() (now time.Duration, read bool) {
	if !p.open {
		return 0, false
	}
	p.open = false
	if !p.observed(p.phase) {
		return 0, false // the hooks that observed it are done with the request
	}
	now = p.clock()
	p.ev.Phase, p.ev.Duration = p.phase, now-p.started
	for i, h := range p.r.hooks {
		if p.wants(i, p.phase) {
			p.callAfter(p.ctx, i, h)
		}
	}
	return now, true
}

// IncrementalPart is a deferred fragment or a stream of an incremental
// response, reported once complete (HookEvent.Parts).
type IncrementalPart struct {
	// Label is the directive's label, "" without one.
	Label string
	// Path is the response path of the fragment's object or of the
	// streamed list, as a JSON array (["item","child"]).
	Path string
	// Stream is true for a @stream, false for a @defer.
	Stream bool
	// Start is when its work began; Duration how long until its last
	// result was ready.
	Start    time.Time
	Duration time.Duration
	// Errors counts the errors its payloads carried.
	Errors int
}

// beginPayload runs the Before of PhasePayload for the next payload of a
// streamed answer and returns the context to execute it with, or the
// hooks' refusal of it. endPayload must follow.
func (p *phaseRun) beginPayload(base context.Context) (context.Context, *httpapi.Error) {
	if p == nil {
		return base, nil
	}
	p.ctx = base
	p.ev.Payload++
	p.ev.streamed = true
	p.ev.Errors, p.ev.ErrorCodes, p.ev.ErrorCount = nil, nil, 0
	if e := p.before(base, PhasePayload); e != nil {
		return base, e
	}
	return p.ctx, nil
}

// endPayload runs the After of PhasePayload with the payload's errors and
// drops the payload's context, so that a long stream does not stack them.
func (p *phaseRun) endPayload(base context.Context, errs []*gqlerror.Error) {
	if p == nil {
		return
	}
	p.setErrors(errs, len(errs))
	p.after()
	p.ev.Payload, p.ev.Parts = 0, nil
	if len(errs) > 0 {
		if p.stream == nil {
			p.stream = new(streamErrors)
		}
		p.stream.add(errs)
	}
	p.ctx = base
}

// setErrors hands errs to the hooks, with their codes; count is their
// number (more than len(errs) when some were left out).
func (p *phaseRun) setErrors(errs []*gqlerror.Error, count int) {
	p.ev.Errors, p.ev.ErrorCount, p.ev.ErrorCodes = errs, count, nil
	if len(errs) == 0 {
		return
	}
	codes := make([]string, len(errs))
	for i, e := range errs {
		codes[i], _ = e.Extensions["code"].(string)
	}
	p.ev.ErrorCodes = codes
}

func (p *phaseRun) callBefore(i int, h Hook) (rej *httpapi.Error) {
	ctx := p.ctx
	p.calling = i
	defer func() {
		p.calling = -1
		if v := recover(); v != nil {
			p.r.logHookPanic(ctx, p.phase, "before", v)
			rej = nil
		}
	}()
	nctx, err := h.Before(ctx, &p.ev)
	if nctx != nil {
		p.ctx = nctx
	}
	if err == nil {
		return nil
	}
	if e := refusalError(err); e != nil {
		return e
	}
	p.r.cfg.Logger.ErrorContext(ctx, "graft: hook failed", append(p.r.logAttrs(p.st), "phase", p.phase.String(), "error", err)...)
	return nil
}

// refusalError is the answer to a hook's *Refusal or *Error, nil for any
// other error.
func refusalError(err error) *httpapi.Error {
	var rf *Refusal
	if errors.As(err, &rf) {
		e := &httpapi.Error{Status: rf.Status, Header: rf.Header.Clone()}
		if e.Status < http.StatusBadRequest || e.Status > 599 {
			e.Status = http.StatusBadRequest
		}
		if rf.Err != nil {
			e.Err = &gqlerror.Error{Message: rf.Err.Message, Extensions: rf.Err.Extensions()}
		} else {
			text := http.StatusText(e.Status)
			e.Err = gqlerr.New(strings.ToUpper(strings.ReplaceAll(text, " ", "_")), text)
		}
		return e
	}
	var ge *Error
	if !errors.As(err, &ge) {
		return nil
	}
	status := http.StatusBadRequest
	switch ge.Code {
	case gqlerr.Unauthenticated:
		status = http.StatusUnauthorized
	case gqlerr.Forbidden:
		status = http.StatusForbidden
	}
	return &httpapi.Error{Status: status, Err: &gqlerror.Error{Message: ge.Message, Extensions: ge.Extensions()}}
}

func (p *phaseRun) callAfter(ctx context.Context, i int, h Hook) {
	p.calling = i
	defer func() {
		p.calling = -1
		if v := recover(); v != nil {
			p.r.logHookPanic(ctx, p.phase, "after", v)
		}
	}()
	h.After(ctx, &p.ev)
}

func (r *Router) logHookPanic(ctx context.Context, phase Phase, which string, v any) {
	r.cfg.Logger.ErrorContext(ctx, "graft: hook panicked", append(r.logAttrs(stateFrom(ctx)),
		"phase", phase.String(), "hook", which, "panic", v, "stack", string(debug.Stack()))...)
}

// finish closes the request once resp is its final answer: it runs
// PhaseAnswered (whose Before may still refuse the answer) and adds the
// accumulated extensions to a JSON answer.
func (p *phaseRun) finish(resp *httpapi.Response) {
	now, read := time.Duration(0), false
	if p.open {
		now, read = p.end()
	}
	p.skip |= p.skipNext
	p.skipNext = 0
	if p.done != 0 && !p.observed(PhaseAnswered) { // every hook is done with the request
		spliceExtensions(p.st, resp)
		p.ev.query = ""
		return
	}
	if !read {
		now = p.clock()
	}
	p.phase, p.open, p.started = PhaseAnswered, true, now
	p.ev.Phase, p.ev.Duration, p.ev.Payload = PhaseAnswered, 0, 0
	p.answered(resp)
	for i, h := range p.r.hooks {
		if !p.wants(i, PhaseAnswered) {
			continue
		}
		if e := p.callBefore(i, h); e != nil {
			p.r.fail(resp, resp.ContentType, e)
			p.refuser, p.refusedAt = i, PhaseAnswered
			p.answered(resp)
			break
		}
	}
	spliceExtensions(p.st, resp)
	p.open = false
	p.ev.Duration = p.clock() - now
	for i, h := range p.r.hooks {
		if i == p.refuser || i < 64 && p.done&(1<<i) != 0 {
			continue // the refusing hook, or one done with the request
		}
		p.ev.Received = p.received && !(p.refusedAt == PhaseReceived && p.refuser >= 0 && i > p.refuser)
		p.callAfter(p.ctx, i, h)
	}
	// The query text may lie in a buffer the next request reuses.
	p.ev.query = ""
}

// answered sets the event's status and errors from resp.
func (p *phaseRun) answered(resp *httpapi.Response) {
	p.ev.Status = resp.Status
	if p.stream == nil {
		errs := resp.Errors()
		p.setErrors(errs, len(errs))
		return
	}
	last := resp.Errors()
	errs := append(p.stream.first[:len(p.stream.first):len(p.stream.first)], last...)
	p.setErrors(errs[:min(len(errs), maxHookErrors)], p.stream.count+len(last))
}

// streamErrors are the errors of a streamed answer's payloads: their
// count and the first maxHookErrors of them.
type streamErrors struct {
	first []*gqlerror.Error
	count int
}

// add counts errs, and keeps them while fewer than maxHookErrors are.
func (s *streamErrors) add(errs []*gqlerror.Error) {
	s.count += len(errs)
	if n := maxHookErrors - len(s.first); n > 0 {
		s.first = append(s.first, errs[:min(n, len(errs))]...)
	}
}

// spliceExtensions adds the extensions set with SetExtension to the
// response's JSON object.
func spliceExtensions(st *requestState, resp *httpapi.Response) {
	if st == nil {
		return
	}
	st.mu.Lock()
	ext := st.ext
	st.ext = nil
	st.mu.Unlock()
	n := len(resp.Body)
	if len(ext) == 0 || n < 2 || resp.Body[n-1] != '}' || resp.ContentType == "" || resp.ContentType[0] == 't' {
		return
	}
	keys := make([]string, 0, len(ext))
	for k := range ext {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := append([]byte(nil), resp.Body[:n-1]...)
	if existing := existingExtensions(out); existing > 0 {
		// {"data":..,"extensions":{...}}: add inside the object.
		out = append(out[:len(out)-1], ',')
	} else {
		out = append(out, `,"extensions":{`...)
	}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(ext[k])
		if err != nil {
			vb = []byte("null")
		}
		out = append(append(append(out, kb...), ':'), vb...)
	}
	out = append(out, "}}"...)
	resp.Body = out
}

// existingExtensions reports whether the body (without its final brace)
// ends with an extensions object, which graft writes last.
func existingExtensions(b []byte) int {
	var probe struct {
		Extensions json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(append(b[:len(b):len(b)], '}'), &probe) == nil && len(probe.Extensions) > 1 && b[len(b)-1] == '}' {
		return 1
	}
	return 0
}

// reportPanic hands a panic the pipeline recovered to Config.OnPanic.
func (r *Router) reportPanic(ctx context.Context, v any, stack []byte) {
	if r.cfg.OnPanic == nil {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			r.cfg.Logger.ErrorContext(ctx, "graft: OnPanic panicked", "panic", p)
		}
	}()
	r.cfg.OnPanic(ctx, v, stack)
}

// OpenSubscriptions returns the number of subscriptions open now on the
// streaming transports, for metrics.
func (r *Router) OpenSubscriptions() int {
	_, subs := r.subs.Counts()
	return subs
}
