package exec_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/loader"
	"github.com/graftgql/graft/schema"
)

// The gated schema: fields that wait until the test opens their gate, so
// the order in which deferred work completes is the test's to choose.

type gObj struct {
	ID string `graphql:"id"`
}

type gateArgs struct {
	Name string `graphql:"name"`
}

type gated struct {
	mu      sync.Mutex
	gates   map[string]chan struct{}
	started map[string]chan struct{}
	status  map[string]string
	items   chan gObj
	batches [][]string // the ids of each call of Obj.batched
	looked  []string   // what Query.looked saw selected below it
	changed *sync.Cond // broadcast when a status changes
}

func newGated() *gated {
	g := &gated{gates: map[string]chan struct{}{}, started: map[string]chan struct{}{}, status: map[string]string{}, items: make(chan gObj)}
	g.changed = sync.NewCond(&g.mu)
	return g
}

func (g *gated) chans(name string) (gate, started chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gates[name] == nil {
		g.gates[name] = make(chan struct{})
		g.started[name] = make(chan struct{})
	}
	return g.gates[name], g.started[name]
}

// open lets the resolver waiting on name return.
func (g *gated) open(name string) {
	gate, _ := g.chans(name)
	close(gate)
}

// waitStarted waits until a resolver waits on name.
func (g *gated) waitStarted(name string) {
	_, started := g.chans(name)
	<-started
}

func (g *gated) wait(ctx context.Context, name string) (string, error) {
	gate, started := g.chans(name)
	g.mu.Lock()
	if g.status[name] == "" {
		close(started)
	}
	g.status[name] = "started"
	g.mu.Unlock()
	select {
	case <-gate:
		g.setStatus(name, "completed")
		return name, nil
	case <-ctx.Done():
		g.setStatus(name, "cancelled")
		return "", ctx.Err()
	}
}

func (g *gated) setStatus(name, s string) {
	g.mu.Lock()
	g.status[name] = s
	g.changed.Broadcast()
	g.mu.Unlock()
}

func (g *gated) statusOf(name string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.status[name]
}

