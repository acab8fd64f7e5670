package accesslog

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// sink records every write; with gate set, each write waits for a value
// on it first.
type sink struct {
	mu     sync.Mutex
	writes []string
	gate   chan struct{}
	wrote  chan struct{} // a value per write, when set
}

func (s *sink) Write(p []byte) (int, error) {
	if s.gate != nil {
		<-s.gate
	}
	s.mu.Lock()
	s.writes = append(s.writes, string(p))
	s.mu.Unlock()
	if s.wrote != nil {
		s.wrote <- struct{}{}
	}
	return len(p), nil
}

func (s *sink) all() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.writes, ""), len(s.writes)
}

func line(i int) []byte { return fmt.Appendf(nil, "line %04d\n", i) } // 10 bytes

// TestWriterBatches: lines written together reach the sink in one write,
// on Flush, and nothing before.
func TestWriterBatches(t *testing.T) {
	s := &sink{}
	w := NewWriter(s, WriterOptions{FlushInterval: time.Hour})
	defer w.Close()
	var want bytes.Buffer
	for i := range 100 {
		if _, err := w.Write(line(i)); err != nil {
			t.Fatal(err)
		}
		want.Write(line(i))
	}
	if _, n := s.all(); n != 0 {
		t.Fatalf("%d writes before Flush, want 0", n)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, n := s.all()
	if n != 1 || got != want.String() {
		t.Fatalf("%d writes of %q, want 1 of %q", n, got, want.String())
	}
}

// TestWriterFull: a full buffer goes to the sink without waiting for the
// interval, and lines stay whole and in order.
func TestWriterFull(t *testing.T) {
	s := &sink{wrote: make(chan struct{}, 100)}
	w := NewWriter(s, WriterOptions{BufferBytes: 35, FlushInterval: time.Hour})
	var want bytes.Buffer
	for i := range 4 { // the fourth line does not fit: the first three go
		_, _ = w.Write(line(i))
		want.Write(line(i))
	}
	select {
	case <-s.wrote:
	case <-time.After(10 * time.Second):
		t.Fatal("a full buffer was not written")
	}
	if got, _ := s.all(); got != want.String()[:30] {
		t.Fatalf("first batch %q", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, n := s.all(); n != 2 || got != want.String() {
		t.Fatalf("%d writes of %q, want 2 of %q", n, got, want.String())
	}
}

// TestWriterInterval: a line is written within the flush interval
// without Flush.
func TestWriterInterval(t *testing.T) {
	s := &sink{wrote: make(chan struct{}, 10)}
	w := NewWriter(s, WriterOptions{FlushInterval: time.Millisecond})
	defer w.Close()
	_, _ = w.Write(line(1))
	select {
	case <-s.wrote:
	case <-time.After(10 * time.Second):
		t.Fatal("the interval did not flush")
	}
	if got, _ := s.all(); got != string(line(1)) {
		t.Fatalf("got %q", got)
	}
}

// TestWriterDropsWhenSinkStalls: with the sink blocked, the writer holds
// two buffers, drops and counts the rest without blocking the caller, and
// writes every accepted line, in order, once the sink moves.
func TestWriterDropsWhenSinkStalls(t *testing.T) {
	s := &sink{gate: make(chan struct{})}
	w := NewWriter(s, WriterOptions{BufferBytes: 30, FlushInterval: time.Hour})
	var accepted bytes.Buffer
	dropped := 0
	for i := range 20 { // returns although the sink never does
		if _, err := w.Write(line(i)); err == ErrDropped {
			dropped++
		} else if err != nil {
			t.Fatal(err)
		} else {
			accepted.Write(line(i))
		}
	}
	if got := w.Dropped(); got != uint64(dropped) || dropped != 14 {
		t.Fatalf("dropped %d, counted %d; want 14 (two buffers of 3 lines kept)", dropped, got)
	}
	if _, err := w.Write(make([]byte, 31)); err != ErrDropped {
		t.Fatalf("a line longer than the buffer: %v, want ErrDropped", err)
	}
	close(s.gate)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.all(); got != accepted.String() {
		t.Fatalf("sink got %q, want %q", got, accepted.String())
	}
	// After Close, lines go straight to the sink.
	_, _ = w.Write(line(99))
	if got, _ := s.all(); !strings.HasSuffix(got, string(line(99))) {
		t.Fatalf("a line after Close was not written: %q", got)
	}
}

// TestWriterConcurrent: lines from many goroutines arrive whole, none
// lost, through Close.
func TestWriterConcurrent(t *testing.T) {
	s := &sink{}
	w := NewWriter(s, WriterOptions{BufferBytes: 1 << 20, FlushInterval: time.Millisecond})
	h := NewHandler(w, &HandlerOptions{Format: JSON})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				h.Log(&Entry{Method: "POST", Status: 200, RequestID: fmt.Sprintf("%d-%d", g, i)})
				if i%100 == 0 {
					_ = w.Flush()
				}
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := s.all()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		i := strings.Index(l, `"request_id":"`)
		if !strings.HasPrefix(l, `{"time":`) || !strings.HasSuffix(l, `}`) || i < 0 {
			t.Fatalf("broken line %q", l)
		}
		seen[l[i:]] = true
	}
	if len(lines) != 4000 || len(seen) != 4000 || w.Dropped() != 0 {
		t.Fatalf("%d lines, %d distinct, %d dropped; want 4000, 4000, 0", len(lines), len(seen), w.Dropped())
	}
}
