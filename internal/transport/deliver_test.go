package transport

import (
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// countTask counts its runs and the workers running tasks at once.
type countTask struct {
	runs      *atomic.Int64
	now, peak *atomic.Int64
	wg        *sync.WaitGroup
	gate      chan struct{}
}

func (c countTask) Run() {
	n := c.now.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	if c.gate != nil {
		<-c.gate
	}
	c.now.Add(-1)
	c.runs.Add(1)
	c.wg.Done()
}

// TestScheduleRunsTasksOnFewWorkers: thousands of tasks scheduled at
// once run, each once, on at most GOMAXPROCS workers, which are gone
// once the list is empty.
func TestScheduleRunsTasksOnFewWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	h := NewHub(1, 1)
	var runs, now, peak atomic.Int64
	var wg sync.WaitGroup
	gate := make(chan struct{})
	const n = 5000
	wg.Add(n)
	for range n {
		h.Schedule(countTask{runs: &runs, now: &now, peak: &peak, wg: &wg, gate: gate})
	}
	close(gate)
	wg.Wait()
	if runs.Load() != n {
		t.Errorf("%d runs of %d tasks", runs.Load(), n)
	}
	if p := peak.Load(); p > 2 {
		t.Errorf("%d tasks ran at once, want at most GOMAXPROCS (2)", p)
	}
	// The workers leave once the list is empty.
	for {
		h.run.mu.Lock()
		w, ready := h.run.workers, len(h.run.ready)
		h.run.mu.Unlock()
		if w == 0 {
			if ready != 0 {
				t.Errorf("%d tasks left in an idle hub", ready)
			}
			break
		}
		runtime.Gosched()
	}
}

// TestRawWriterDoesNotWait: TryWrite writes what the socket takes and
// returns, short, when its buffer is full rather than waiting for the
// client; what it wrote arrives whole and in order.
func TestRawWriterDoesNotWait(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	w := NewRawWriter(server)
	if w == nil {
		if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" {
			t.Skip("no raw socket writes on " + runtime.GOOS)
		}
		t.Fatal("no RawWriter for a TCP connection")
	}
	if n, err := w.TryWrite([]byte("hello")); n != 5 || err != nil {
		t.Fatalf("TryWrite = %d, %v", n, err)
	}
	// 64 MiB is more than any socket buffers: the write comes back short.
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = byte(i)
	}
	n, err := w.TryWrite(big)
	if err != nil || n <= 0 || n >= len(big) {
		t.Fatalf("TryWrite of 64 MiB = %d, %v: want a short write", n, err)
	}
	got := make([]byte, 5+n)
	for off := 0; off < len(got); {
		k, err := client.Read(got[off:])
		if err != nil {
			t.Fatal(err)
		}
		off += k
	}
	if string(got[:5]) != "hello" || string(got[5:]) != string(big[:n]) {
		t.Error("the bytes read differ from those written")
	}
	x := []byte("x")
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := w.TryWrite(x); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per TryWrite, want 0", allocs)
	}
	client.Close()
	server.Close()
	if _, err := w.TryWrite([]byte("x")); err == nil {
		t.Error("TryWrite on a closed socket reported no error")
	}
}

// roundsTask runs once per Schedule while idle; news during a run makes
// the run go round again, not a second run beside it.
type roundsTask struct {
	h       *Hub
	rounds  Rounds
	entered chan struct{} // the first round tells it began
	gate    chan struct{} // and waits for it
	passes  atomic.Int64
	done    chan struct{}
}

func (r *roundsTask) Run() {
	for {
		if r.passes.Add(1) == 1 {
			r.entered <- struct{}{}
			<-r.gate
		}
		if !r.rounds.Again() {
			r.done <- struct{}{}
			return
		}
	}
}

// TestRoundsScheduleOnceAndGoRoundAgain: news while a task runs makes it
// go round once more (however many notices came), and news after it ended
// schedules it anew.
func TestRoundsScheduleOnceAndGoRoundAgain(t *testing.T) {
	r := &roundsTask{h: NewHub(1, 1), entered: make(chan struct{}), gate: make(chan struct{}), done: make(chan struct{}, 4)}
	r.rounds.Schedule(r.h, r)
	<-r.entered
	for range 3 {
		r.rounds.Schedule(r.h, r) // during the first round
	}
	close(r.gate)
	<-r.done
	if n := r.passes.Load(); n != 2 {
		t.Fatalf("%d rounds, want 2 (the first and one more for the news during it)", n)
	}
	r.rounds.Schedule(r.h, r)
	<-r.done
	if n := r.passes.Load(); n != 3 {
		t.Fatalf("%d rounds after news once idle, want 3", n)
	}
	if len(r.done) != 0 {
		t.Fatal("a second run ended")
	}
}
