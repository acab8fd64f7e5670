package graft_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
)

// Regression tests of the door every request passes: each names the bug
// it guards against.

// countingHook counts the calls it gets, by phase and kind, and the
// answers it saw.
type countingHook struct {
	mu      sync.Mutex
	calls   map[string]int
	answers []graft.HookEvent
}

func (h *countingHook) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string]int{}
	}
	h.calls["before "+ev.Phase.String()]++
	return nil, nil
}

func (h *countingHook) After(ctx context.Context, ev *graft.HookEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string]int{}
	}
	h.calls["after "+ev.Phase.String()]++
	if ev.Phase == graft.PhaseAnswered {
		h.answers = append(h.answers, *ev)
	}
}

func (h *countingHook) count(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls[key]
}

// accessLines is an access log that keeps its records' attributes.
func accessLines() (*slog.Logger, *logLines) {
	l := &logLines{}
	return slog.New(l), l
}

// Bug 1: with any hook installed, graft.Service and RequestInfoFrom failed
// for every operation sent over WebSocket.
func TestWebSocketResolversSeeTheRequestWithHooks(t *testing.T) {
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{graft.HookFuncs{}}})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	ws := dialWSWith(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql", wsOptions("Authorization", "Bearer ws"))
	ws.init()
	ws.send(`{"id":"1","type":"subscribe","payload":{"query":"{ greeting authorization }"}}`)
	ws.expect(`{"id":"1","type":"next","payload":{"data":{"greeting":"hi","authorization":"Bearer ws"}}}`)
}

// Bug 2: requests refused before execution reached no hook, no access-log
// line and no metric, and carried no X-Request-ID.
func TestRefusalsPassTheDoor(t *testing.T) {
	hook := &countingHook{}
	access, lines := accessLines()
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{hook}, AccessLog: access, CSRF: &graft.CSRFConfig{},
		Auth: func(ctx context.Context, a *graft.AuthRequest) (context.Context, error) {
			if a.Header("Authorization") == "deny" {
				return nil, graft.NewError(graft.CodeUnauthenticated, "no")
			}
			return ctx, nil
		}})
	cases := []struct {
		name   string
		res    func() *reply
		status int
	}{
		{"bad JSON", func() *reply { return send(t, r, "POST", "/graphql", `{"query":`) }, 400},
		{"CSRF", func() *reply { return send(t, r, "GET", "/graphql?query=%7Bhello%7D", "") }, 400},
		{"401", func() *reply { return post(t, r, `{ hello }`, "Authorization", "deny") }, 401},
		{"404", func() *reply { return send(t, r, "GET", "/elsewhere", "") }, 404},
		{"406", func() *reply { return post(t, r, `{ hello }`, "Accept", "image/png") }, 406},
		{"415", func() *reply {
			return send(t, r, "POST", "/graphql", `<q/>`, "Content-Type", "application/xml", "Apollo-Require-Preflight", "1")
		}, 415},
	}
	for i, c := range cases {
		res := c.res()
		if res.status != c.status {
			t.Fatalf("%s: status %d %s", c.name, res.status, res.raw)
		}
		id := res.header.Get(graft.RequestIDHeader)
		if id == "" {
			t.Errorf("%s: no X-Request-ID", c.name)
		}
		if n := hook.count("after answered"); n != i+1 {
			t.Errorf("%s: hook saw %d answers, want %d", c.name, n, i+1)
		}
		lines.mu.Lock()
		if len(lines.lines) != i+1 || lines.lines[i]["status"] != int64(c.status) || lines.lines[i]["request_id"] != id {
			t.Errorf("%s: access log %v", c.name, lines.lines)
		}
		lines.mu.Unlock()
	}
}