func gatedEngine(t testing.TB, g *gated, incremental bool) *exec.Engine {
	t.Helper()
	b := schema.New()
	if incremental {
		b.EnableIncrementalDelivery()
	}
	obj := schema.Object[gObj](b, "Obj")
	schema.FieldFunc(obj, "wait", func(ctx context.Context, _ *gObj, a gateArgs) (string, error) { return g.wait(ctx, a.Name) })
	schema.FieldFuncNoArgs(obj, "name", func(_ context.Context, o *gObj) (string, error) { return "obj " + o.ID, nil })
	schema.FieldFuncNoArgs(obj, "nullableFail", func(_ context.Context, o *gObj) (*string, error) {
		return nil, errors.New("nullable " + o.ID)
	})
	schema.FieldFuncNoArgs(obj, "nonNullFail", func(_ context.Context, o *gObj) (string, error) {
		return "", errors.New("nonNull " + o.ID)
	})
	schema.FieldFuncNoArgs(obj, "child", func(_ context.Context, o *gObj) (*gObj, error) {
		return &gObj{ID: o.ID + ".c"}, nil
	}, schema.OfType("Obj!"))
	schema.GroupFieldFuncNoArgs(obj, "batched", func(_ context.Context, parents []*gObj) ([]string, []error) {
		ids := make([]string, len(parents))
		for i, p := range parents {
			ids[i] = p.ID
		}
		g.mu.Lock()
		g.batches = append(g.batches, ids)
		g.mu.Unlock()
		out := make([]string, len(parents))
		for i, p := range parents {
			out[i] = "b" + p.ID
		}
		return out, nil
	})
	schema.FieldFuncNoArgs(obj, "loaded", func(ctx context.Context, o *gObj) (string, error) {
		return ctx.Value(gLoaderKey{}).(*loader.Loader[string, string]).Load(ctx, o.ID)
	}, schema.Concurrent())
	schema.QueryNoArgs(b, "fast", func(context.Context) (string, error) { return "fast", nil })
	schema.QueryNoArgs(b, "looked", func(ctx context.Context) (*gObj, error) {
		var names []string
		for _, f := range schema.SelectionFrom(ctx).Fields("Obj") {
			names = append(names, f.Name)
		}
		g.mu.Lock()
		g.looked = names
		g.mu.Unlock()
		return &gObj{ID: "l"}, nil
	})
	schema.Query(b, "wait", func(ctx context.Context, a gateArgs) (string, error) { return g.wait(ctx, a.Name) })
	schema.QueryNoArgs(b, "obj", func(context.Context) (*gObj, error) { return &gObj{ID: "1"}, nil })
	schema.QueryNoArgs(b, "list", func(context.Context) ([]gObj, error) {
		return []gObj{{ID: "1"}, {ID: "2"}, {ID: "3"}}, nil
	})
	schema.QueryNoArgs(b, "source", func(context.Context) (<-chan gObj, error) { return g.items, nil })
	schema.QueryNoArgs(b, "scalars", func(context.Context) ([]string, error) { return []string{"a", "b", "c"}, nil })
	schema.Mutation(b, "touch", func(_ context.Context, a gateArgs) (*gObj, error) { return &gObj{ID: a.Name}, nil },
		schema.OfType("Obj!"))
	schema.Subscription(b, "ticks", func(context.Context, struct{}) (<-chan gObj, error) { return g.items, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return exec.New(s, quietOpts())
}

type gLoaderKey struct{}

// withLoader returns ctx with a loader for Obj.loaded that records the
// keys of each fetch in g.batches.
func withLoader(ctx context.Context, g *gated) context.Context {
	l := loader.New(func(_ context.Context, ids []string) ([]string, []error) {
		g.mu.Lock()
		g.batches = append(g.batches, slices.Sorted(slices.Values(ids)))
		g.mu.Unlock()
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = "l" + id
		}
		return out, nil
	})
	return context.WithValue(ctx, gLoaderKey{}, l)
}

// incRun is an incremental execution under test.
type incRun struct {
	t    *testing.T
	inc  *exec.Incremental
	more bool
}

// startInc runs query incrementally and returns the initial payload.
func startInc(t *testing.T, e *exec.Engine, ctx context.Context, format exec.Format, query string, vars map[string]any) (string, *incRun) {
	t.Helper()
	doc, errs := e.Prepare(query)
	if errs != nil {
		t.Fatalf("prepare: %v", errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		t.Fatal(errs)
	}
	out, _, inc := e.RunIncremental(ctx, op, coerced, format, nil, nil, nil)
	run := &incRun{t: t, inc: inc, more: inc != nil}
	t.Cleanup(func() {
		if inc != nil {
			inc.Close()
		}
	})
	return string(out), run
}

// next returns the next payload.
func (r *incRun) next() string {
	r.t.Helper()
	if !r.more {
		r.t.Fatal("no more payloads")
	}
	out, more := r.inc.Next(nil, nil)
	r.more = more
	return string(out)
}

// rest returns every payload left.
func (r *incRun) rest() []string {
	var out []string
	for r.more {
		out = append(out, r.next())
	}
	return out
}

func want(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func TestDeferBothFormats(t *testing.T) {
	query := `{ fast obj { id ... @defer(label: "D") { name } } }`
	tests := []struct {
		format        exec.Format
		initial, next string
	}{
		{exec.FormatCurrent,
			`{"data":{"fast":"fast","obj":{"id":"1"}},"pending":[{"id":"0","path":["obj"],"label":"D"}],"hasNext":true}`,
			`{"incremental":[{"data":{"name":"obj 1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`},
		{exec.Format2022,
			`{"data":{"fast":"fast","obj":{"id":"1"}},"hasNext":true}`,
			`{"incremental":[{"data":{"name":"obj 1"},"path":["obj"],"label":"D"}],"hasNext":false}`},
	}
	for _, tc := range tests {
		e := gatedEngine(t, newGated(), true)
		initial, run := startInc(t, e, context.Background(), tc.format, query, nil)
		want(t, "initial", initial, tc.initial)
		want(t, "next", run.next(), tc.next)
		if run.more {
			t.Error("more payloads after hasNext false")
		}
	}
}

func TestDeferAsIfAbsent(t *testing.T) {
	// Run (a client that takes one JSON response) and if: false write the
	// deferred fields in place.
	g := newGated()
	e := gatedEngine(t, g, true)
	got := runQuery(t, e, `{ obj { id ... @defer { name } } }`, nil)
	want(t, "Run", got, `{"data":{"obj":{"id":"1","name":"obj 1"}}}`)
	for _, f := range []exec.Format{exec.FormatCurrent, exec.Format2022} {
		initial, run := startInc(t, e, context.Background(), f, `query($d: Boolean!) { obj { id ... @defer(if: $d) { name } ... @defer(if: false) { child { id } } } }`, map[string]any{"d": false})
		want(t, "if false", initial, `{"data":{"obj":{"id":"1","name":"obj 1","child":{"id":"1.c"}}},"hasNext":false}`)
		if run.more {
			t.Error("a payload follows although nothing was deferred")
		}
	}
}

func runQuery(t *testing.T, e *exec.Engine, query string, vars map[string]any) string {
	t.Helper()
	doc, errs := e.Prepare(query)
	if errs != nil {
		return string(gqlerr.AppendResponse(nil, errs, nil))
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		t.Fatal(errs)
	}
	return string(e.Execute(context.Background(), op, coerced, nil, nil))
}

func TestDeferInitialDoesNotWait(t *testing.T) {
	// The initial payload is complete while the deferred resolver still
	// waits: RunIncremental returns before the gate opens.
	g := newGated()
	e := gatedEngine(t, g, true)
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ fast ... @defer { wait(name: "a") } }`, nil)
	want(t, "initial", initial, `{"data":{"fast":"fast"},"pending":[{"id":"0","path":[]}],"hasNext":true}`)
	g.waitStarted("a")
	if s := g.statusOf("a"); s != "started" {
		t.Fatalf("status %q", s)
	}
	g.open("a")
	want(t, "next", run.next(), `{"incremental":[{"data":{"wait":"a"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`)
}

func TestSiblingDefersInCompletionOrder(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent,
		`{ fast ... @defer(label: "A") { a: wait(name: "a") } ... @defer(label: "B") { b: wait(name: "b") } }`, nil)
	want(t, "initial", initial, `{"data":{"fast":"fast"},"pending":[{"id":"0","path":[],"label":"A"},{"id":"1","path":[],"label":"B"}],"hasNext":true}`)
	g.open("b") // the second fragment completes first
	want(t, "first", run.next(), `{"incremental":[{"data":{"b":"b"},"id":"1"}],"completed":[{"id":"1"}],"hasNext":true}`)
	g.open("a")
	want(t, "second", run.next(), `{"incremental":[{"data":{"a":"a"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`)
}

func TestNestedDefersAndDefersInLists(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	query := `{ list { id ... @defer(label: "outer") { name ... @defer(label: "inner") { child { id } } } } }`
	initial, run := startInc(t, e, context.Background(), exec.Format2022, query, nil)
	want(t, "initial", initial, `{"data":{"list":[{"id":"1"},{"id":"2"},{"id":"3"}]},"hasNext":true}`)
	var entries []string
	for _, p := range run.rest() {
		entries = append(entries, p)
	}
	all := strings.Join(entries, "\n")
	for i := 1; i <= 3; i++ {
		for _, w := range []string{
			fmt.Sprintf(`{"data":{"name":"obj %d"},"path":["list",%d],"label":"outer"}`, i, i-1),
			fmt.Sprintf(`{"data":{"child":{"id":"%d.c"}},"path":["list",%d],"label":"inner"}`, i, i-1),
		} {
			if strings.Count(all, w) != 1 {
				t.Errorf("payloads lack %s once:\n%s", w, all)
			}
		}
	}
	if !strings.HasSuffix(all, `"hasNext":false}`) {
		t.Errorf("last payload: %s", all)
	}
	// In the current format the inner fragments are announced with the
	// outer ones' data.
	initial, run = startInc(t, e, context.Background(), exec.FormatCurrent, `{ obj { id ... @defer { name ... @defer { wait(name: "i") } } } }`, nil)
	want(t, "initial", initial, `{"data":{"obj":{"id":"1"}},"pending":[{"id":"0","path":["obj"]}],"hasNext":true}`)
	want(t, "outer", run.next(), `{"pending":[{"id":"1","path":["obj"]}],"incremental":[{"data":{"name":"obj 1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":true}`)
	g.open("i")
	want(t, "inner", run.next(), `{"incremental":[{"data":{"wait":"i"},"id":"1"}],"completed":[{"id":"1"}],"hasNext":false}`)
}

func TestDeferErrors(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	// A nullable error goes with the fragment; a non-null error ends only
	// its own fragment; the initial payload is unchanged.
	query := `{ fast obj { id ... @defer(label: "N") { nullableFail } ... @defer(label: "X") { name nonNullFail } } }`
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, query, nil)
	want(t, "initial", initial, `{"data":{"fast":"fast","obj":{"id":"1"}},"pending":[{"id":"0","path":["obj"],"label":"N"},{"id":"1","path":["obj"],"label":"X"}],"hasNext":true}`)
	all := strings.Join(run.rest(), "\n")
	for _, w := range []string{
		`{"errors":[{"message":"nullable 1","locations":[{"line":1,"column":42}],"path":["obj","nullableFail"]}],"data":{"nullableFail":null},"id":"0"}`,
		`{"id":"1","errors":[{"message":"nonNull 1","locations":[{"line":1,"column":87}],"path":["obj","nonNullFail"]}]}`,
	} {
		if !strings.Contains(all, w) {
			t.Errorf("payloads lack %s:\n%s", w, all)
		}
	}
	if strings.Contains(all, `"data":{"name"`) {
		t.Errorf("the failed fragment's data was sent:\n%s", all)
	}
	_, run = startInc(t, e, context.Background(), exec.Format2022, `{ obj { id ... @defer { name nonNullFail } } }`, nil)
	want(t, "2022", run.next(), `{"incremental":[{"errors":[{"message":"nonNull 1","locations":[{"line":1,"column":30}],"path":["obj","nonNullFail"]}],"data":null,"path":["obj"]}],"hasNext":false}`)
}

func TestDeferUnderNulledParentIsDropped(t *testing.T) {
	// The object holding the fragment is nulled by a non-null error in
	// the initial payload: its fragment is never announced.
	e := gatedEngine(t, newGated(), true)
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ fast obj { nonNullFail ... @defer { name } } }`, nil)
	want(t, "initial", initial, `{"errors":[{"message":"nonNull 1","locations":[{"line":1,"column":14}],"path":["obj","nonNullFail"]}],"data":{"fast":"fast","obj":null},"hasNext":false}`)
	if run.more {
		t.Error("payloads follow")
	}
}

func TestStreamSliceAndSource(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ list @stream(initialCount: 1, label: "L") { id } }`, nil)
	want(t, "initial", initial, `{"data":{"list":[{"id":"1"}]},"pending":[{"id":"0","path":["list"],"label":"L"}],"hasNext":true}`)
	want(t, "rest", run.next(), `{"incremental":[{"items":[{"id":"2"},{"id":"3"}],"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`)

	initial, run = startInc(t, e, context.Background(), exec.Format2022, `{ scalars @stream(initialCount: 2) }`, nil)
	want(t, "initial", initial, `{"data":{"scalars":["a","b"]},"hasNext":true}`)
	want(t, "rest", run.next(), `{"incremental":[{"items":["c"],"path":["scalars",2]}],"hasNext":false}`)

	// A channel: each item is sent when it arrives.
	done := make(chan string)
	go func() {
		initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ source @stream(initialCount: 1) { id } }`, nil)
		done <- initial
		for run.more {
			done <- run.next()
		}
		close(done)
	}()
	g.items <- gObj{ID: "x"}
	want(t, "initial", <-done, `{"data":{"source":[{"id":"x"}]},"pending":[{"id":"0","path":["source"]}],"hasNext":true}`)
	g.items <- gObj{ID: "y"}
	want(t, "item", <-done, `{"incremental":[{"items":[{"id":"y"}],"id":"0"}],"hasNext":true}`)
	g.items <- gObj{ID: "z"}
	want(t, "item", <-done, `{"incremental":[{"items":[{"id":"z"}],"id":"0"}],"hasNext":true}`)
	close(g.items)
	want(t, "end", <-done, `{"completed":[{"id":"0"}],"hasNext":false}`)
	if _, ok := <-done; ok {
		t.Error("more payloads")
	}
}

func TestSourceWithoutStream(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, false)
	go func() {
		g.items <- gObj{ID: "1"}
		g.items <- gObj{ID: "2"}
		close(g.items)
	}()
	want(t, "drained", runQuery(t, e, `{ source { id name } }`, nil), `{"data":{"source":[{"id":"1","name":"obj 1"},{"id":"2","name":"obj 2"}]}}`)
}

func TestStreamItemsStillBatch(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ list @stream(initialCount: 1) { id batched } }`, nil)
	want(t, "initial", initial, `{"data":{"list":[{"id":"1","batched":"b1"}]},"pending":[{"id":"0","path":["list"]}],"hasNext":true}`)
	want(t, "rest", run.next(), `{"incremental":[{"items":[{"id":"2","batched":"b2"},{"id":"3","batched":"b3"}],"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`)
	g.mu.Lock()
	defer g.mu.Unlock()
	if fmt.Sprint(g.batches) != "[[1] [2 3]]" {
		t.Errorf("batches = %v, want [[1] [2 3]]: the streamed items' fields in one call", g.batches)
	}
}

func TestDeferredBatchFieldRunsOnceWithItsPayload(t *testing.T) {
	// A batch field in a deferred fragment is left out of the initial
	// payload's resolving ahead and resolved once, with its payload.
	g := newGated()
	e := gatedEngine(t, g, true)
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ obj { id ... @defer { batched } } }`, nil)
	want(t, "initial", initial, `{"data":{"obj":{"id":"1"}},"pending":[{"id":"0","path":["obj"]}],"hasNext":true}`)
	want(t, "rest", run.next(), `{"incremental":[{"data":{"batched":"b1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`)
	g.mu.Lock()
	defer g.mu.Unlock()
	if fmt.Sprint(g.batches) != "[[1]]" {
		t.Errorf("batch calls %v, want [[1]]", g.batches)
	}
}

func TestStreamNonNullItemErrorEndsStream(t *testing.T) {
	e := gatedEngine(t, newGated(), true)
	query := `{ list @stream(initialCount: 0) { id nonNullFail } }`
	_, run := startInc(t, e, context.Background(), exec.FormatCurrent, query, nil)
	want(t, "current", run.next(), `{"completed":[{"id":"0","errors":[{"message":"nonNull 1","locations":[{"line":1,"column":38}],"path":["list",0,"nonNullFail"]}]}],"hasNext":false}`)
	_, run = startInc(t, e, context.Background(), exec.Format2022, query, nil)
	want(t, "2022", run.next(), `{"incremental":[{"errors":[{"message":"nonNull 1","locations":[{"line":1,"column":38}],"path":["list",0,"nonNullFail"]}],"items":null,"path":["list",0]}],"hasNext":false}`)
}

func TestCancelEndsDeferredWork(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, run := startInc(t, e, ctx, exec.FormatCurrent, `{ fast ... @defer { wait(name: "c") } }`, nil)
	g.waitStarted("c")
	run.inc.Close()
	g.mu.Lock()
	for g.status["c"] == "started" {
		g.changed.Wait()
	}
	s := g.status["c"]
	g.mu.Unlock()
	if s != "cancelled" {
		t.Errorf("status %q, want cancelled", s)
	}
}

func TestIncrementalValidation(t *testing.T) {
	e := gatedEngine(t, newGated(), true)
	tests := []struct{ query, want string }{
		{`mutation { ... @defer { touch(name: "a") { id } } }`, `Defer directive cannot be used on root mutation type "Mutation".`},
		{`subscription { ticks { id ... @defer { name } } }`, "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`."},
		{`subscription { ticks { ...F } } fragment F on Obj { child @stream { id } }`, `Directive "@stream" cannot be used on non-list field "Obj.child".`},
		{`{ a: obj { ... @defer(label: "x") { id } } b: list @stream(label: "x") { id } }`, `Defer/Stream directive label argument must be unique.`},
		{`{ obj { id @stream } }`, `Directive "@stream" cannot be used on non-list field "Obj.id".`},
		{`query($l: String) { obj { ... @defer(label: $l) { id } } }`, `Directive "defer"'s label argument must be a static string.`},
	}
	for _, tc := range tests {
		_, errs := e.Prepare(tc.query)
		var msgs []string
		for _, ge := range errs {
			msgs = append(msgs, ge.Message)
		}
		if !slices.Contains(msgs, tc.want) {
			t.Errorf("%s: errors %q lack %q", tc.query, msgs, tc.want)
		}
	}
	for _, ok := range []string{
		`subscription($d: Boolean!) { ticks { id ... @defer(if: $d) { name } } }`,
		`mutation { touch(name: "a") { id ... @defer { name } } }`,
		`{ list @stream(initialCount: 1) { id } }`,
	} {
		if _, errs := e.Prepare(ok); errs != nil {
			t.Errorf("%s: %v", ok, errs)
		}
	}
	// Without the declaration, @defer stays unknown and @stream too.
	plain := gatedEngine(t, newGated(), false)
	for _, q := range []string{`{ obj { ... @defer { id } } }`, `{ list @stream { id } }`} {
		_, errs := plain.Prepare(q)
		if len(errs) == 0 || !strings.HasPrefix(errs[0].Message, "Unknown directive") {
			t.Errorf("%s: %v", q, errs)
		}
	}
}

type rawThing struct {
	A string `graphql:"a"`
	B string `graphql:"b"`
}

func TestDeferBelowRawValueIsWrittenInPlace(t *testing.T) {
	b := schema.New()
	b.EnableIncrementalDelivery()
	schema.Object[rawThing](b, "Thing")
	schema.QueryNoArgs(b, "thing", func(context.Context) (schema.RawJSON, error) {
		return schema.RawJSON(`{"a":"x","b":"y"}`), nil
	}, schema.OfType("Thing"))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, quietOpts())
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ thing { a ... @defer { b } } }`, nil)
	want(t, "initial", initial, `{"data":{"thing":{"a":"x","b":"y"}},"hasNext":false}`)
	if run.more {
		t.Error("payloads follow")
	}
}

func TestLookAheadSeesDeferredFields(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	_, run := startInc(t, e, context.Background(), exec.FormatCurrent, `{ looked { id ... @defer { name } } }`, nil)
	run.rest()
	g.mu.Lock()
	defer g.mu.Unlock()
	if fmt.Sprint(g.looked) != "[id name]" {
		t.Errorf("the resolver saw %v selected, want [id name]", g.looked)
	}
}

func TestStreamItemsStillBatchLoads(t *testing.T) {
	g := newGated()
	e := gatedEngine(t, g, true)
	initial, run := startInc(t, e, withLoader(context.Background(), g), exec.Format2022, `{ list @stream(initialCount: 1) { id loaded } }`, nil)
	want(t, "initial", initial, `{"data":{"list":[{"id":"1","loaded":"l1"}]},"hasNext":true}`)
	want(t, "rest", run.next(), `{"incremental":[{"items":[{"id":"2","loaded":"l2"},{"id":"3","loaded":"l3"}],"path":["list",1]}],"hasNext":false}`)
	g.mu.Lock()
	defer g.mu.Unlock()
	if fmt.Sprint(g.batches) != "[[1] [2 3]]" {
		t.Errorf("loader fetches %v, want [[1] [2 3]]: the streamed items' loads in one batch", g.batches)
	}
}

func TestDeferBelowMutationRoot(t *testing.T) {
	e := gatedEngine(t, newGated(), true)
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, `mutation { touch(name: "a") { id ... @defer { name } } }`, nil)
	want(t, "initial", initial, `{"data":{"touch":{"id":"a"}},"pending":[{"id":"0","path":["touch"]}],"hasNext":true}`)
	want(t, "next", run.next(), `{"incremental":[{"data":{"name":"obj a"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`)
}

func TestSourceInBatchedOperation(t *testing.T) {
	// A channel's items in an operation that resolves ahead: their batch
	// fields still resolve, item by item.
	g := newGated()
	e := gatedEngine(t, g, true)
	go func() {
		g.items <- gObj{ID: "1"}
		g.items <- gObj{ID: "2"}
		close(g.items)
	}()
	want(t, "drained", runQuery(t, e, `{ source { id batched } list { batched } }`, nil),
		`{"data":{"source":[{"id":"1","batched":"b1"},{"id":"2","batched":"b2"}],"list":[{"batched":"b1"},{"batched":"b2"},{"batched":"b3"}]}}`)
}

func TestStreamArgumentsFromVariables(t *testing.T) {
	e := gatedEngine(t, newGated(), true)
	q := `query($on: Boolean!, $n: Int!) { list @stream(if: $on, initialCount: $n) { id } }`
	initial, run := startInc(t, e, context.Background(), exec.FormatCurrent, q, map[string]any{"on": true, "n": 2})
	want(t, "initial", initial, `{"data":{"list":[{"id":"1"},{"id":"2"}]},"pending":[{"id":"0","path":["list"]}],"hasNext":true}`)
	want(t, "rest", run.next(), `{"incremental":[{"items":[{"id":"3"}],"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`)
	initial, run = startInc(t, e, context.Background(), exec.FormatCurrent, q, map[string]any{"on": false, "n": 0})
	want(t, "off", initial, `{"data":{"list":[{"id":"1"},{"id":"2"},{"id":"3"}]},"hasNext":false}`)
	if run.more {
		t.Error("payloads follow")
	}
	// initialCount beyond the list: everything at once, then completed.
	initial, run = startInc(t, e, context.Background(), exec.Format2022, q, map[string]any{"on": true, "n": 5})
	want(t, "all", initial, `{"data":{"list":[{"id":"1"},{"id":"2"},{"id":"3"}]},"hasNext":false}`)
	if run.more {
		t.Error("payloads follow")
	}
}
