package graft_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// recorder is a hook that records the phases it sees.
type recorder struct {
	mu     sync.Mutex
	events []string
	last   graft.HookEvent
}

func (h *recorder) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, "before "+ev.Phase.String())
	if ev.Phase == graft.PhaseReceived {
		return context.WithValue(ctx, recorderKey{}, "derived"), nil
	}
	return nil, nil
}

type recorderKey struct{}

func (h *recorder) After(ctx context.Context, ev *graft.HookEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, "after "+ev.Phase.String())
	h.last = *ev
}

func TestHooksSeeEveryPhase(t *testing.T) {
	rec := &recorder{}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{rec}})
	res := post(t, r, `query Q { hello fail }`)
	if res.status != http.StatusOK {
		t.Fatalf("status %d: %s", res.status, res.raw)
	}
	want := []string{"before received", "after received", "before parsed", "after parsed", "before validated",
		"after validated", "before analyzed", "after analyzed", "before executed", "after executed", "before answered", "after answered"}
	if !slices.Equal(rec.events, want) {
		t.Fatalf("events %v\nwant %v", rec.events, want)
	}
	if rec.last.ErrorCount != 1 || rec.last.ErrorCodes[0] != "FORBIDDEN" || rec.last.Status != 200 || rec.last.OperationType != "query" || rec.last.OperationName != "Q" {
		t.Fatalf("last event %+v", rec.last)
	}
}

func TestHookParseErrorStillAnswered(t *testing.T) {
	rec := &recorder{}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{rec}})
	res := post(t, r, `{ hello`)
	if res.status != http.StatusBadRequest {
		t.Fatalf("status %d", res.status)
	}
	want := []string{"before received", "after received", "before parsed", "after parsed", "before answered", "after answered"}
	if !slices.Equal(rec.events, want) || rec.last.ErrorCount != 1 || rec.last.Status != 400 {
		t.Fatalf("events %v last %+v", rec.events, rec.last)
	}
}

func TestHookRejects(t *testing.T) {
	h := graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
		if ev.Phase == graft.PhaseAnalyzed && ev.OperationType == "mutation" {
			return graft.NewError(graft.CodeForbidden, "read-only")
		}
		return nil
	}}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{h}})
	res := post(t, r, `mutation { rename(name: "x") }`)
	if res.status != http.StatusForbidden || res.code(0) != graft.CodeForbidden || res.body.Errors[0]["message"] != "read-only" {
		t.Fatalf("status %d: %s", res.status, res.raw)
	}
	if res := post(t, r, `{ hello }`); res.status != 200 || res.body.Data["hello"] != "world" {
		t.Fatalf("query: %d %s", res.status, res.raw)
	}
}

