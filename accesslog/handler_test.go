package accesslog

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// entries covers the strings slog quotes or escapes.
func entries() []Entry {
	at := time.Date(2026, 11, 27, 16, 47, 47, 123456789, time.FixedZone("X", 3600))
	base := Entry{Time: at, Method: "POST", Status: 200, OperationName: "Hello", OperationType: "query",
		Duration: 1234567 * time.Nanosecond, Errors: 0, RequestID: "0f0e", Remote: "127.0.0.1:5555"}
	var out []Entry
	for _, s := range []string{"", "plain", "with space", "a=b", `q"uote`, `back\slash`, "tab\tnl\ncr\r", "\x00\x1f\x7f",
		"<html>&amp;", "ünïcödé", "\u2028\u2029", "bad\xffutf8", "\u00a0nbsp", "emoji 😀"} {
		e := base
		e.OperationName, e.RequestID = s, s
		out = append(out, e)
	}
	for _, d := range []time.Duration{0, 400, time.Microsecond, 999 * time.Microsecond, 20 * time.Minute, 3 * time.Hour} {
		e := base
		e.Duration, e.Status, e.Errors = d, 503, 7
		out = append(out, e)
	}
	e := base
	e.Time = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e.BatchItem = 3
	return append(out, e)
}

// TestLogMatchesSlog: the fast path writes, byte for byte, what slog's
// own handler of the same format writes for the same record.
func TestLogMatchesSlog(t *testing.T) {
	for _, f := range []Format{Text, JSON} {
		for _, e := range entries() {
			var fast, want bytes.Buffer
			NewHandler(&fast, &HandlerOptions{Format: f}).Log(&e)
			var sh slog.Handler = slog.NewTextHandler(&want, nil)
			if f == JSON {
				sh = slog.NewJSONHandler(&want, nil)
			}
			r := slog.NewRecord(e.Time, slog.LevelInfo, Message, 0)
			r.AddAttrs(e.AppendAttrs(nil)...)
			if err := sh.Handle(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			if fast.String() != want.String() {
				t.Errorf("format %d:\n got %q\nwant %q", f, fast.String(), want.String())
			}
			// Through a Writer, the same bytes.
			var sink bytes.Buffer
			w := NewWriter(&sink, WriterOptions{})
			NewHandler(w, &HandlerOptions{Format: f}).Log(&e)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if sink.String() != want.String() {
				t.Errorf("format %d through a Writer:\n got %q\nwant %q", f, sink.String(), want.String())
			}
		}
	}
}

// TestLogLevel: a handler above Info writes no access line, and records
// logged through slog go through its format.
func TestLogLevel(t *testing.T) {
	var buf bytes.Buffer
	h := NewHandler(&buf, &HandlerOptions{Format: JSON, Level: slog.LevelWarn})
	h.Log(&Entry{Method: "GET"})
	slog.New(h).Info("no")
	if buf.Len() != 0 {
		t.Fatalf("wrote %q above Info", buf.String())
	}
	slog.New(h).Warn("yes", "k", 1)
	if !strings.Contains(buf.String(), `"msg":"yes","k":1`) {
		t.Fatalf("got %q", buf.String())
	}
}

// TestLogAllocations: an access line through a Writer allocates nothing.
func TestLogAllocations(t *testing.T) {
	w := NewWriter(discard{}, WriterOptions{})
	defer w.Close()
	for _, f := range []Format{Text, JSON} {
		h := NewHandler(w, &HandlerOptions{Format: f})
		e := entries()[3]
		if n := testing.AllocsPerRun(1000, func() { e.Time = time.Now(); h.Log(&e) }); n != 0 {
			t.Errorf("format %d: %v allocations per line, want 0", f, n)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func BenchmarkLog(b *testing.B) {
	e := entries()[1]
	for _, f := range []struct {
		name string
		f    Format
	}{{"text", Text}, {"json", JSON}} {
		b.Run(f.name+"/fast", func(b *testing.B) {
			w := NewWriter(discard{}, WriterOptions{})
			defer w.Close()
			h := NewHandler(w, &HandlerOptions{Format: f.f})
			b.ReportAllocs()
			for b.Loop() {
				e.Time = time.Now()
				h.Log(&e)
			}
		})
		b.Run(f.name+"/slog", func(b *testing.B) {
			var sh slog.Handler = slog.NewTextHandler(discard{}, nil)
			if f.f == JSON {
				sh = slog.NewJSONHandler(discard{}, nil)
			}
			l := slog.New(sh)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				l.LogAttrs(ctx, slog.LevelInfo, Message,
					slog.String("method", e.Method), slog.Int("status", e.Status),
					slog.String("operation_name", e.OperationName), slog.String("operation_type", e.OperationType),
					slog.Duration("duration", e.Duration), slog.Int("errors", e.Errors),
					slog.String("request_id", e.RequestID), slog.String("remote", e.Remote))
			}
		})
	}
}

// TestTimeMatchesAppendFormat: the time of a line, formatted from its
// cached second, is what time.Time.AppendFormat writes for slog's layouts,
// whatever the fraction and the zone, and across seconds.
func TestTimeMatchesAppendFormat(t *testing.T) {
	h := NewHandler(discard{}, nil)
	zones := []*time.Location{time.UTC, time.FixedZone("X", 3600), time.FixedZone("Y", -(9*3600 + 30*60)), time.Local}
	base := time.Date(2026, 11, 27, 23, 59, 58, 0, time.UTC)
	for i, ns := range []int{0, 1, 999, 1000000, 120000000, 123456789, 999999999, 500000000, 10} {
		for _, loc := range zones {
			for _, step := range []time.Duration{0, time.Second, 2 * time.Second, 0} {
				at := base.Add(step).Add(time.Duration(ns)).In(loc)
				sec := h.secondOf(at)
				if got, want := string(appendTime(nil, at, sec, false)), at.Format(timeLayout); got != want {
					t.Errorf("%d text: got %q, want %q", i, got, want)
				}
				if got, want := string(appendTime(nil, at, sec, true)), at.Format(time.RFC3339Nano); got != want {
					t.Errorf("%d json: got %q, want %q", i, got, want)
				}
			}
		}
	}
}
