package loader_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft/internal/batchsched"
	"github.com/graftgql/graft/loader"
)

// fetches records the key sets a loader fetched.
type fetches struct {
	mu   sync.Mutex
	sets []string
}

func (f *fetches) fetch(ctx context.Context, keys []int) ([]string, []error) {
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	f.mu.Lock()
	f.sets = append(f.sets, fmt.Sprint(sorted))
	f.mu.Unlock()
	vals := make([]string, len(keys))
	var errs []error
	for i, k := range keys {
		if k < 0 {
			if errs == nil {
				errs = make([]error, len(keys))
			}
			errs[i] = fmt.Errorf("no key %d", k)
			continue
		}
		vals[i] = fmt.Sprintf("v%d", k)
	}
	return vals, errs
}

func (f *fetches) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sets)
}

// runTasks runs each fn as a task of one scheduler, as the executor runs
// the resolvers of a level, and waits for all.
func runTasks(fns ...func(ctx context.Context)) {
	s := batchsched.NewScheduler(context.Background(), 4)
	s.Bound()
	tasks := make([]*batchsched.Task, len(fns))
	for i := range fns {
		tasks[i] = s.NewTask()
	}
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := tasks[i]
			t.Acquire()
			defer t.Done()
			fn(t.Context(context.Background()))
		}()
	}
	wg.Wait()
}

func TestLoadsOfTasksShareOneFetch(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch)
	got := make([]string, 6)
	var fns []func(context.Context)
	for i, k := range []int{3, 1, 2, 3, 1, -1} {
		fns = append(fns, func(ctx context.Context) {
			v, err := l.Load(ctx, k)
			if err != nil {
				v = "error: " + err.Error()
			}
			got[i] = v
		})
	}
	runTasks(fns...)
	if want := []string{"v3", "v1", "v2", "v3", "v1", "error: no key -1"}; !slices.Equal(got, want) {
		t.Errorf("values %q, want %q", got, want)
	}
	if want := []string{"[-1 1 2 3]"}; !slices.Equal(f.got(), want) {
		t.Errorf("fetches %q, want %q", f.got(), want)
	}
}

func TestChainedLoadsBatchPerRound(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch)
	var fns []func(context.Context)
	for k := 1; k <= 3; k++ {
		fns = append(fns, func(ctx context.Context) {
			_, _ = l.Load(ctx, k)
			_, _ = l.Load(ctx, k*10)
		})
	}
	runTasks(fns...)
	if want := []string{"[1 2 3]", "[10 20 30]"}; !slices.Equal(f.got(), want) {
		t.Errorf("fetches %q, want %q", f.got(), want)
	}
}

func TestPrimeAndClear(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch)
	l.Prime(7, "primed")
	l.Prime(7, "ignored")
	ctx := context.Background()
	if v, err := l.Load(ctx, 7); v != "primed" || err != nil {
		t.Errorf("Load(7) = %q, %v", v, err)
	}
	if len(f.got()) != 0 {
		t.Errorf("a primed key was fetched: %q", f.got())
	}
	l.Clear(7)
	if v, _ := l.Load(ctx, 7); v != "v7" {
		t.Errorf("after Clear, Load(7) = %q", v)
	}
	if want := []string{"[7]"}; !slices.Equal(f.got(), want) {
		t.Errorf("fetches %q, want %q", f.got(), want)
	}
}

func TestLoadOutsideTaskFetchesAtOnceAndCaches(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch)
	ctx := context.Background()
	for range 2 {
		if v, err := l.Load(ctx, 4); v != "v4" || err != nil {
			t.Errorf("Load(4) = %q, %v", v, err)
		}
	}
	if want := []string{"[4]"}; !slices.Equal(f.got(), want) {
		t.Errorf("fetches %q, want %q", f.got(), want)
	}
}

func TestLoadMany(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch)
	var vals []string
	var errs []error
	runTasks(func(ctx context.Context) { vals, errs = l.LoadMany(ctx, []int{5, -2, 6}) })
	if !slices.Equal(vals, []string{"v5", "", "v6"}) || len(errs) != 3 || errs[1] == nil || errs[0] != nil {
		t.Errorf("LoadMany = %q, %v", vals, errs)
	}
	if want := []string{"[-2 5 6]"}; !slices.Equal(f.got(), want) {
		t.Errorf("fetches %q, want %q", f.got(), want)
	}
}

func TestMaxBatchSplitsFetches(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch, loader.MaxBatch(2))
	var fns []func(context.Context)
	for k := 1; k <= 5; k++ {
		fns = append(fns, func(ctx context.Context) { _, _ = l.Load(ctx, k) })
	}
	runTasks(fns...)
	got := f.got()
	n := 0
	for _, s := range got {
		n += len(strings.Fields(s))
	}
	if len(got) != 3 || n != 5 {
		t.Errorf("fetches %q, want 3 calls of at most 2 keys covering 5 keys", got)
	}
}

