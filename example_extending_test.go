package graft_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// exampleRouter builds a router over a one-field schema with cfg.
func exampleRouter(cfg graft.Config) *graft.Router {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "world", nil })
	s, err := b.Build()
	if err != nil {
		panic(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		panic(err)
	}
	return r
}

// examplePost sends a query to h as user and returns the recorder.
func examplePost(h http.Handler, user, query string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"`+query+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-User", user)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// userKey carries the user Config.Auth accepted.
type exampleUserKey struct{}

// rateLimiter is a Hook allowing each user limit requests per window: the
// next is refused with 429 and Retry-After. (A fixed window in memory,
// to show the seam; a real one keeps its counts bounded and shared.)
type rateLimiter struct {
	limit  int
	window time.Duration
	mu     sync.Mutex
	start  time.Time
	counts map[string]int
}

func (l *rateLimiter) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	if ev.Phase != graft.PhaseReceived {
		return nil, nil
	}
	user, _ := ctx.Value(exampleUserKey{}).(string)
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := time.Now(); now.Sub(l.start) > l.window {
		l.start, l.counts = now, map[string]int{}
	}
	l.counts[user]++
	if l.counts[user] <= l.limit {
		return nil, nil
	}
	retry := int(time.Until(l.start.Add(l.window)).Seconds()) + 1
	return nil, &graft.Refusal{
		Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {fmt.Sprint(retry)}},
		Err:    graft.NewError("RATE_LIMITED", "Too many requests: slow down"),
	}
}

func (l *rateLimiter) After(context.Context, *graft.HookEvent) {}

// A hook limits each user (as Config.Auth identified them) to two
// requests a minute: the third is answered 429 with Retry-After, and
// another user is not affected.
func ExampleRefusal_rateLimit() {
	r := exampleRouter(graft.Config{
		Auth: func(ctx context.Context, a *graft.AuthRequest) (context.Context, error) {
			return context.WithValue(ctx, exampleUserKey{}, a.Header("X-User")), nil
		},
		Hooks: []graft.Hook{&rateLimiter{limit: 2, window: time.Minute}},
	})
	for _, user := range []string{"ann", "ann", "ann", "bob"} {
		rec := examplePost(r, user, "{ hello }")
		fmt.Println(user, rec.Code, rec.Header().Get("Retry-After") != "", strings.TrimSpace(rec.Body.String()))
	}
	// Output:
	// ann 200 false {"data":{"hello":"world"}}
	// ann 200 false {"data":{"hello":"world"}}
	// ann 429 true {"errors":[{"message":"Too many requests: slow down","extensions":{"code":"RATE_LIMITED"}}]}
	// bob 200 false {"data":{"hello":"world"}}
}

// An allow-list in production: only documents whose SHA-256 is listed
// run; any other is refused with 403 once it is parsed.
func ExampleHookFuncs_allowList() {
	// The SHA-256 of each query the clients ship, listed at build time.
	sum := sha256.Sum256([]byte("{ hello }"))
	allowed := map[string]bool{hex.EncodeToString(sum[:]): true}
	allowList := graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
		if ev.Phase == graft.PhaseValidated && !allowed[ev.DocumentHash()] {
			return graft.NewError(graft.CodeForbidden, "This operation is not on the allow-list")
		}
		return nil
	}}
	r := exampleRouter(graft.Config{Hooks: []graft.Hook{allowList}})
	for _, q := range []string{"{ hello }", "{ __typename }"} {
		rec := examplePost(r, "", q)
		fmt.Println(rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	// Output:
	// 200 {"data":{"hello":"world"}}
	// 403 {"errors":[{"message":"This operation is not on the allow-list","extensions":{"code":"FORBIDDEN"}}]}
}

// tracer is a custom tracer: it records the phases of each request and
// the status of its answer. A real one would start spans in Before and
// end them in After, returning the span's context so resolvers run
// inside it.
type tracer struct {
	mu    sync.Mutex
	lines []string
}

func (t *tracer) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	return nil, nil
}

func (t *tracer) After(ctx context.Context, ev *graft.HookEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	line := ev.Phase.String()
	if ev.Phase == graft.PhaseAnswered {
		line += fmt.Sprintf(" status=%d errors=%v", ev.Status, ev.ErrorCodes)
	}
	t.lines = append(t.lines, line)
}

// A custom tracer sees every phase of a request, and sees refusals too: a
// request refused before it is decoded passes PhaseAnswered alone.
func ExampleHook_tracer() {
	t := &tracer{}
	r := exampleRouter(graft.Config{Hooks: []graft.Hook{t}})
	examplePost(r, "", "query Greeting { hello }")
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":`))
	req.Header.Set("Content-Type", "application/json")
	r.ServeHTTP(httptest.NewRecorder(), req)
	fmt.Println(strings.Join(t.lines, "\n"))
	// Output:
	// received
	// parsed
	// validated
	// analyzed
	// executed
	// answered status=200 errors=[]
	// answered status=400 errors=[BAD_REQUEST]
}
