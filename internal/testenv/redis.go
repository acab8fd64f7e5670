package testenv

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// redisStartTimeout bounds how long StartRedis waits for redis-server to
// answer PING.
const redisStartTimeout = 15 * time.Second

// RedisServer is a redis-server process started for one test, on a
// loopback port, with no persistence. Stop, Start, Pause and Resume let
// fault tests take it away and bring it back on the same address.
type RedisServer struct {
	// Addr is host:port of the server.
	Addr string

	t    testing.TB
	bin  string
	port int
	dir  string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	paused bool
}

// StartRedis starts redis-server on a free loopback port, waits until it
// answers PING, and stops it when the test ends. Without redis-server on
// PATH the test is skipped (or failed under GRAFT_REQUIRE_ALL).
func StartRedis(t testing.TB) (string, *RedisServer) {
	t.Helper()
	bin := LookPath(t, "redis-server")
	s := &RedisServer{t: t, bin: bin, dir: t.TempDir()}
	t.Cleanup(s.Stop)
	// Another process may take the free port before redis-server binds it;
	// then redis-server exits and another port is tried.
	var err error
	for range 3 {
		if s.port, err = freePort(); err != nil {
			t.Fatalf("testenv: redis: finding a free port: %v", err)
		}
		s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
		if err = s.start(); err == nil {
			return s.Addr, s
		}
	}
	t.Fatalf("testenv: redis: %v", err)
	return "", nil
}

// Start starts the server again on the same address after Stop, and waits
// until it answers PING. It does nothing when the server is running.
func (s *RedisServer) Start() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatalf("testenv: redis: %v", err)
	}
}

func (s *RedisServer) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil
	}
	cmd := exec.Command(s.bin,
		"--port", strconv.Itoa(s.port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", s.dir,
		"--protected-mode", "no",
		"--loglevel", "warning",
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", s.bin, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	if err := waitForPing(s.Addr, exited, redisStartTimeout); err != nil {
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("redis-server on %s did not come up: %w; its output: %q", s.Addr, err, out.String())
	}
	s.cmd, s.exited, s.paused = cmd, exited, false
	return nil
}

// Stop stops the server and waits for it to exit. Connections to it fail
// from then on. It does nothing when the server is not running.
func (s *RedisServer) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	if s.paused {
		_ = s.cmd.Process.Signal(sigCont)
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd, s.paused = nil, false
}

// Pause freezes the server (SIGSTOP): connections stay open but nothing is
// answered, as with a hung server or a network partition.
func (s *RedisServer) Pause() {
	s.signal(sigStop, true)
}

// Resume lets a paused server go on (SIGCONT).
func (s *RedisServer) Resume() {
	s.signal(sigCont, false)
}

func (s *RedisServer) signal(sig syscall.Signal, paused bool) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.t.Fatalf("testenv: redis on %s is not running", s.Addr)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("testenv: redis: sending %v: %v", sig, err)
	}
	s.paused = paused
}

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitForPing polls addr until it answers PING with PONG, the process
// exits, or the timeout passes.
func waitForPing(addr string, exited <-chan struct{}, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	backoff := time.Millisecond
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("redis-server exited")
		default:
		}
		if last = ping(addr); last == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("redis-server exited")
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 50*time.Millisecond)
	}
	return fmt.Errorf("no PONG within %v: %w", timeout, last)
}

// ping sends one PING over a fresh connection and checks the reply.
func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}
