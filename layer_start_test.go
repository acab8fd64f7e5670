package graft

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graftgql/graft/schema"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// serviceSchema serves {db} (the *db service's name) and {loader} (the
// *loader request service's n).
func serviceSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "db", func(ctx context.Context) (string, error) {
		d, err := Service[*db](ctx)
		if err != nil {
			return "", err
		}
		return d.name, nil
	})
	schema.QueryNoArgs(b, "loader", func(ctx context.Context) (int, error) {
		l, err := Service[*loader](ctx)
		if err != nil {
			return 0, err
		}
		return l.n, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func quietRouter(t *testing.T, l *Layer, cfg Config) *Router {
	t.Helper()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	r, err := NewRouter(serviceSchema(t), l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// code returns the status and the first error's extensions.code.
func statusAndCode(t *testing.T, status int, body []byte) (int, string) {
	t.Helper()
	var resp struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	if len(resp.Errors) == 0 {
		return status, ""
	}
	c, _ := resp.Errors[0].Extensions["code"].(string)
	return status, c
}

func TestLayerStartCancelledByFirstClientDoesNotPoison(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	l := NewLayer()
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		close(entered)
		select {
		case <-release:
			return &db{name: "main"}, nil, nil
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	})
	r := quietRouter(t, l, Config{})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan []byte)
	go func() {
		_, body := r.Execute(ctx, Request{Query: "{ db }"})
		done <- body
	}()
	<-entered
	cancel() // the first client goes away while the builder runs
	if st, c := statusAndCode(t, http.StatusServiceUnavailable, <-done); c != CodeRequestCancelled {
		t.Fatalf("cancelled first request: %d %s", st, c)
	}
	close(release)
	status, body := r.Execute(context.Background(), Request{Query: "{ db }"})
	if status != 200 || string(body) != `{"data":{"db":"main"}}` {
		t.Fatalf("later request: %d %s", status, body)
	}
}

func TestLayerFailedStartIsRetriedAfterBackoff(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	var builds atomic.Int32
	l := NewLayer()
	l.now = clock.now
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		if builds.Add(1) == 1 {
			return nil, nil, errors.New("connection refused")
		}
		return &db{name: "main"}, nil, nil
	})
	r := quietRouter(t, l, Config{})

	rec := postQuery(r, "{ db }")
	if st, c := statusAndCode(t, rec.Code, rec.Body.Bytes()); st != 503 || c != CodeServiceUnavailable {
		t.Fatalf("failed start: %d %s %s", st, c, rec.Body)
	}
	if ra := rec.Header().Get("Retry-After"); ra != "1" {
		t.Fatalf("Retry-After = %q, want 1 (the first back-off, rounded up)", ra)
	}
	// Within the back-off a request answers 503 without starting again.
	for range 5 {
		rec = postQuery(r, "{ db }")
		if rec.Code != 503 {
			t.Fatalf("within back-off: %d %s", rec.Code, rec.Body)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("builds within back-off = %d, want 1", n)
	}
	clock.advance(maxStartBackoff)
	rec = postQuery(r, "{ db }")
	if rec.Code != 200 || rec.Body.String() != `{"data":{"db":"main"}}` {
		t.Fatalf("after back-off: %d %s", rec.Code, rec.Body)
	}
	if n := builds.Load(); n != 2 {
		t.Fatalf("builds = %d, want 2", n)
	}
}

func TestLayerBackoffGrowsWithFailures(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	var builds atomic.Int32
	l := NewLayer()
	l.now = clock.now
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		builds.Add(1)
		return nil, nil, errors.New("down")
	})
	for i := range 4 {
		_ = l.ensureStarted(context.Background(), nil)
		_ = l.ensureStarted(context.Background(), nil) // within the back-off: no build
		if n := builds.Load(); n != int32(i+1) {
			t.Fatalf("after failure %d: builds = %d", i+1, n)
		}
		clock.advance(minStartBackoff << i)
	}
}

