package graft

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sync"
	"sync/atomic"
)

// Layer holds the application's services: values such as database pools,
// clients and caches that resolvers need. Application services are built
// once, in the order they were provided, by Start (Serve calls it before
// the first request; a Router calls it on its first request if nobody
// did), and their cleanups run in reverse order by Stop. Request services
// are built lazily, at most once per request, the first time a resolver
// asks for them (per-request loaders, for example).
//
// Resolvers read services with Service. A Layer is safe for concurrent use
// once started; provide every service before Start.
type Layer struct {
	mu       sync.Mutex
	defs     []serviceDef
	requests map[reflect.Type]func(ctx context.Context) (any, error)
	values   map[reflect.Type]any
	cleanups []func(context.Context) error
	startErr error
	once     sync.Once
	// ready holds the application services once Start has built them all;
	// resolvers read it without a lock.
	ready atomic.Pointer[map[reflect.Type]any]
}

type serviceDef struct {
	typ   reflect.Type
	build func(ctx context.Context) (any, func(context.Context) error, error)
}

// NewLayer returns an empty layer.
func NewLayer() *Layer {
	return &Layer{
		requests: map[reflect.Type]func(context.Context) (any, error){},
		values:   map[reflect.Type]any{},
	}
}

// Provide registers an application service of type T, built once by
// build when the layer starts. build may return a cleanup, run when the
// layer stops.
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
// most once per request, when a resolver first asks for it. build receives
// the request's context, so it can read RequestInfoFrom and other services.
func ProvideRequest[T any](l *Layer, build func(ctx context.Context) (T, error)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests[reflect.TypeFor[T]()] = func(ctx context.Context) (any, error) { return build(ctx) }
}

// Start builds the application services in the order they were provided.
// If one fails, those already built are torn down in reverse order and the
// error names the failing service's type. Start runs once; later calls
// return the first result.
func (l *Layer) Start(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.once.Do(func() { l.startErr = l.start(ctx) })
	return l.startErr
}

func (l *Layer) start(ctx context.Context) error {
	l.mu.Lock()
	defs := append([]serviceDef(nil), l.defs...)
	l.mu.Unlock()
	for _, d := range defs {
		v, cleanup, err := buildService(ctx, d)
		if err != nil {
			err = fmt.Errorf("graft: build service %v: %w", d.typ, err)
			return errors.Join(err, l.Stop(ctx))
		}
		l.mu.Lock()
		l.values[d.typ] = v
		if cleanup != nil {
			l.cleanups = append(l.cleanups, cleanup)
		}
		l.mu.Unlock()
	}
	l.mu.Lock()
	ready := maps.Clone(l.values)
	l.mu.Unlock()
	l.ready.Store(&ready)
	return nil
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
// their errors. It runs them once.
func (l *Layer) Stop(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	cleanups := l.cleanups
	l.cleanups = nil
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
// A missing service is a *MissingServiceError naming the type, which a
// resolver returns as its field error.
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

func (st *requestState) service(ctx context.Context, t reflect.Type) (any, error) {
	l := st.layer
	if build, ok := l.requests[t]; ok {
		st.mu.Lock()
		defer st.mu.Unlock()
		if v, ok := st.services[t]; ok {
			return v, nil
		}
		v, err := build(ctx)
		if err != nil {
			return nil, fmt.Errorf("graft: build request service %v: %w", t, err)
		}
		if st.services == nil {
			st.services = map[reflect.Type]any{}
		}
		st.services[t] = v
		return v, nil
	}
	var v any
	var ok bool
	if ready := l.ready.Load(); ready != nil {
		v, ok = (*ready)[t]
	} else {
		l.mu.Lock()
		v, ok = l.values[t]
		l.mu.Unlock()
	}
	if !ok {
		return nil, &MissingServiceError{Type: t}
	}
	return v, nil
}
