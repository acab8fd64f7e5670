package graft

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Layer holds the application's services: values such as database pools,
// clients and caches that resolvers need. Application services are built
// once by Start, and their cleanups run in reverse order by Stop. A
// builder may read other application services with Service: they are
// built first, whatever the order they were provided in (a dependency
// cycle is an error naming it). Request services are built lazily, at
// most once per request, the first time a resolver (or another request
// service) asks for them: per-request loaders, for example.
//
// Serve calls Start before the first request; a Router starts the layer
// on the first request that needs it if nobody did, on a context detached
// from that request and bounded by StartTimeout. While a start is running
// other requests wait for it; after a failed start, requests answer 503
// SERVICE_UNAVAILABLE and a later request tries again, no sooner than a
// back-off that doubles with each failure.
//
// The zero Layer is ready to use; provide every service before Start. A
// Layer is safe for concurrent use.
type Layer struct {
	// StartTimeout bounds a start the router begins on behalf of a
	// request. Zero means DefaultStartTimeout.
	StartTimeout time.Duration

	mu       sync.Mutex
	defs     []serviceDef
	requests map[reflect.Type]func(ctx context.Context) (any, error)
	values   map[reflect.Type]any
	cleanups []func(context.Context) error

	// start state, guarded by mu.
	starting chan struct{} // closed when the running start ends
	startErr error         // the last start's error
	failures int           // consecutive failed starts
	retryAt  time.Time     // no lazy start before this after a failure
	now      func() time.Time

	// ready holds the services once Start has built them all; resolvers
	// read it without a lock.
	ready atomic.Pointer[readyServices]
}

// readyServices is what a started layer serves: the built application
// services and the request service builders.
type readyServices struct {
	values   map[reflect.Type]any
	requests map[reflect.Type]func(context.Context) (any, error)
}

// DefaultStartTimeout bounds a layer start begun by a request when
// Layer.StartTimeout is zero.
const DefaultStartTimeout = time.Minute

// Back-off between lazy starts after failures: it doubles from
// minStartBackoff up to maxStartBackoff.
const (
	minStartBackoff = 100 * time.Millisecond
	maxStartBackoff = 30 * time.Second
)

type serviceDef struct {
	typ   reflect.Type
	build func(ctx context.Context) (any, func(context.Context) error, error)
}

// NewLayer returns an empty layer. It is the same as new(Layer).
func NewLayer() *Layer { return &Layer{} }

// Provide registers an application service of type T, built once by
// build when the layer starts. build may return a cleanup, run when the
// layer stops, and may read other application services with Service.
func Provide[T any](l *Layer, build func(ctx context.Context) (T, func(context.Context) error, error)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.defs = append(l.defs, serviceDef{typ: reflect.TypeFor[T](), build: func(ctx context.Context) (any, func(context.Context) error, error) {
		return build(ctx)
	}})
}

// ProvideValue registers an application service that is already built.
func ProvideValue[T any](l *Layer, v T) {
	Provide(l, func(context.Context) (T, func(context.Context) error, error) { return v, nil, nil })
}

// ProvideRequest registers a request service of type T, built by build at
// most once per request, when first asked for. build receives the
// request's context, so it can read RequestInfoFrom, application services
// and other request services (a cycle among them is an error naming it).
func ProvideRequest[T any](l *Layer, build func(ctx context.Context) (T, error)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.requests == nil {
		l.requests = map[reflect.Type]func(context.Context) (any, error){}
	}
	l.requests[reflect.TypeFor[T]()] = func(ctx context.Context) (any, error) { return build(ctx) }
}

// Start builds the application services, each after the services its
// builder reads. If one fails, those already built are torn down in
// reverse order and the error names the failing service's type; a later
// Start tries again. Start returns at once when the layer is started, and
// waits for a start already running (until ctx ends).
func (l *Layer) Start(ctx context.Context) error {
	if l == nil || l.ready.Load() != nil {
		return nil
	}
	done, owner := l.begin(true)
	if owner {
		l.finish(l.start(ctx))
	}
	return l.wait(ctx, done)
}