func TestConcurrentFirstRequestsShareOneStart(t *testing.T) {
	release := make(chan struct{})
	var builds atomic.Int32
	l := NewLayer()
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		builds.Add(1)
		<-release
		return &db{name: "main"}, nil, nil
	})
	r := quietRouter(t, l, Config{})
	var wg sync.WaitGroup
	bodies := make([]string, 8)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, b := r.Execute(context.Background(), Request{Query: "{ db }"})
			bodies[i] = string(b)
		}()
	}
	close(release)
	wg.Wait()
	for _, b := range bodies {
		if b != `{"data":{"db":"main"}}` {
			t.Fatalf("body = %s", b)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("builds = %d, want 1", n)
	}
}

func TestWebHandlerStartRetriesAfterFailure(t *testing.T) {
	var builds atomic.Int32
	l := NewLayer()
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		if builds.Add(1) == 1 {
			return nil, nil, errors.New("not yet")
		}
		return &db{name: "main"}, nil, nil
	})
	h := NewWebHandler(quietRouter(t, l, Config{}))
	if err := h.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "not yet") {
		t.Fatalf("first Start: %v", err)
	}
	if err := h.Start(context.Background()); err != nil {
		t.Fatalf("second Start: %v", err)
	}
	if n := builds.Load(); n != 2 {
		t.Fatalf("builds = %d", n)
	}
}

type reqA struct{ b *reqB }
type reqB struct{ n int }

func TestRequestServiceMayDependOnRequestService(t *testing.T) {
	l := NewLayer()
	ProvideValue(l, &db{name: "main"})
	ProvideRequest(l, func(ctx context.Context) (*reqB, error) {
		d, err := Service[*db](ctx)
		if err != nil {
			return nil, err
		}
		return &reqB{n: len(d.name)}, nil
	})
	ProvideRequest(l, func(ctx context.Context) (*loader, error) {
		b, err := Service[*reqB](ctx) // a request service asking for another
		if err != nil {
			return nil, err
		}
		return &loader{n: b.n * 10}, nil
	})
	status, body := quietRouter(t, l, Config{}).Execute(context.Background(), Request{Query: "{ loader }"})
	if status != 200 || string(body) != `{"data":{"loader":40}}` {
		t.Fatalf("%d %s", status, body)
	}
}

func TestRequestServiceCycleIsAnErrorNamingIt(t *testing.T) {
	l := NewLayer()
	ProvideRequest(l, func(ctx context.Context) (*reqA, error) {
		_, err := Service[*reqB](ctx)
		return &reqA{}, err
	})
	ProvideRequest(l, func(ctx context.Context) (*reqB, error) {
		_, err := Service[*reqA](ctx)
		return &reqB{}, err
	})
	ProvideRequest(l, func(ctx context.Context) (*loader, error) {
		_, err := Service[*reqA](ctx)
		return &loader{}, err
	})
	_, body := quietRouter(t, l, Config{}).Execute(context.Background(), Request{Query: "{ loader }"})
	if !strings.Contains(string(body), "cycle: *graft.reqA -> *graft.reqB -> *graft.reqA") {
		t.Fatalf("body = %s", body)
	}
}

type repo struct{ d *db }

func TestApplicationServiceReadsAnotherInItsBuilder(t *testing.T) {
	for _, dbFirst := range []bool{true, false} {
		var order []string
		l := NewLayer()
		provideDB := func() {
			Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
				order = append(order, "build db")
				return &db{name: "main"}, func(context.Context) error { order = append(order, "close db"); return nil }, nil
			})
		}
		if dbFirst {
			provideDB()
		}
		Provide(l, func(ctx context.Context) (*repo, func(context.Context) error, error) {
			d, err := Service[*db](ctx)
			if err != nil {
				return nil, nil, err
			}
			order = append(order, "build repo")
			return &repo{d: d}, func(context.Context) error { order = append(order, "close repo"); return nil }, nil
		})
		if !dbFirst {
			provideDB()
		}
		if err := l.Start(context.Background()); err != nil {
			t.Fatalf("dbFirst=%v: %v", dbFirst, err)
		}
		if err := l.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := "build db,build repo,close repo,close db"
		if got := strings.Join(order, ","); got != want {
			t.Fatalf("dbFirst=%v: order = %s, want %s", dbFirst, got, want)
		}
	}
}