// Bug 3: a hook's refusal replaced the response headers, dropping the
// X-Request-ID; and it could only answer 400, 401 or 403.
func TestHookRefusalKeepsHeadersAndStatus(t *testing.T) {
	refuse := graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
		switch ev.Request.Header("X-Refuse") {
		case "forbidden":
			return graft.NewError(graft.CodeForbidden, "no")
		case "busy":
			return &graft.Refusal{Status: http.StatusServiceUnavailable, Header: http.Header{"Retry-After": {"30"}},
				Err: graft.NewError("DEPENDENCY_DOWN", "try later")}
		case "limited":
			return &graft.Refusal{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"2"}}}
		}
		return nil
	}}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{refuse}, RequestID: true})
	for _, c := range []struct {
		refuse, retry, code string
		status              int
	}{
		{"forbidden", "", "FORBIDDEN", 403},
		{"busy", "30", "DEPENDENCY_DOWN", 503},
		{"limited", "2", "TOO_MANY_REQUESTS", 429},
	} {
		res := post(t, r, `{ hello }`, "X-Refuse", c.refuse, "X-Request-ID", "req-"+c.refuse)
		if res.status != c.status || res.code(0) != c.code || res.header.Get("Retry-After") != c.retry ||
			res.header.Get(graft.RequestIDHeader) != "req-"+c.refuse {
			t.Errorf("%s: %d %v %s", c.refuse, res.status, res.header, res.raw)
		}
	}
}

// A hook that refuses at the first phase is not called again for the
// last; the hooks after it see the answer, with Received false.
func TestRefusingHookIsNotCalledAgain(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	refuser := graft.HookFuncs{
		BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
			mu.Lock()
			calls++
			mu.Unlock()
			return graft.NewError(graft.CodeForbidden, "no")
		},
		AfterFunc: func(ctx context.Context, ev *graft.HookEvent) {
			mu.Lock()
			calls++
			mu.Unlock()
		},
	}
	before, after := &countingHook{}, &countingHook{}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{before, refuser, after}})
	if res := post(t, r, `{ hello }`); res.status != 403 {
		t.Fatalf("status %d", res.status)
	}
	if calls != 1 {
		t.Errorf("the refusing hook was called %d times, want 1", calls)
	}
	// The hook before it ends the phase it began; the one after it never
	// began one.
	if before.count("before received") != 1 || before.count("after received") != 1 || before.count("after answered") != 1 {
		t.Errorf("hook before: %v", before.calls)
	}
	if after.count("before received") != 0 || after.count("after answered") != 1 || after.answers[0].Received {
		t.Errorf("hook after: %v %+v", after.calls, after.answers)
	}
	if !before.answers[0].Received {
		t.Errorf("the hook before saw Received false")
	}
}

// Bug 4: no hook ran per subscription event.
func TestHooksSeeEachSubscriptionEvent(t *testing.T) {
	hook := &countingHook{}
	srv, _ := chatServer(t, graft.Config{Hooks: []graft.Hook{hook}})
	res := streamPost(t, srv, "text/event-stream", `{"query":"subscription { countdown(from: 2) }"}`)
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	readAll(t, res)
	waitFor(t, func() bool { return hook.count("after answered") == 1 })
	if hook.count("before payload") != 3 || hook.count("after payload") != 3 {
		t.Errorf("payload phases %v, want 3 each", hook.calls)
	}
}

// Bug 5: error codes and extensions were parsed back out of the answer's
// JSON; hooks get them as values.
func TestHooksSeeErrorsAsValues(t *testing.T) {
	hook := &countingHook{}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{hook}})
	post(t, r, `{ hello fail }`)
	ev := hook.answers[0]
	if len(ev.Errors) != 1 || ev.Errors[0].Extensions["code"] != "FORBIDDEN" || ev.ErrorCodes[0] != "FORBIDDEN" ||
		ev.Errors[0].Message != "not allowed" || len(ev.Errors[0].Path) != 1 {
		t.Fatalf("errors %+v codes %v", ev.Errors, ev.ErrorCodes)
	}
	post(t, r, `{ hello`)
	if ev := hook.answers[1]; len(ev.Errors) != 1 || ev.ErrorCodes[0] != graft.CodeParseFailed {
		t.Fatalf("parse error: %+v", ev.Errors)
	}
}