func TestFailingHookIsLoggedNotFatal(t *testing.T) {
	var logs bytes.Buffer
	hooks := []graft.Hook{
		graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error { return errors.New("metrics down") }},
		graft.HookFuncs{AfterFunc: func(ctx context.Context, ev *graft.HookEvent) { panic("hook bug") }},
	}
	r := newTestRouter(t, graft.Config{Hooks: hooks, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	res := post(t, r, `{ hello }`)
	if res.status != 200 || res.body.Data["hello"] != "world" {
		t.Fatalf("%d %s", res.status, res.raw)
	}
	if !strings.Contains(logs.String(), "metrics down") || !strings.Contains(logs.String(), "hook bug") {
		t.Fatalf("log: %s", logs.String())
	}
}

func TestSetExtensionFromHookAndResolver(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) {
		graft.SetExtension(ctx, "fromResolver", 7)
		return "world", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	h := graft.HookFuncs{AfterFunc: func(ctx context.Context, ev *graft.HookEvent) {
		if ev.Phase == graft.PhaseExecuted {
			graft.SetExtension(ctx, "phase", ev.Phase.String())
		}
	}}
	r, err := graft.NewRouter(s, nil, graft.Config{Hooks: []graft.Hook{h}, ReportComplexity: true, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ hello }`)
	ext := res.body.Extensions
	if ext["fromResolver"] != float64(7) || ext["phase"] != "executed" || ext["complexity"] == nil || res.body.Data["hello"] != "world" {
		t.Fatalf("%s", res.raw)
	}
	// Through Execute too.
	_, body := r.Execute(context.Background(), graft.Request{Query: `{ hello }`})
	if !strings.Contains(string(body), `"fromResolver":7`) || !strings.Contains(string(body), `"phase":"executed"`) {
		t.Fatalf("%s", body)
	}
}

func TestRequestIDAndResponseHeader(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "login", func(ctx context.Context) (string, error) {
		graft.SetResponseHeader(ctx, "X-Shard", "7")
		graft.SetCookie(ctx, &http.Cookie{Name: "session", Value: "abc", HttpOnly: true})
		info := graft.RequestInfoFrom(ctx)
		return info.Method + " " + info.RequestID, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	r, err := graft.NewRouter(s, nil, graft.Config{AccessLog: slog.New(slog.NewJSONHandler(&logs, nil)), Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `query Login { login }`, "X-Request-ID", "req-42")
	if res.header.Get("X-Request-ID") != "req-42" || res.header.Get("X-Shard") != "7" ||
		!strings.HasPrefix(res.header.Get("Set-Cookie"), "session=abc") || res.body.Data["login"] != "POST req-42" {
		t.Fatalf("%v %s", res.header, res.raw)
	}
	line := logs.String()
	for _, want := range []string{`"request_id":"req-42"`, `"status":200`, `"operation_name":"Login"`, `"operation_type":"query"`, `"method":"POST"`, `"errors":0`} {
		if !strings.Contains(line, want) {
			t.Fatalf("access log %s lacks %s", line, want)
		}
	}
	if strings.Count(line, "\n") != 1 {
		t.Fatalf("want one line: %s", line)
	}
	// Generated when absent or invalid.
	res = post(t, r, `{ login }`, "X-Request-ID", "bad id")
	if id := res.header.Get("X-Request-ID"); len(id) != 32 || res.body.Data["login"] != "POST "+id {
		t.Fatalf("%v %s", res.header, res.raw)
	}
}

func TestInternalErrorLogCarriesRequestID(t *testing.T) {
	var logs bytes.Buffer
	r := newTestRouter(t, graft.Config{RequestID: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	b, _ := jsonBody(`query Boom { boom }`, "Boom")
	send(t, r, http.MethodPost, "/graphql", b, "X-Request-ID", "rid-1")
	if !strings.Contains(logs.String(), "request_id=rid-1") || !strings.Contains(logs.String(), "operation=Boom") {
		t.Fatalf("log: %s", logs.String())
	}
}

func TestHookContextReachesResolvers(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "seen", func(ctx context.Context) (string, error) {
		v, _ := ctx.Value(recorderKey{}).(string)
		return v, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	r, err := graft.NewRouter(s, nil, graft.Config{Hooks: []graft.Hook{rec}, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	if res := post(t, r, `{ seen }`); res.body.Data["seen"] != "derived" || rec.last.DocumentCached {
		t.Fatalf("%s %+v", res.raw, rec.last)
	}
	if post(t, r, `{ seen }`); !rec.last.DocumentCached {
		t.Fatalf("second request: document not reported cached")
	}
}

// TestHooksSeeSubscriptions shows the hooks on the SSE transport: a
// subscription runs the phases up to its start, and a hook can refuse it.
func TestHooksSeeSubscriptions(t *testing.T) {
	rec := &recorder{}
	srv, _ := chatServer(t, graft.Config{Hooks: []graft.Hook{rec}})
	resp := streamPost(t, srv, "text/event-stream", `{"query":"subscription Count { countdown(from: 0) }"}`)
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `{"data":{"countdown":0}}`) {
		t.Fatalf("%s", body)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !slices.Contains(rec.events, "after executed") || rec.last.OperationType != "subscription" || rec.last.OperationName != "Count" {
		t.Fatalf("events %v last %+v", rec.events, rec.last)
	}
}

func TestHookRejectsSubscription(t *testing.T) {
	h := graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
		if ev.Phase == graft.PhaseExecuted && ev.OperationType == "subscription" {
			return graft.NewError(graft.CodeForbidden, "no streams today")
		}
		return nil
	}}
	srv, _ := chatServer(t, graft.Config{Hooks: []graft.Hook{h}})
	resp := streamPost(t, srv, "text/event-stream", `{"query":"subscription { countdown(from: 0) }"}`)
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "no streams today") || !strings.Contains(string(body), "FORBIDDEN") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

// TestHookDocumentHash: from PhaseParsed on, a hook can name the document
// by its SHA-256, as automatic persisted queries do; not before, and not
// once the request is answered.
func TestHookDocumentHash(t *testing.T) {
	var before, parsed, answered string
	var kept *graft.HookEvent
	h := graft.HookFuncs{
		BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
			if ev.Phase == graft.PhaseParsed {
				before = ev.DocumentHash()
			}
			return nil
		},
		AfterFunc: func(ctx context.Context, ev *graft.HookEvent) {
			switch ev.Phase {
			case graft.PhaseParsed:
				parsed = ev.DocumentHash()
			case graft.PhaseAnswered:
				answered, kept = ev.DocumentHash(), ev
			}
		},
	}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{h}})
	const query = `query Q { hello }`
	if res := post(t, r, query); res.status != http.StatusOK {
		t.Fatalf("status %d: %s", res.status, res.raw)
	}
	sum := sha256.Sum256([]byte(query))
	want := hex.EncodeToString(sum[:])
	if before != "" || parsed != want || answered != want {
		t.Fatalf("before parsing %q, after %q, answered %q; want \"\", %s, %s", before, parsed, answered, want, want)
	}
	if kept.DocumentHash() != want {
		t.Fatalf("a computed hash stays with its event: %q", kept.DocumentHash())
	}
}

// TestHookRefusal: a hook refuses with 429 and Retry-After.
func TestHookRefusal(t *testing.T) {
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{graft.HookFuncs{BeforeFunc: func(_ context.Context, ev *graft.HookEvent) error {
		if ev.Phase != graft.PhaseExecuted {
			return nil
		}
		return &graft.Refusal{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"7"}},
			Err: graft.NewError("RATE_LIMITED", "slow down")}
	}}}})
	got := post(t, r, `{ hello }`)
	if got.status != 429 || got.header.Get("Retry-After") != "7" || got.code(0) != "RATE_LIMITED" {
		t.Fatalf("%d %v %s", got.status, got.header, got.raw)
	}
}
