package graft

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/schema"
)

func TestWatchdogEndsAtTheDeadline(t *testing.T) {
	var w watchdog
	d := w.start(context.Background(), time.Millisecond)
	defer d.finish()
	<-d.Done()
	if !errors.Is(d.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(d), context.DeadlineExceeded) {
		t.Fatalf("Err %v, Cause %v; want the deadline exceeded", d.Err(), context.Cause(d))
	}
	if dl, ok := d.Deadline(); !ok || dl.IsZero() {
		t.Fatalf("Deadline() = %v, %v", dl, ok)
	}
}

func TestWatchdogFollowsTheParent(t *testing.T) {
	var w watchdog
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), stateKey{}, "v"))
	d := w.start(parent, time.Hour)
	defer d.finish()
	if d.Err() != nil || d.Value(stateKey{}) != "v" {
		t.Fatalf("Err %v, Value %v", d.Err(), d.Value(stateKey{}))
	}
	cancel()
	<-d.Done() // the watchdog notices within a tick
	if !errors.Is(d.Err(), context.Canceled) {
		t.Fatalf("Err %v, want canceled", d.Err())
	}

	// A parent that ended before is seen at once, and its earlier
	// deadline is the context's.
	soon := time.Now().Add(time.Minute)
	early, cancelEarly := context.WithDeadline(context.Background(), soon)
	if dl, _ := w.start(early, time.Hour).Deadline(); !dl.Equal(soon) {
		t.Fatalf("Deadline %v, want the parent's %v", dl, soon)
	}
	cancelEarly()
	done := w.start(early, time.Hour)
	select {
	case <-done.Done():
	default:
		t.Fatal("a context whose parent ended is not done")
	}
}

func TestWatchdogDerivedContextsAndIdle(t *testing.T) {
	var w watchdog
	d := w.start(context.Background(), time.Hour)
	child, cancelChild := context.WithCancel(d)
	defer cancelChild()
	stopped := make(chan struct{})
	stop := context.AfterFunc(d, func() { close(stopped) })
	if len(d.funcs) != 2 {
		t.Fatalf("%d callbacks registered, want the derived context's and AfterFunc's", len(d.funcs))
	}
	d.finish()
	<-child.Done()
	<-stopped
	if stop() {
		t.Fatal("stop reported a callback that had run")
	}
	if !errors.Is(child.Err(), context.Canceled) {
		t.Fatalf("child Err %v", child.Err())
	}
	w.mu.Lock()
	empty := w.head == nil && w.tail == nil
	w.mu.Unlock()
	if !empty {
		t.Fatal("a finished context stays listed")
	}
	// The goroutine returns once nothing is listed.
	idle := watchdog{running: true}
	idle.run()
	if idle.running {
		t.Fatal("the watchdog goroutine keeps running with nothing listed")
	}
}

func TestTimeoutThroughTheWatchdog(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "world", nil })
	schema.QueryNoArgs(b, "block", func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRouter(s, nil, Config{Timeout: watchdogMinTimeout})
	if err != nil {
		t.Fatal(err)
	}
	rec := postQuery(r, "{ hello block }")
	if rec.Code != http.StatusOK || rec.Body.String() !=
		`{"errors":[{"message":"Request timed out.","locations":[{"line":1,"column":9}],"path":["block"],"extensions":{"code":"REQUEST_TIMEOUT"}}],"data":null}` {
		t.Fatalf("got %d %s", rec.Code, rec.Body)
	}
}

// The first operation of a request runs in the execution context its
// request state carries; each later operation of a batch gets a fresh one,
// live while it runs and ended once it is answered.
func TestEachBatchOperationGetsItsOwnExecutionContext(t *testing.T) {
	var done []<-chan struct{}
	b := schema.New()
	schema.QueryNoArgs(b, "live", func(ctx context.Context) (bool, error) {
		done = append(done, ctx.Done())
		return ctx.Err() == nil, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRouter(s, nil, Config{Timeout: watchdogMinTimeout, MaxBatch: 3})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(`[{"query":"{ live }"},{"query":"{ live }"},{"query":"{ live }"}]`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	if want := `[{"data":{"live":true}},{"data":{"live":true}},{"data":{"live":true}}]`; rec.Code != http.StatusOK || rec.Body.String() != want {
		t.Fatalf("got %d %s, want %s", rec.Code, rec.Body, want)
	}
	if len(done) != 3 || done[0] == done[1] || done[1] == done[2] || done[0] == done[2] {
		t.Fatalf("Done channels %v: want three distinct ones", done)
	}
	for i, ch := range done {
		select {
		case <-ch:
		default:
			t.Errorf("operation %d: its context is not ended once answered", i)
		}
	}
}

// TestWatchdogContextMakesItsChannelOnDemand checks the lazy Done: a
// context nobody asks for Done ends without making a channel, and Done
// still works before and after the end.
func TestWatchdogContextMakesItsChannelOnDemand(t *testing.T) {
	var w watchdog
	d := w.start(context.Background(), time.Hour)
	if d.Ended() || d.done != nil {
		t.Fatalf("a new context: Ended %v, channel %v", d.Ended(), d.done)
	}
	d.finish()
	if !d.Ended() || d.done != nil || !errors.Is(d.Err(), context.Canceled) {
		t.Fatalf("after finish: Ended %v, channel %v, Err %v", d.Ended(), d.done, d.Err())
	}
	select {
	case <-d.Done():
	default:
		t.Fatal("Done of an ended context is not closed")
	}

	asked := w.start(context.Background(), time.Hour)
	done := asked.Done()
	if asked.Done() != done {
		t.Fatal("Done made a second channel")
	}
	asked.finish()
	select {
	case <-done:
	default:
		t.Fatal("the channel handed out before the end is not closed by it")
	}
}