func TestApplicationServiceCycleIsAnErrorNamingIt(t *testing.T) {
	l := NewLayer()
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		_, err := Service[*repo](ctx)
		return &db{}, nil, err
	})
	Provide(l, func(ctx context.Context) (*repo, func(context.Context) error, error) {
		_, err := Service[*db](ctx)
		return &repo{}, nil, err
	})
	err := l.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "cycle: *graft.db -> *graft.repo -> *graft.db") {
		t.Fatalf("err = %v", err)
	}
}

func TestAuthHookReadsApplicationServices(t *testing.T) {
	l := NewLayer()
	ProvideValue(l, &db{name: "users"})
	var seen string
	r := quietRouter(t, l, Config{Auth: func(ctx context.Context, _ *AuthRequest) (context.Context, error) {
		d, err := Service[*db](ctx)
		if err != nil {
			return nil, err
		}
		seen = d.name
		return ctx, nil
	}})
	rec := postQuery(r, "{ db }")
	if rec.Code != 200 || seen != "users" {
		t.Fatalf("%d %s, seen %q", rec.Code, rec.Body, seen)
	}
}

func TestUnauthorizedCarriesWWWAuthenticate(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"default challenge", errors.New("missing token"), "Bearer"},
		{"hook's challenge", &AuthError{Challenge: `Bearer realm="api", error="invalid_token"`, Err: errors.New("expired")}, `Bearer realm="api", error="invalid_token"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := quietRouter(t, nil, Config{Auth: func(ctx context.Context, _ *AuthRequest) (context.Context, error) {
				return nil, tc.err
			}})
			rec := postQuery(r, "{ db }")
			if rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != tc.want {
				t.Fatalf("%d WWW-Authenticate %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
			}
			if _, c := statusAndCode(t, rec.Code, rec.Body.Bytes()); c != CodeUnauthenticated {
				t.Fatalf("code %q", c)
			}
		})
	}
}

func TestExecuteRunsTheAuthHook(t *testing.T) {
	r := quietRouter(t, nil, Config{Auth: func(ctx context.Context, raw *AuthRequest) (context.Context, error) {
		if raw.Header("Authorization") != "Bearer ok" {
			return nil, errors.New("missing token")
		}
		return ctx, nil
	}})
	status, body := r.Execute(context.Background(), Request{Query: "{ __typename }"})
	if st, c := statusAndCode(t, status, body); st != 401 || c != CodeUnauthenticated {
		t.Fatalf("without token: %d %s", status, body)
	}
	status, body = r.Execute(context.Background(), Request{Query: "{ __typename }", Header: func(name string) string {
		if name == "Authorization" {
			return "Bearer ok"
		}
		return ""
	}})
	if status != 200 || string(body) != `{"data":{"__typename":"Query"}}` {
		t.Fatalf("with token: %d %s", status, body)
	}
}

func TestLazyStartHasItsOwnTimeout(t *testing.T) {
	var deadline time.Time
	var hasDeadline bool
	l := &Layer{StartTimeout: time.Hour}
	Provide(l, func(ctx context.Context) (*db, func(context.Context) error, error) {
		deadline, hasDeadline = ctx.Deadline()
		return &db{name: "main"}, nil, nil
	})
	before := time.Now()
	status, body := quietRouter(t, l, Config{}).Execute(context.Background(), Request{Query: "{ db }"})
	if status != 200 || string(body) != `{"data":{"db":"main"}}` {
		t.Fatalf("%d %s", status, body)
	}
	if !hasDeadline || deadline.Before(before.Add(time.Hour)) {
		t.Fatalf("builder's context deadline = %v (set %v), want StartTimeout after the start", deadline, hasDeadline)
	}
}
