package loader

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
)

type authKey struct{}

func withAuth(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, authKey{}, token)
}

func authScope(ctx context.Context) string { s, _ := ctx.Value(authKey{}).(string); return s }

// upstream is a fetch that reports each call on started, then waits for
// gate to close. Each value names the key and the caller's authorization,
// so a leak between users shows.
type upstream struct {
	mu      sync.Mutex
	calls   [][]string
	ctxs    []context.Context
	started chan []string
	gate    chan struct{}
	err     error
	panics  bool
}

func newUpstream() *upstream {
	return &upstream{started: make(chan []string, 16), gate: make(chan struct{})}
}

func (u *upstream) fetch(ctx context.Context, keys []string) ([]string, []error) {
	u.mu.Lock()
	u.calls = append(u.calls, slices.Clone(keys))
	u.ctxs = append(u.ctxs, ctx)
	u.mu.Unlock()
	u.started <- slices.Clone(keys)
	<-u.gate
	if u.panics {
		panic("upstream broke")
	}
	if u.err != nil {
		return nil, []error{u.err}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + " for " + authScope(ctx)
	}
	return out, nil
}

func (u *upstream) callCount() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.calls)
}

// joinedChan makes s report on the returned channel each key a caller
// joins another's fetch of.
func joinedChan(s *Shared[string, string]) chan string {
	ch := make(chan string, 16)
	s.joined = func(k string) { ch <- k }
	return ch
}

type result struct {
	vals []string
	errs []error
}

func fetchAsync(s *Shared[string, string], ctx context.Context, keys ...string) chan result {
	ch := make(chan result, 1)
	go func() {
		v, e := s.Fetch(ctx, keys)
		ch <- result{v, e}
	}()
	return ch
}

func wantStarted(t *testing.T, u *upstream, keys ...string) {
	t.Helper()
	if got := <-u.started; !slices.Equal(got, keys) {
		t.Fatalf("upstream call for %v, want %v", got, keys)
	}
}

// TestSharedDeduplicates: a fetch of keys another caller is fetching
// joins that call; only the keys nobody is fetching are fetched again.
func TestSharedDeduplicates(t *testing.T) {
	up := newUpstream()
	s := NewShared(up.fetch, SharedOptions{})
	joined := joinedChan(s)
	ctx := context.Background()
	a := fetchAsync(s, ctx, "1", "2")
	wantStarted(t, up, "1", "2")
	b := fetchAsync(s, ctx, "2", "3")
	wantStarted(t, up, "3")
	if k := <-joined; k != "2" {
		t.Fatalf("joined %q, want 2", k)
	}
	close(up.gate)
	ra, rb := <-a, <-b
	if ra.errs != nil || rb.errs != nil || !slices.Equal(ra.vals, []string{"1 for ", "2 for "}) || !slices.Equal(rb.vals, []string{"2 for ", "3 for "}) {
		t.Fatalf("a %v, b %v", ra, rb)
	}
	if n := up.callCount(); n != 2 {
		t.Fatalf("%d upstream calls, want 2", n)
	}
	// Nothing is kept once a fetch returns: the next one calls again.
	if _, err := s.Load(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	wantStarted(t, up, "1")
	if n := up.callCount(); n != 3 {
		t.Fatalf("%d upstream calls after the fetches returned, want 3", n)
	}
}

// TestSharedScope: fetches are shared only between callers of the same
// scope; each user gets the answer fetched with their own authorization.
func TestSharedScope(t *testing.T) {
	up := newUpstream()
	s := NewShared(up.fetch, SharedOptions{Scope: authScope})
	joined := joinedChan(s)
	alice := withAuth(context.Background(), "alice")
	bob := withAuth(context.Background(), "bob")
	a := fetchAsync(s, alice, "me")
	wantStarted(t, up, "me")
	b := fetchAsync(s, bob, "me")
	wantStarted(t, up, "me") // bob's own call
	a2 := fetchAsync(s, alice, "me")
	<-joined // alice's second request joins her first
	close(up.gate)
	for _, c := range []struct {
		ch   chan result
		want string
	}{{a, "me for alice"}, {b, "me for bob"}, {a2, "me for alice"}} {
		if r := <-c.ch; r.errs != nil || r.vals[0] != c.want {
			t.Errorf("got %v, want %q", r, c.want)
		}
	}
	if n := up.callCount(); n != 2 {
		t.Fatalf("%d upstream calls, want 2 (one per user)", n)
	}
}

// TestSharedCallerGoesAway: the caller that started a fetch returns its
// context's error when it goes away; the fetch goes on, uncancelled, for
// the others.
func TestSharedCallerGoesAway(t *testing.T) {
	up := newUpstream()
	s := NewShared(up.fetch, SharedOptions{})
	joined := joinedChan(s)
	ctx, cancel := context.WithCancel(withAuth(context.Background(), "alice"))
	a := fetchAsync(s, ctx, "k")
	wantStarted(t, up, "k")
	b := fetchAsync(s, withAuth(context.Background(), "alice"), "k")
	<-joined
	cancel()
	if r := <-a; r.errs == nil || !errors.Is(r.errs[0], context.Canceled) {
		t.Fatalf("the caller that went away got %v, want context.Canceled", r)
	}
	up.mu.Lock()
	fctx := up.ctxs[0]
	up.mu.Unlock()
	if fctx.Err() != nil {
		t.Fatalf("the shared fetch's context ended with its caller: %v", fctx.Err())
	}
	if authScope(fctx) != "alice" {
		t.Fatal("the shared fetch lost its caller's context values")
	}
	close(up.gate)
	if r := <-b; r.errs != nil || r.vals[0] != "k for alice" {
		t.Fatalf("the caller that stayed got %v", r)
	}
}

// TestSharedErrors: an error (or a panic) reaches every caller of the
// fetch, and is not kept.
func TestSharedErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  func(*upstream)
		want error
	}{
		{"error", func(u *upstream) { u.err = errBoom }, errBoom},
		{"panic", func(u *upstream) { u.panics = true }, ErrPanic},
	} {
		t.Run(tt.name, func(t *testing.T) {
			up := newUpstream()
			tt.set(up)
			s := NewShared(up.fetch, SharedOptions{})
			joined := joinedChan(s)
			a := fetchAsync(s, context.Background(), "x", "y")
			wantStarted(t, up, "x", "y")
			b := fetchAsync(s, context.Background(), "y")
			<-joined
			close(up.gate)
			ra, rb := <-a, <-b
			if len(ra.errs) != 2 || !errors.Is(ra.errs[0], tt.want) || !errors.Is(ra.errs[1], tt.want) || len(rb.errs) != 1 || !errors.Is(rb.errs[0], tt.want) {
				t.Fatalf("a %v, b %v; want %v for every key", ra, rb, tt.want)
			}
			up.err, up.panics = nil, false
			if v, err := s.Load(context.Background(), "y"); err != nil || v != "y for " {
				t.Fatalf("after the failure: %q, %v", v, err)
			}
		})
	}
}

var errBoom = errors.New("boom")

// TestSharedUnderLoader: a request's Loader fetching through a Shared.
func TestSharedUnderLoader(t *testing.T) {
	up := newUpstream()
	close(up.gate)
	s := NewShared(up.fetch, SharedOptions{Scope: authScope})
	l := New(s.Fetch)
	ctx := withAuth(context.Background(), "carol")
	vals, errs := l.LoadMany(ctx, []string{"a", "b"})
	if errs != nil || !slices.Equal(vals, []string{"a for carol", "b for carol"}) {
		t.Fatalf("%v %v", vals, errs)
	}
}