// Bug 6: every operation of an HTTP batch shared one request ID and the
// answer carried none; the answer carries the request's ID, and each
// operation is logged with its position.
func TestBatchAnswerCarriesItsIDAndLogsEachItem(t *testing.T) {
	access, lines := accessLines()
	r := newTestRouter(t, graft.Config{MaxBatch: 3, AccessLog: access})
	res := send(t, r, "POST", "/graphql", `[{"query":"{ hello }"},{"query":"{ nope }"},{"query":"{ greeting }"}]`,
		graft.RequestIDHeader, "batch-7")
	if res.status != 200 || res.header.Get(graft.RequestIDHeader) != "batch-7" {
		t.Fatalf("batch: %d %v %s", res.status, res.header, res.raw)
	}
	lines.mu.Lock()
	defer lines.mu.Unlock()
	if len(lines.lines) != 3 {
		t.Fatalf("access log %v, want one line per operation", lines.lines)
	}
	for i, l := range lines.lines {
		if l["batch_item"] != int64(i+1) || l["request_id"] != "batch-7" {
			t.Errorf("line %d: %v", i, l)
		}
	}
	if lines.lines[1]["status"] != int64(400) {
		t.Errorf("the invalid operation's line: %v", lines.lines[1])
	}
}

// A WebSocket operation's RequestInfo has its request ID, method and
// client address, so its access-log line has them.
func TestWebSocketOperationIsIdentified(t *testing.T) {
	access, lines := accessLines()
	r := newTestRouter(t, graft.Config{AccessLog: access})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	ws := dialWSWith(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql", wsOptions())
	ws.init()
	ws.send(`{"id":"1","type":"subscribe","payload":{"query":"{ hello }"}}`)
	ws.expect(`{"id":"1","type":"next","payload":{"data":{"hello":"world"}}}`)
	ws.expect(`{"id":"1","type":"complete"}`)
	waitFor(t, func() bool { lines.mu.Lock(); defer lines.mu.Unlock(); return len(lines.lines) == 1 })
	lines.mu.Lock()
	defer lines.mu.Unlock()
	l := lines.lines[0]
	if l["method"] != "GET" || l["remote"] == "" || l["request_id"] == "" || l["status"] != int64(200) {
		t.Fatalf("access-log line %v", l)
	}
}

// readAll reads a streamed answer to its end.
func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

// wsOptions dials graphql-transport-ws with the given header pairs.
func wsOptions(header ...string) *websocket.DialOptions {
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: h}
}

// Persisted-query misses and hash mismatches are logged, and their
// answers carry the request ID like every other.
func TestPersistedQueryRefusalsCarryTheRequestID(t *testing.T) {
	access, lines := accessLines()
	r := newTestRouter(t, graft.Config{AccessLog: access, PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	miss := send(t, r, "POST", "/graphql", `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"`+strings.Repeat("ab", 32)+`"}}}`)
	mismatch := send(t, r, "POST", "/graphql", `{"query":"{ hello }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"`+strings.Repeat("cd", 32)+`"}}}`)
	for i, res := range []*reply{miss, mismatch} {
		id := res.header.Get(graft.RequestIDHeader)
		if id == "" {
			t.Errorf("answer %d: %d %v %s", i, res.status, res.header, res.raw)
		}
		lines.mu.Lock()
		if len(lines.lines) <= i || lines.lines[i]["request_id"] != id {
			t.Errorf("answer %d: access log %v", i, lines.lines)
		}
		lines.mu.Unlock()
	}
	if miss.code(0) != graft.CodePersistedQueryNotFound || mismatch.code(0) != graft.CodePersistedQueryHashMismatch {
		t.Errorf("codes %v %v", miss.code(0), mismatch.code(0))
	}
}
