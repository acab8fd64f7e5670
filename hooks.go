package graft

import (
	"bytes"
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
	// PhaseAnswered: the response is complete. Its After sees the status
	// and the error count of the answer.
	PhaseAnswered
)

var phaseNames = [...]string{"received", "parsed", "validated", "analyzed", "executed", "answered"}

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
	// Start is when the request entered the pipeline; Duration is, in
	// After, how long the phase took (0 in Before).
	Start    time.Time
	Duration time.Duration
	// ErrorCount is, in the After of PhaseExecuted and PhaseAnswered, the
	// number of errors of the answer.
	ErrorCount int
	// ErrorCodes are the extensions.code of the answer's errors ("" for
	// an error without one), with ErrorCount.
	ErrorCodes []string
	// Status is the HTTP status of the answer, in the After of
	// PhaseAnswered.
	Status int
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

// Hook observes the phases of every request. Before runs before a phase
// and After after it, both on the request's goroutine. Before may return
// a derived context (nil keeps the one it got): the next hooks, the later
// phases and, from PhaseExecuted, the resolvers run with it — so a hook
// can start a trace span. After gets the latest context.
//
// Before may reject the request by returning a *graft.Refusal (any 4xx or
// 5xx status, with headers such as Retry-After) or a *graft.Error: the
// client gets it as a GraphQL error with its code (status 401 for
// CodeUnauthenticated, 403 for CodeForbidden, 400 otherwise). Any other error,
// and a panic in either method, is logged and the request goes on.
//
// A hook adds to the response's top-level extensions with SetExtension.
type Hook interface {
	Before(ctx context.Context, ev *HookEvent) (context.Context, error)
	After(ctx context.Context, ev *HookEvent)
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
	r       *Router
	ctx     context.Context // the latest context hooks returned
	st      *requestState
	ev      HookEvent
	started time.Time // start of the current phase
	phase   Phase
	open    bool // Before of phase ran and After is due
}

// hooksEnabled reports whether run must track phases at all.
func (r *Router) hooksEnabled() bool { return len(r.cfg.Hooks) > 0 || r.cfg.AccessLog != nil }

// beginPhases starts the tracking of a request's phases, or returns nil
// when nothing observes them (the fast path).
func (r *Router) beginPhases(ctx context.Context, st *requestState) *phaseRun {
	if !r.hooksEnabled() {
		return nil
	}
	now := time.Now()
	p := &phaseRun{r: r, st: st, ctx: ctx, ev: HookEvent{Request: &st.info, Start: now}}
	return p
}

// before ends the open phase, if any, and runs the Before of phase. A
// rejection becomes the answer's error.
func (p *phaseRun) before(_ context.Context, phase Phase) *httpapi.Error {
	if p == nil {
		return nil
	}
	ctx := p.ctx
	p.after(ctx)
	p.phase, p.open, p.started = phase, true, time.Now()
	p.ev.Phase, p.ev.Duration = phase, 0
	for _, h := range p.r.cfg.Hooks {
		if e := p.callBefore(h); e != nil {
			p.open = false
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
	var pe *pqstate.Error
	switch {
	case err != nil && errors.As(err, &pe) && pe.Err != nil && pe.Err.Extensions["code"] == gqlerr.PersistedQueryNotFound:
		p.ev.PersistedQuery = "miss"
	case err != nil || !res.Persisted:
	case res.Register:
		p.ev.PersistedQuery = "miss"
	default:
		p.ev.PersistedQuery = "hit"
	}
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
		p.ev.OperationType, p.ev.OperationName = string(op.Operation), op.Name
	}
}

// after runs the After of the open phase.
func (p *phaseRun) after(_ context.Context) {
	if p == nil || !p.open {
		return
	}
	ctx := p.ctx
	p.open = false
	p.ev.Phase, p.ev.Duration = p.phase, time.Since(p.started)
	for _, h := range p.r.cfg.Hooks {
		p.callAfter(ctx, h)
	}
}

func (p *phaseRun) callBefore(h Hook) (rej *httpapi.Error) {
	ctx := p.ctx
	defer func() {
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

func (p *phaseRun) callAfter(ctx context.Context, h Hook) {
	defer func() {
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

// finish closes the request: it adds the accumulated extensions to a
// JSON answer, runs PhaseAnswered, and writes the access log line.
func (p *phaseRun) finish(ctx context.Context, resp *httpapi.Response) {
	if p == nil {
		spliceExtensions(stateFrom(ctx), resp)
		return
	}
	ctx = p.ctx
	if p.ev.ErrorCount == 0 {
		p.ev.ErrorCodes = errorCodes(resp.Body)
		p.ev.ErrorCount = len(p.ev.ErrorCodes)
	}
	p.ev.Status = resp.Status
	if p.phase != PhaseAnswered {
		if e := p.before(ctx, PhaseAnswered); e != nil {
			p.r.fail(resp, resp.ContentType, e)
		}
	}
	spliceExtensions(p.st, resp)
	p.after(ctx)
	p.r.accessLog(ctx, p, resp)
	// The query text may lie in a buffer the next request reuses.
	p.ev.query = ""
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

// errorCodes lists the extensions.code of the answer's top-level errors.
func errorCodes(body []byte) []string {
	if !bytes.HasPrefix(body, []byte(`{"errors":`)) {
		return nil
	}
	var probe struct {
		Errors []struct {
			Extensions struct {
				Code any `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	_ = json.Unmarshal(body, &probe)
	codes := make([]string, len(probe.Errors))
	for i, e := range probe.Errors {
		codes[i], _ = e.Extensions.Code.(string)
	}
	return codes
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
	_, subs := r.subs.counts()
	return subs
}
