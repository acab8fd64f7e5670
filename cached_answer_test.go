package graft_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/workload"
)

// introspect posts the standard introspection query and returns the
// status and body.
func introspect(t *testing.T, h http.Handler) (int, []byte) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": workload.Q4})
	req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code, w.Body.Bytes()
}

// TestCachedAnswerSurvivesWhatFollowsIt serves the introspection query,
// whose answer the engine caches and ServeHTTP sends as it is, through
// the steps that may replace an answer after execution (a hook refusing
// it, extensions added by a hook): the answers change as they should, and
// the cached answer stays as it was for the requests after them.
func TestCachedAnswerSurvivesWhatFollowsIt(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	var refuse, extend atomic.Bool
	hook := graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
		switch {
		case ev.Phase == graft.PhaseExecuted && extend.Load():
			graft.SetExtension(ctx, "traced", true)
		case ev.Phase == graft.PhaseAnswered && refuse.Load():
			return graft.NewError("FORBIDDEN", "refused after the fact")
		}
		return nil
	}}
	r, err := graft.NewRouter(s, nil, graft.Config{Hooks: []graft.Hook{hook}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, want := introspect(t, plain)
	if !bytes.HasPrefix(want, []byte(`{"data":{"__schema":`)) {
		t.Fatalf("introspection answered %.200s", want)
	}
	for round := range 3 {
		if code, got := introspect(t, r); code != http.StatusOK || !bytes.Equal(got, want) {
			t.Fatalf("round %d: %d %.200s, want the plain router's answer", round, code, got)
		}
		refuse.Store(true)
		code, got := introspect(t, r)
		refuse.Store(false)
		if code != http.StatusForbidden || !strings.Contains(string(got), `"FORBIDDEN"`) || strings.Contains(string(got), "__schema") {
			t.Fatalf("round %d, refused: %d %.200s", round, code, got)
		}
		extend.Store(true)
		code, got = introspect(t, r)
		extend.Store(false)
		if code != http.StatusOK || !bytes.HasSuffix(got, []byte(`,"extensions":{"traced":true}}`)) ||
			!bytes.Equal(got[:len(want)-1], want[:len(want)-1]) {
			t.Fatalf("round %d, with an extension: %d ...%s", round, code, got[max(0, len(got)-80):])
		}
	}
	// Execute copies the answer; it too is unchanged.
	status, body := r.Execute(context.Background(), graft.Request{Query: workload.Q4})
	if status != http.StatusOK || !bytes.Equal(body, want) {
		t.Fatalf("Execute: %d %.200s", status, body)
	}
}