func TestFetchFailures(t *testing.T) {
	boom := errors.New("store down")
	tests := []struct {
		name  string
		fetch loader.FetchFunc[int, string]
		want  string
	}{
		{"one error for all keys", func(context.Context, []int) ([]string, []error) { return nil, []error{boom} }, "store down"},
		{"too few values", func(context.Context, []int) ([]string, []error) { return []string{"x"}, nil }, "loader: fetch returned 1 values for 2 keys"},
		{"panic", func(context.Context, []int) ([]string, []error) { panic("kaboom") }, loader.ErrPanic.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := loader.New(tt.fetch)
			errs := make([]error, 2)
			runTasks(
				func(ctx context.Context) { _, errs[0] = l.Load(ctx, 1) },
				func(ctx context.Context) { _, errs[1] = l.Load(ctx, 2) },
			)
			for i, err := range errs {
				if err == nil || err.Error() != tt.want {
					t.Errorf("key %d: error %v, want %q", i+1, err, tt.want)
				}
			}
		})
	}
}

func TestFetchSeesRequestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	l := loader.New(func(ctx context.Context, keys []int) ([]string, []error) {
		close(started)
		<-ctx.Done()
		return nil, []error{ctx.Err()}
	})
	s := batchsched.NewScheduler(ctx, 2)
	task := s.NewTask()
	done := make(chan error)
	go func() {
		defer task.Done()
		_, err := l.Load(task.Context(ctx), 1)
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestLoadWithStaleTaskFetchesAtOnce keeps a task's context past its
// request: once the scheduler serves another request the task is stale,
// and a Load through it is fetched on its own instead of waiting.
func TestLoadWithStaleTaskFetchesAtOnce(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch)
	s := batchsched.NewScheduler(context.Background(), 2)
	task := s.NewTask()
	ctx := task.Context(context.Background())
	task.Done()
	s.Reset(context.Background(), 2)
	if batchsched.From(ctx) != nil {
		t.Fatal("a task of an earlier request is still found")
	}
	if v, err := l.Load(ctx, 8); v != "v8" || err != nil {
		t.Errorf("Load(8) = %q, %v", v, err)
	}
}

func TestLoadManyOutsideTaskIsOneFetch(t *testing.T) {
	f := &fetches{}
	l := loader.New(f.fetch)
	l.Prime(2, "primed")
	vals, errs := l.LoadMany(context.Background(), []int{1, 2, 3, 1})
	if !slices.Equal(vals, []string{"v1", "primed", "v3", "v1"}) || errs != nil {
		t.Errorf("LoadMany = %q, %v", vals, errs)
	}
	if want := []string{"[1 3]"}; !slices.Equal(f.got(), want) {
		t.Errorf("fetches %q, want %q", f.got(), want)
	}
}

// TestDistinctKeysOnce: a fetch gets each distinct key once, however many
// tasks load it and however often LoadMany repeats it, tracked or not.
func TestDistinctKeysOnce(t *testing.T) {
	var f fetches
	l := loader.New(f.fetch)
	load := func(ctx context.Context) {
		if _, errs := l.LoadMany(ctx, []int{1, 2, 1, 2, 3}); errs != nil {
			t.Error(errs)
		}
	}
	runTasks(load, load, func(ctx context.Context) { _, _ = l.Load(ctx, 3) })
	if got := f.got(); !slices.Equal(got, []string{"[1 2 3]"}) {
		t.Errorf("tracked fetches %v", got)
	}
	var g fetches
	l = loader.New(g.fetch)
	vals, _ := l.LoadMany(context.Background(), []int{4, 4, 5, 4})
	if got := g.got(); !slices.Equal(got, []string{"[4 5]"}) || strings.Join(vals, ",") != "v4,v4,v5,v4" {
		t.Errorf("untracked fetches %v, values %v", got, vals)
	}
}

// TestUntrackedLoadWarnsOnce: a Load outside a tracked task (a resolver
// that is not Concurrent) is fetched on its own, and the first such Load
// of a fetch function says so in the log.
func TestUntrackedLoadWarnsOnce(t *testing.T) {
	loader.ForgetUntrackedWarnings()
	var logs strings.Builder
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(old)
	var f fetches
	fetch := func(ctx context.Context, keys []int) ([]string, []error) { return f.fetch(ctx, keys) }
	for range 2 {
		l := loader.New(fetch)
		for k := range 3 {
			if _, err := l.Load(context.Background(), k); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := f.got(); len(got) != 6 {
		t.Errorf("fetches %v, want one per key and loader", got)
	}
	if n := strings.Count(logs.String(), "not declared schema.Concurrent"); n != 1 {
		t.Errorf("warned %d times, want once:\n%s", n, logs.String())
	}
}
