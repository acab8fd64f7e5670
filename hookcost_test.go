package graft_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/accesslog"
	"github.com/graftgql/graft/examples/blog"
)

// phaseRecorder records the phases its Before and After see; with
// phases set it observes only those (graft.HookPhases), with skip it
// calls SkipPhases in its Before of PhaseReceived, and with doneAt it
// calls SkipRequest where it records that call ("after parsed").
type phaseRecorder struct {
	phases []graft.Phase
	skip   bool
	doneAt string
	seen   *[]string
}

func (h phaseRecorder) Before(_ context.Context, ev *graft.HookEvent) (context.Context, error) {
	h.record(ev, "before "+ev.Phase.String())
	if h.skip && ev.Phase == graft.PhaseReceived {
		ev.SkipPhases()
	}
	return nil, nil
}

func (h phaseRecorder) After(_ context.Context, ev *graft.HookEvent) {
	h.record(ev, "after "+ev.Phase.String())
}

func (h phaseRecorder) record(ev *graft.HookEvent, call string) {
	*h.seen = append(*h.seen, call)
	if call == h.doneAt {
		ev.SkipRequest()
	}
}

type phaseFilter struct{ phaseRecorder }

func (h phaseFilter) Phases() []graft.Phase { return h.phases }

// TestHookPhasesAndSkip: a hook naming its phases is called for those and
// PhaseAnswered only; a hook calling SkipPhases in PhaseReceived gets
// PhaseAnswered alone afterwards; a hook beside them still sees every
// phase.
func TestHookPhasesAndSkip(t *testing.T) {
	var filtered, skipping, all []string
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{
		phaseFilter{phaseRecorder{phases: []graft.Phase{graft.PhaseParsed}, seen: &filtered}},
		phaseRecorder{skip: true, seen: &skipping},
		phaseRecorder{seen: &all},
	}})
	if status, body := r.Execute(context.Background(), graft.Request{Query: "{ __typename }"}); status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	want := []string{"before parsed", "after parsed", "before answered", "after answered"}
	if !slices.Equal(filtered, want) {
		t.Errorf("a hook observing PhaseParsed saw %v, want %v", filtered, want)
	}
	want = []string{"before received", "after received", "before answered", "after answered"}
	if !slices.Equal(skipping, want) {
		t.Errorf("a hook that skipped the phases saw %v, want %v", skipping, want)
	}
	for _, p := range []string{"received", "parsed", "validated", "analyzed", "executed", "answered"} {
		if !slices.Contains(all, "before "+p) || !slices.Contains(all, "after "+p) {
			t.Errorf("a hook observing every phase missed %s: %v", p, all)
		}
	}
}

// TestHookSkipRequest: a hook calling SkipRequest is called no more for
// the request, PhaseAnswered included; called from a Before, not for that
// phase's After either. A hook beside it still sees every phase.
func TestHookSkipRequest(t *testing.T) {
	for _, doneAt := range []string{"before received", "after parsed", "before answered"} {
		var done, all []string
		r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{
			phaseRecorder{doneAt: doneAt, seen: &done},
			phaseRecorder{seen: &all},
		}})
		if status, body := r.Execute(context.Background(), graft.Request{Query: "{ __typename }"}); status != 200 {
			t.Fatalf("status %d: %s", status, body)
		}
		want := []string{"before received", "after received", "before parsed", "after parsed", "before validated", "after validated",
			"before analyzed", "after analyzed", "before executed", "after executed", "before answered", "after answered"}
		if !slices.Equal(all, want) {
			t.Errorf("%s: the hook beside saw %v, want %v", doneAt, all, want)
		}
		if want = want[:slices.Index(want, doneAt)+1]; !slices.Equal(done, want) {
			t.Errorf("%s: the hook done with the request saw %v, want %v", doneAt, done, want)
		}
	}
}