// ensureStarted is the start a request asks for: it returns at once when
// the layer is started, waits for a running start, and otherwise begins
// one on a context detached from ctx, unless the last start failed less
// than the back-off ago, in which case it returns that failure. report,
// when not nil, receives the error of a failed start it began.
func (l *Layer) ensureStarted(ctx context.Context, report func(error)) error {
	if l.ready.Load() != nil {
		return nil
	}
	done, owner := l.begin(false)
	if done == nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.startErr
	}
	if owner {
		timeout := l.StartTimeout
		if timeout <= 0 {
			timeout = DefaultStartTimeout
		}
		go func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
			defer cancel()
			err := l.start(sctx)
			if err != nil && report != nil {
				report(err)
			}
			l.finish(err)
		}()
	}
	return l.wait(ctx, done)
}

// begin returns the channel closed when the current start ends, and
// whether the caller must run that start. With force false it returns nil
// while the back-off after a failure lasts.
func (l *Layer) begin(force bool) (done chan struct{}, owner bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.starting != nil {
		return l.starting, false
	}
	if l.ready.Load() != nil {
		c := make(chan struct{})
		close(c)
		return c, false
	}
	if !force && l.failures > 0 && l.clock().Before(l.retryAt) {
		return nil, false
	}
	l.starting = make(chan struct{})
	return l.starting, true
}

// finish records the result of a start and wakes its waiters.
func (l *Layer) finish(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.startErr = err
	if err != nil {
		l.failures++
		backoff := maxStartBackoff
		if l.failures < 20 {
			backoff = min(minStartBackoff<<(l.failures-1), maxStartBackoff)
		}
		l.retryAt = l.clock().Add(backoff)
	} else {
		l.failures = 0
	}
	close(l.starting)
	l.starting = nil
}

// wait waits for done, then returns the start's result, or ctx's error if
// ctx ends first.
func (l *Layer) wait(ctx context.Context, done chan struct{}) error {
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if l.ready.Load() != nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.startErr
}

// retryIn returns how long until a request may start the layer again
// after the last failure (at least a second, for Retry-After).
func (l *Layer) retryIn() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return max(l.retryAt.Sub(l.clock()), time.Second)
}

func (l *Layer) clock() time.Time {
	if l.now != nil {
		return l.now()
	}
	return time.Now()
}

// start builds every application service, in dependency order.
func (l *Layer) start(ctx context.Context) error {
	l.mu.Lock()
	defs := make(map[reflect.Type]serviceDef, len(l.defs))
	order := make([]reflect.Type, 0, len(l.defs))
	for _, d := range l.defs {
		if _, dup := defs[d.typ]; !dup {
			order = append(order, d.typ)
		}
		defs[d.typ] = d // a later Provide of the same type wins
	}
	l.values = map[reflect.Type]any{}
	l.mu.Unlock()
	b := &appBuild{l: l, defs: defs}
	bctx := context.WithValue(ctx, stateKey{}, &requestState{layer: l, app: b})
	for _, t := range order {
		if _, err := b.get(bctx, t); err != nil {
			return errors.Join(err, l.Stop(ctx))
		}
	}
	l.mu.Lock()
	ready := &readyServices{values: maps.Clone(l.values), requests: maps.Clone(l.requests)}
	l.mu.Unlock()
	l.ready.Store(ready)
	return nil
}

// appBuild is a start in progress: it builds a service when first asked
// for, so builders may read the services they depend on.
type appBuild struct {
	l     *Layer
	defs  map[reflect.Type]serviceDef
	mu    sync.Mutex
	chain []reflect.Type // the services being built, outermost first
}

// get returns the application service of type t, building it first if
// needed.
func (b *appBuild) get(ctx context.Context, t reflect.Type) (any, error) {
	b.mu.Lock()
	b.l.mu.Lock()
	v, ok := b.l.values[t]
	b.l.mu.Unlock()
	if ok {
		b.mu.Unlock()
		return v, nil
	}
	d, ok := b.defs[t]
	if !ok {
		b.mu.Unlock()
		return nil, &MissingServiceError{Type: t}
	}
	for i, c := range b.chain {
		if c == t {
			cycle := append(append([]reflect.Type(nil), b.chain[i:]...), t)
			b.mu.Unlock()
			return nil, fmt.Errorf("graft: service dependency cycle: %s", typeChain(cycle))
		}
	}
	b.chain = append(b.chain, t)
	b.mu.Unlock()
	v, cleanup, err := buildService(ctx, d)
	b.mu.Lock()
	b.chain = b.chain[:len(b.chain)-1]
	b.mu.Unlock()
	if err != nil {
		if strings.HasPrefix(err.Error(), "graft: ") {
			return nil, err // already names the service that failed
		}
		return nil, fmt.Errorf("graft: build service %v: %w", t, err)
	}
	b.l.mu.Lock()
	b.l.values[t] = v
	if cleanup != nil {
		b.l.cleanups = append(b.l.cleanups, cleanup)
	}
	b.l.mu.Unlock()
	return v, nil
}

