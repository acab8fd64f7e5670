package graft

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

type db struct{ name string }
type cache struct{}
type loader struct{ n int }

func TestLayerBuildsInOrderAndStopsInReverse(t *testing.T) {
	var order []string
	l := NewLayer()
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		order = append(order, "build db")
		return &db{name: "main"}, func(context.Context) error { order = append(order, "close db"); return nil }, nil
	})
	Provide(l, func(ctx context.Context) (*cache, func(context.Context) error, error) {
		order = append(order, "build cache")
		return &cache{}, func(context.Context) error { order = append(order, "close cache"); return nil }, nil
	})
	if err := l.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := l.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"build db", "build cache", "close cache", "close db"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("order = %v, want %v", order, want)
	}
}

func TestLayerStartFailureTearsDownBuilt(t *testing.T) {
	closed := false
	l := NewLayer()
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		return &db{}, func(context.Context) error { closed = true; return nil }, nil
	})
	Provide(l, func(ctx context.Context) (*cache, func(context.Context) error, error) {
		return nil, nil, errors.New("connection refused")
	})
	err := l.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "*graft.cache") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("err = %v", err)
	}
	if !closed {
		t.Fatal("db was not torn down")
	}
}

func TestServiceLookup(t *testing.T) {
	l := NewLayer()
	ProvideValue(l, &db{name: "main"})
	var builds atomic.Int32
	ProvideRequest(l, func(ctx context.Context) (*loader, error) {
		builds.Add(1)
		d, err := Service[*db](ctx)
		if err != nil {
			return nil, err
		}
		return &loader{n: len(d.name)}, nil
	})
	if err := l.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx := context.WithValue(context.Background(), stateKey{}, &requestState{layer: l})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ld, err := Service[*loader](ctx)
			if err != nil || ld.n != 4 {
				t.Errorf("loader = %v, %v", ld, err)
			}
		}()
	}
	wg.Wait()
	if builds.Load() != 1 {
		t.Fatalf("request service built %d times in one request, want 1", builds.Load())
	}
	// A second request builds its own.
	ctx2 := context.WithValue(context.Background(), stateKey{}, &requestState{layer: l})
	if _, err := Service[*loader](ctx2); err != nil {
		t.Fatal(err)
	}
	if builds.Load() != 2 {
		t.Fatalf("builds = %d, want 2", builds.Load())
	}
}

func TestMissingServiceNamesType(t *testing.T) {
	l := NewLayer()
	ctx := context.WithValue(context.Background(), stateKey{}, &requestState{layer: l})
	_, err := Service[*cache](ctx)
	var me *MissingServiceError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "*graft.cache") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Service[*cache](context.Background()); !errors.As(err, &me) {
		t.Fatalf("outside a request: err = %v", err)
	}
}