// TestHookManyHooks: with more than 64 hooks, each is still called for
// exactly the phases it observes; SkipRequest and SkipPhases work for the
// first 64 and do nothing for the others.
func TestHookManyHooks(t *testing.T) {
	const n = 70
	all := []string{"before received", "after received", "before parsed", "after parsed", "before validated", "after validated",
		"before analyzed", "after analyzed", "before executed", "after executed", "before answered", "after answered"}
	seen := make([][]string, n)
	want := make([][]string, n)
	hooks := make([]graft.Hook, n)
	for i := range hooks {
		rec := phaseRecorder{seen: &seen[i]}
		want[i] = all
		switch i {
		case 2, 67: // done with the request at once
			rec.doneAt = "before received"
			if i == 2 {
				want[i] = all[:1]
			}
		case 3, 68: // only PhaseAnswered after PhaseReceived
			rec.skip = true
			if i == 3 {
				want[i] = []string{"before received", "after received", "before answered", "after answered"}
			}
		}
		hooks[i] = rec
		if i == 5 || i == 66 {
			rec.phases = []graft.Phase{graft.PhaseValidated}
			hooks[i] = phaseFilter{rec}
			want[i] = []string{"before validated", "after validated", "before answered", "after answered"}
		}
	}
	r := newTestRouter(t, graft.Config{Hooks: hooks})
	if status, body := r.Execute(context.Background(), graft.Request{Query: "{ __typename }"}); status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	for i := range hooks {
		if !slices.Equal(seen[i], want[i]) {
			t.Errorf("hook %d saw %v, want %v", i, seen[i], want[i])
		}
	}

	// A phase only a hook past the 64th observes is still run and timed.
	var last []string
	hooks = hooks[:0]
	for range 64 {
		hooks = append(hooks, phaseFilter{phaseRecorder{phases: []graft.Phase{graft.PhaseValidated}, seen: new([]string)}})
	}
	hooks = append(hooks, phaseRecorder{seen: &last})
	r = newTestRouter(t, graft.Config{Hooks: hooks})
	if status, body := r.Execute(context.Background(), graft.Request{Query: "{ __typename }"}); status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	if !slices.Equal(last, all) {
		t.Errorf("the 65th hook saw %v, want %v", last, all)
	}
}

// twoPhaseHook observes PhaseReceived and PhaseAnswered only, as the
// metrics do.
type twoPhaseHook struct{ n *int }

func (twoPhaseHook) Phases() []graft.Phase { return []graft.Phase{graft.PhaseReceived} }
func (h twoPhaseHook) Before(context.Context, *graft.HookEvent) (context.Context, error) {
	return nil, nil
}
func (h twoPhaseHook) After(_ context.Context, ev *graft.HookEvent) {
	if ev.Phase == graft.PhaseAnswered {
		*h.n += ev.ErrorCount + 1
	}
}

// TestHookAllocations bounds what observing requests costs in
// allocations per request over net/http, beside a router with no hooks:
// a hook observing PhaseReceived and PhaseAnswered costs none (its run,
// the answer's errors and the state share the request's allocation);
// the access log through an accesslog.Handler costs none either (its
// line is formatted into the writer's buffer, the request ID into the
// state's memory, and the answer's header map comes from a pool).
func TestHookAllocations(t *testing.T) {
	// The race detector allocates on its own: the counts are checked in
	// builds without it (.ci/run runs this test so too).
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(cfg graft.Config) float64 {
		r, err := graft.NewRouter(s, nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		body := []byte(`{"query":"{ hello }"}`)
		rd := bytes.NewReader(body)
		req := httptest.NewRequest(http.MethodPost, "/graphql", io.NopCloser(rd))
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = int64(len(body))
		w := &discardResponse{h: http.Header{}}
		return testing.AllocsPerRun(500, func() {
			rd.Reset(body)
			clear(w.h)
			r.ServeHTTP(w, req)
			if w.status != http.StatusOK {
				t.Fatalf("status %d", w.status)
			}
		})
	}
	plain := allocs(graft.Config{})
	var n int
	if got := allocs(graft.Config{Hooks: []graft.Hook{twoPhaseHook{&n}}}); !raceEnabled && got > plain {
		t.Errorf("a hook observing two phases costs %.0f allocations per request, none wanted (%.0f against %.0f)", got-plain, got, plain)
	}
	if n == 0 {
		t.Error("the hook saw no answer")
	}
	w := accesslog.NewWriter(io.Discard, accesslog.WriterOptions{})
	defer w.Close()
	logger := slog.New(accesslog.NewHandler(w, nil))
	if got := allocs(graft.Config{AccessLog: logger}); !raceEnabled && got > plain {
		t.Errorf("the access log costs %.0f allocations per request, want none (%.0f against %.0f)", got-plain, got, plain)
	}
}

// discardResponse keeps the status and drops the body.
type discardResponse struct {
	h      http.Header
	status int
}

func (w *discardResponse) Header() http.Header { return w.h }
func (w *discardResponse) WriteHeader(s int)   { w.status = s }
func (w *discardResponse) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}
