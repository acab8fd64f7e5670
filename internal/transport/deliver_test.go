package transport

import (
	"errors"
	"io"
	"net"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
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
	w.Close(server)
	if _, err := w.TryWrite([]byte("x")); err == nil {
		t.Error("TryWrite on a closed socket reported no error")
	}
}

// tcpPair returns both ends of a new loopback TCP connection.
func tcpPair(t *testing.T, ln net.Listener) (client, server net.Conn) {
	t.Helper()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	return client, server
}

// fdOf returns the descriptor number of conn.
func fdOf(t *testing.T, conn net.Conn) int {
	t.Helper()
	raw, err := conn.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	fd := -1
	if err := raw.Control(func(s uintptr) { fd = int(s) }); err != nil {
		t.Fatal(err)
	}
	return fd
}

// TestRawWriterClosedWritesNowhere: once Close has closed the
// connection, the RawWriter writes nothing more, even to the socket
// opened next under the same descriptor number; a Close racing with
// writes waits for the write under way.
func TestRawWriterClosedWritesNowhere(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" {
		t.Skip("no raw socket writes on " + runtime.GOOS)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	// A Close racing with a writer.
	client, server := tcpPair(t, ln)
	w := NewRawWriter(server)
	if w == nil {
		t.Fatal("no RawWriter for a TCP connection")
	}
	go func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }(client)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if _, err := w.TryWrite([]byte("event")); err != nil {
				return
			}
		}
	}()
	runtime.Gosched()
	if err := w.Close(server); err != nil {
		t.Fatal(err)
	}
	<-stopped
	client.Close()

	// The number reused.
	client, server = tcpPair(t, ln)
	defer client.Close()
	w = NewRawWriter(server)
	fd := fdOf(t, server)
	w.Close(server)
	if _, err := w.TryWrite([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("TryWrite after Close = %v, want net.ErrClosed", err)
	}
	var owner, peer net.Conn
	for range 10 {
		c, s := tcpPair(t, ln)
		defer c.Close()
		defer s.Close()
		switch fd {
		case fdOf(t, c):
			owner, peer = c, s
		case fdOf(t, s):
			owner, peer = s, c
		}
		if owner != nil {
			break
		}
	}
	if owner == nil {
		t.Fatalf("no new socket took descriptor %d", fd)
	}
	if n, err := w.TryWrite([]byte("leak")); n != 0 || err == nil {
		t.Fatalf("TryWrite after Close = %d, %v", n, err)
	}
	if _, err := owner.Write([]byte("ok")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 8)
	n, err := peer.Read(got)
	if err != nil || string(got[:n]) != "ok" {
		t.Fatalf("the socket that took descriptor %d read %q, %v; want \"ok\"", fd, got[:n], err)
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

// preTask records its Prefetch calls and its run in a shared log.
type preTask struct {
	id  int
	mu  *sync.Mutex
	log *[]string
	wg  *sync.WaitGroup
}

func (p preTask) Prefetch(level int) {
	p.mu.Lock()
	*p.log = append(*p.log, "p"+strconv.Itoa(level)+"/"+strconv.Itoa(p.id))
	p.mu.Unlock()
}

func (p preTask) Run() {
	p.mu.Lock()
	*p.log = append(*p.log, "run/"+strconv.Itoa(p.id))
	p.mu.Unlock()
	p.wg.Done()
}

// TestWorkerPrefetchesAhead: a worker asks each task for its memory level
// by level (0, its own state, first), the last level the task before it
// runs.
func TestWorkerPrefetchesAhead(t *testing.T) {
	h := NewHub(10, 10)
	h.run.max = 1
	var mu sync.Mutex
	var log []string
	var wg sync.WaitGroup
	const n = 10
	wg.Add(n)
	// Queued while the hub's one worker is held, so they run as one batch.
	gate := make(chan struct{})
	wg.Add(1)
	held := countTask{runs: new(atomic.Int64), now: new(atomic.Int64), peak: new(atomic.Int64), wg: &wg, gate: gate}
	h.Schedule(held)
	for held.now.Load() == 0 {
		runtime.Gosched()
	}
	for i := range n {
		h.Schedule(preTask{i, &mu, &log, &wg})
	}
	close(gate)
	wg.Wait()
	pos := map[string]int{}
	for i, e := range log {
		pos[e] = i
	}
	for i := range n {
		run, ok := pos["run/"+strconv.Itoa(i)]
		if !ok {
			t.Fatalf("task %d did not run: %q", i, log)
		}
		last := -1
		for level := range prefetchLevels {
			at, ok := pos["p"+strconv.Itoa(level)+"/"+strconv.Itoa(i)]
			if i < prefetchLevels-level {
				continue // the first tasks of a batch miss the first levels
			}
			if !ok || at < last || at > run {
				t.Fatalf("task %d: Prefetch(%d) missing or out of order: %q", i, level, log)
			}
			last = at
		}
	}
}
