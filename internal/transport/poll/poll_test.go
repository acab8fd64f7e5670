package poll

import (
	"net"
	"runtime"
	"testing"
	"time"
)

// pair returns both ends of a loopback TCP connection: the server's end
// first.
func pair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return server, client
}

// watched registers conn and returns its handle and the channel its
// wakes are sent to.
func watched(t *testing.T, conn net.Conn) (*Handle, chan struct{}) {
	t.Helper()
	woken := make(chan struct{}, 4)
	h := Watch(conn, func() { woken <- struct{}{} })
	if h == nil {
		if runtime.GOOS == "linux" {
			t.Fatal("a TCP connection cannot be watched on Linux")
		}
		t.Skip("no poller on " + runtime.GOOS)
	}
	t.Cleanup(h.Stop)
	return h, woken
}

func waitWake(t *testing.T, woken chan struct{}) {
	t.Helper()
	select {
	case <-woken:
	case <-time.After(10 * time.Second):
		t.Fatal("not woken")
	}
}

func notWoken(t *testing.T, woken chan struct{}) {
	t.Helper()
	select {
	case <-woken:
		t.Fatal("woken with nothing to read")
	default:
	}
}

// Input wakes an armed handle, once, and the input is still there to
// read; armed again, it wakes for the next input.
func TestWakeOnInput(t *testing.T) {
	server, client := pair(t)
	h, woken := watched(t, server)
	if !h.Arm() {
		t.Fatal("Arm failed on an open socket")
	}
	notWoken(t, woken)
	for _, msg := range []string{"a", "b"} {
		if _, err := client.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		waitWake(t, woken)
		buf := make([]byte, 8)
		n, err := server.Read(buf)
		if err != nil || string(buf[:n]) != msg {
			t.Fatalf("read %q, %v; want %q", buf[:n], err, msg)
		}
		notWoken(t, woken)
		if !h.Arm() {
			t.Fatal("Arm failed on an open socket")
		}
	}
}

// The client leaving wakes the handle, and the read reports the end.
func TestWakeOnPeerClose(t *testing.T) {
	server, client := pair(t)
	h, woken := watched(t, server)
	h.Arm()
	client.Close()
	waitWake(t, woken)
	if _, err := server.Read(make([]byte, 1)); err == nil {
		t.Fatal("read succeeded after the client left")
	}
}

// The owner closing the socket wakes an armed handle through Closed; a
// handle that is not armed is not woken, and Arm on a closed socket
// reports false.
func TestClosedWakes(t *testing.T) {
	server, _ := pair(t)
	h, woken := watched(t, server)
	h.Arm()
	server.Close()
	h.Closed()
	waitWake(t, woken)
	h.Closed() // not armed: nothing
	notWoken(t, woken)
	if h.Arm() {
		t.Fatal("Arm succeeded on a closed socket")
	}
}

// Armed sockets cost no goroutine each: one goroutine waits for all of
// them, and it ends once none is registered.
func TestNoGoroutinePerSocket(t *testing.T) {
	before := runtime.NumGoroutine()
	const n = 200
	var handles []*Handle
	wakes := make(chan struct{}, n)
	var clients []net.Conn
	for range n {
		server, client := pair(t)
		h := Watch(server, func() { wakes <- struct{}{} })
		if h == nil {
			t.Skip("no poller on " + runtime.GOOS)
		}
		if !h.Arm() {
			t.Fatal("Arm failed")
		}
		handles = append(handles, h)
		clients = append(clients, client)
	}
	if g := runtime.NumGoroutine(); g > before+1 {
		t.Fatalf("%d goroutines for %d armed sockets, want at most %d", g, n, before+1)
	}
	// Every socket is still waited for.
	for _, c := range clients {
		_, _ = c.Write([]byte("x"))
	}
	for range n {
		waitWake(t, wakes)
	}
	for _, h := range handles {
		h.Stop()
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines once nothing is registered, want %d", runtime.NumGoroutine(), before)
		}
		runtime.Gosched()
	}
}

// Watch takes plain sockets only.
func TestWatchRefusesOtherConns(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if Watch(a, func() {}) != nil {
		t.Fatal("a pipe was watched")
	}
}

// wrapped wraps a connection without changing its reads, as graft's
// listener wrappers do.
type wrapped struct{ net.Conn }

func (w wrapped) PlainConn() net.Conn { return w.Conn }

// A Wrapper's inner socket is watched.
func TestWatchUnwraps(t *testing.T) {
	server, client := pair(t)
	h, woken := watched(t, wrapped{wrapped{server}})
	h.Arm()
	if _, err := client.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	waitWake(t, woken)
}
