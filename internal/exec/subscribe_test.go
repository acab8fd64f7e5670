package exec_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

type tick struct {
	N    int
	Note *string
}

type ticksArgs struct {
	From int
	Fail *bool
}

// tickSchema has Subscription.ticks(from:) counting down to 0 and
// Tick.even failing on odd numbers; running receives +1 when a source
// goroutine starts and -1 when it ends.
func tickSchema(t *testing.T, running chan int) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	obj := schema.Object[tick](b, "Tick")
	schema.FieldFuncNoArgs(obj, "even", func(_ context.Context, tk *tick) (int, error) {
		if tk.N%2 != 0 {
			return 0, errors.New("odd")
		}
		return tk.N, nil
	})
	count := func(ctx context.Context, a ticksArgs) (<-chan *tick, error) {
		if a.Fail != nil && *a.Fail {
			return nil, errors.New("no stream today")
		}
		ch := make(chan *tick)
		running <- 1
		go func() {
			defer func() { running <- -1 }()
			defer close(ch)
			for i := a.From; i >= 0; i-- {
				select {
				case ch <- &tick{N: i}:
				case <-ctx.Done():
					return
				}
			}
		}()
		return ch, nil
	}
	schema.Subscription(b, "ticks", count)
	schema.Subscription(b, "strictTicks", count, schema.OfType("Tick!"))
	schema.Subscription(b, "panics", func(context.Context, struct{}) (<-chan int, error) { panic("boom") })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func subscribe(t *testing.T, e *exec.Engine, ctx context.Context, query string, vars map[string]any) (*exec.Stream, string) {
	t.Helper()
	doc, errs := e.Prepare(query)
	if errs != nil {
		t.Fatalf("prepare: %v", errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	cv, verrs := e.CoerceVariables(op, vars)
	if len(verrs) > 0 {
		t.Fatal(verrs)
	}
	s, body := e.Subscribe(ctx, op, cv, nil)
	return s, string(body)
}

func TestSubscribeEvents(t *testing.T) {
	running := make(chan int, 16)
	e := exec.New(tickSchema(t, running), exec.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, body := subscribe(t, e, ctx, `subscription($f: Int!) { ticks(from: $f) { n even } }`, map[string]any{"f": 2})
	if s == nil {
		t.Fatalf("no stream: %s", body)
	}
	want := []string{
		`{"data":{"ticks":{"n":2,"even":2}}}`,
		`{"errors":[{"message":"odd","locations":[{"line":1,"column":46}],"path":["ticks","even"]}],"data":{"ticks":null}}`,
		`{"data":{"ticks":{"n":0,"even":0}}}`,
	}
	for i, w := range want {
		ev, ok := s.Next(ctx)
		if !ok {
			t.Fatalf("event %d: stream ended", i)
		}
		if got := string(s.Execute(ctx, ev, nil)); got != w {
			t.Errorf("event %d:\n got %s\nwant %s", i, got, w)
		}
	}
	if _, ok := s.Next(ctx); ok {
		t.Fatal("stream did not end after the source closed")
	}
	if n := <-running + <-running; n != 0 {
		t.Fatalf("source goroutine bookkeeping %d", n)
	}
}

func TestSubscribeNonNullPropagatesToData(t *testing.T) {
	running := make(chan int, 16)
	e := exec.New(tickSchema(t, running), exec.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, body := subscribe(t, e, ctx, `subscription { strictTicks(from: 1) { even } }`, nil)
	if s == nil {
		t.Fatalf("no stream: %s", body)
	}
	ev, _ := s.Next(ctx)
	want := `{"errors":[{"message":"odd","locations":[{"line":1,"column":39}],"path":["strictTicks","even"]}],"data":null}`
	if got := string(s.Execute(ctx, ev, nil)); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	// The next event is executed afresh.
	ev, _ = s.Next(ctx)
	if got := string(s.Execute(ctx, ev, nil)); got != `{"data":{"strictTicks":{"even":0}}}` {
		t.Fatalf("got %s", got)
	}
}

func TestSubscribeCancelEndsSource(t *testing.T) {
	running := make(chan int, 16)
	e := exec.New(tickSchema(t, running), exec.Options{})
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	s, body := subscribe(t, e, ctx, `subscription { ticks(from: 1000000) { n } }`, nil)
	if s == nil {
		t.Fatalf("no stream: %s", body)
	}
	if _, ok := s.Next(ctx); !ok {
		t.Fatal("no first event")
	}
	<-running
	cancel()
	if _, ok := s.Next(ctx); ok {
		// One event may already be buffered in the select; the next ends.
		if _, ok := s.Next(ctx); ok {
			t.Fatal("stream goes on after cancel")
		}
	}
	if d := <-running; d != -1 {
		t.Fatalf("got %d, want the source goroutine to stop", d)
	}
	for runtime.NumGoroutine() > before {
		runtime.Gosched()
	}
}

func TestSubscribeErrors(t *testing.T) {
	running := make(chan int, 16)
	e := exec.New(tickSchema(t, running), exec.Options{MaskErrors: true})
	tests := []struct{ name, query, want string }{
		{"resolver error is masked like a query's", `subscription { ticks(from: 1, fail: true) { n } }`,
			`{"errors":[{"message":"Internal server error","locations":[{"line":1,"column":16}],"path":["ticks"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`},
		{"panic is contained", `subscription { panics }`,
			`{"errors":[{"message":"Internal server error","locations":[{"line":1,"column":16}],"path":["panics"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, body := subscribe(t, e, context.Background(), tt.query, nil)
			if s != nil {
				t.Fatal("stream started")
			}
			if body != tt.want {
				t.Errorf("\n got %s\nwant %s", body, tt.want)
			}
		})
	}
	t.Run("Execute refuses a subscription", func(t *testing.T) {
		doc, _ := e.Prepare(`subscription { ticks(from: 1) { n } }`)
		op, _ := doc.Operation("")
		got := string(e.Execute(context.Background(), op, nil, nil, nil))
		if got != `{"errors":[{"message":"Subscriptions are not supported.","extensions":{"code":"OPERATION_NOT_SUPPORTED"}}]}` {
			t.Error(got)
		}
	})
}

func TestSubscriptionSDL(t *testing.T) {
	s := tickSchema(t, make(chan int, 4))
	m := schemadef.Model(s)
	if m.Subscription == nil || s.AST().Subscription == nil {
		t.Fatal("no Subscription root")
	}
	if f := m.Subscription.Field("ticks"); f == nil || f.Type.String() != "Tick" || len(f.Args) != 2 {
		t.Fatalf("ticks field: %+v", f)
	}
}
