package lifecycle

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/transport/poll"
)

// recordingConn records the write deadlines set on it.
type recordingConn struct {
	net.Conn
	writeDeadlines []time.Time
	deadlines      []time.Time
	writes         int
}

func (c *recordingConn) Write(p []byte) (int, error) { c.writes++; return len(p), nil }
func (c *recordingConn) SetWriteDeadline(t time.Time) error {
	c.writeDeadlines = append(c.writeDeadlines, t)
	return nil
}
func (c *recordingConn) SetDeadline(t time.Time) error {
	c.deadlines = append(c.deadlines, t)
	return nil
}

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestBoundConnRenewsTheDeadlineRarely(t *testing.T) {
	rc := &recordingConn{}
	clock := &fakeClock{t: time.Unix(1000, 0)}
	c := newBoundConn(rc, 8*time.Second, clock.now)
	start := clock.t
	// 1000 writes within the first second: one deadline.
	for range 1000 {
		c.Write([]byte("x"))
		clock.t = clock.t.Add(time.Millisecond)
	}
	if len(rc.writeDeadlines) != 1 || !rc.writeDeadlines[0].Equal(start.Add(8*time.Second)) {
		t.Fatalf("deadlines after 1000 quick writes: %v, want one at start+8s", rc.writeDeadlines)
	}
	// net/http clears the deadline after each request: the bound stays.
	c.SetWriteDeadline(time.Time{})
	if len(rc.writeDeadlines) != 1 {
		t.Fatalf("clearing while bound reached the connection: %v", rc.writeDeadlines)
	}
	// Once less than 7/8 of the timeout is left, the next write renews.
	clock.t = start.Add(time.Second + time.Nanosecond)
	c.Write([]byte("x"))
	if len(rc.writeDeadlines) != 2 || !rc.writeDeadlines[1].Equal(clock.t.Add(8*time.Second)) {
		t.Fatalf("deadlines after 1s: %v, want a second one at now+8s", rc.writeDeadlines)
	}
	if rc.writes != 1001 {
		t.Fatalf("%d writes reached the connection, want 1001", rc.writes)
	}
}

func TestBoundConnExplicitDeadlineHolds(t *testing.T) {
	rc := &recordingConn{}
	clock := &fakeClock{t: time.Unix(1000, 0)}
	c := newBoundConn(rc, 8*time.Second, clock.now)
	c.Write([]byte("x"))
	explicit := clock.t.Add(time.Second)
	c.SetWriteDeadline(explicit)
	clock.t = clock.t.Add(5 * time.Second) // the bound would renew now
	c.Write([]byte("x"))
	if got := rc.writeDeadlines; len(got) != 2 || !got[1].Equal(explicit) {
		t.Fatalf("deadlines: %v, want the bound then the explicit one only", got)
	}
	// Clearing returns to the bound: the zero time reaches the
	// connection, and the next write sets the bound again.
	c.SetWriteDeadline(time.Time{})
	c.Write([]byte("x"))
	if got := rc.writeDeadlines; len(got) != 4 || !got[2].IsZero() || !got[3].Equal(clock.t.Add(8*time.Second)) {
		t.Fatalf("deadlines: %v, want ..., zero, now+8s", got)
	}
}

func TestBoundConnSetDeadlineHandsOver(t *testing.T) {
	rc := &recordingConn{}
	clock := &fakeClock{t: time.Unix(1000, 0)}
	c := newBoundConn(rc, 8*time.Second, clock.now)
	c.Write([]byte("x"))
	c.SetDeadline(time.Time{}) // net/http's Hijack
	clock.t = clock.t.Add(time.Hour)
	c.Write([]byte("x"))
	c.SetWriteDeadline(time.Time{})
	if got := rc.writeDeadlines; len(got) != 2 || !got[1].IsZero() {
		t.Fatalf("write deadlines after SetDeadline: %v, want the bound, then the caller's zero only", got)
	}
	if len(rc.deadlines) != 1 {
		t.Fatalf("SetDeadline calls: %v", rc.deadlines)
	}
}

func TestBoundConnCloseWrite(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	bl := BoundWrites(ln, time.Minute)
	done := make(chan error, 1)
	go func() {
		c, err := bl.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		c.Write([]byte("answer"))
		done <- c.(interface{ CloseWrite() error }).CloseWrite()
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if err := <-done; err != nil {
		t.Fatalf("CloseWrite: %v", err)
	}
	// After CloseWrite the client reads the answer, then EOF.
	if got, err := io.ReadAll(client); err != nil || string(got) != "answer" {
		t.Fatalf("client read %q, %v; want the answer then EOF", got, err)
	}
	if got := (&boundConn{Conn: &recordingConn{}}).CloseWrite(); got == nil {
		t.Fatal("CloseWrite on a connection without one succeeded")
	}
}

// A bound connection reads through the connection it wraps, so the
// streaming transports may wait for input on its socket.
var _ poll.Wrapper = (*boundConn)(nil)