// typeChain formats a dependency chain as "A -> B -> A".
func typeChain(ts []reflect.Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return strings.Join(names, " -> ")
}

// buildService runs d's builder, turning a panic into its error.
func buildService(ctx context.Context, d serviceDef) (v any, cleanup func(context.Context) error, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return d.build(ctx)
}

// Stop runs the cleanups of the built services in reverse order and joins
// their errors. It runs them once; a later Start builds the services
// again.
func (l *Layer) Stop(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	cleanups := l.cleanups
	l.cleanups = nil
	l.ready.Store(nil)
	l.mu.Unlock()
	var errs []error
	for i := len(cleanups) - 1; i >= 0; i-- {
		if err := cleanups[i](ctx); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// MissingServiceError is returned by Service when no service of the
// requested type was provided.
type MissingServiceError struct {
	Type reflect.Type
}

// Error names the missing type and how to provide it.
func (e *MissingServiceError) Error() string {
	return fmt.Sprintf("graft: no service of type %v in the layer (provide it with graft.Provide or graft.ProvideRequest)", e.Type)
}

// Service returns the service of type T for the request in ctx: a request
// service (built on first use in this request) or an application service.
// Inside a Provide builder it returns application services, building them
// first when needed. A missing service is a *MissingServiceError naming
// the type, which a resolver returns as its field error.
func Service[T any](ctx context.Context) (T, error) {
	var zero T
	st := stateFrom(ctx)
	if st == nil || st.layer == nil {
		return zero, &MissingServiceError{Type: reflect.TypeFor[T]()}
	}
	v, err := st.service(ctx, reflect.TypeFor[T]())
	if err != nil {
		return zero, err
	}
	return v.(T), nil
}

// requestBuild is a request service being built (or built) in one
// request: done is closed when v and err are set.
type requestBuild struct {
	done chan struct{}
	v    any
	err  error
}

// buildingKey marks, in a request service builder's context, the chain of
// request services being built, so a cycle is reported, not waited on.
type buildingKey struct{}

func (st *requestState) service(ctx context.Context, t reflect.Type) (any, error) {
	if st.app != nil {
		return st.app.get(ctx, t)
	}
	rs := st.layer.ready.Load()
	if rs == nil {
		return nil, &MissingServiceError{Type: t} // not started
	}
	if build, ok := rs.requests[t]; ok {
		return st.requestService(ctx, t, build)
	}
	v, ok := rs.values[t]
	if !ok {
		return nil, &MissingServiceError{Type: t}
	}
	return v, nil
}

// requestService returns the request service of type t, building it once
// per request. Concurrent callers wait for the one build (or for ctx).
func (st *requestState) requestService(ctx context.Context, t reflect.Type, build func(context.Context) (any, error)) (any, error) {
	chain, _ := ctx.Value(buildingKey{}).([]reflect.Type)
	for i, c := range chain {
		if c == t {
			cycle := append(append([]reflect.Type(nil), chain[i:]...), t)
			return nil, fmt.Errorf("graft: request service dependency cycle: %s", typeChain(cycle))
		}
	}
	st.mu.Lock()
	b, ok := st.services[t]
	if !ok {
		b = &requestBuild{done: make(chan struct{})}
		if st.services == nil {
			st.services = map[reflect.Type]*requestBuild{}
		}
		st.services[t] = b
	}
	st.mu.Unlock()
	if ok {
		select {
		case <-b.done:
			return b.v, b.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	bctx := context.WithValue(ctx, buildingKey{}, append(chain[:len(chain):len(chain)], t))
	v, err := buildRequestService(bctx, build)
	if err != nil && !strings.HasPrefix(err.Error(), "graft: ") {
		err = fmt.Errorf("graft: build request service %v: %w", t, err)
	}
	b.v, b.err = v, err
	close(b.done)
	return v, err
}

// buildRequestService runs a request service builder, turning a panic
// into its error.
func buildRequestService(ctx context.Context, build func(context.Context) (any, error)) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return build(ctx)
}
