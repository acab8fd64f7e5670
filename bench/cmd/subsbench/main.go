// Command subsbench measures WebSocket subscriptions on one server process
// serving the chat example (cmd/graft, or gqlgen with -server gqlgen): it opens -n graphql-transport-ws
// connections, each subscribed to messageAdded of one room, posts -events
// messages, and reports delivery, delivery latency (from sending the
// mutation to receiving the event), and the server's resident memory per
// idle subscriber.
//
//	go run ./cmd/subsbench -n 10000 -events 20
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

const graftPkg = "github.com/graftgql/graft/cmd/graft"

func main() {
	n := flag.Int("n", 10000, "subscribers")
	events := flag.Int("events", 20, "messages posted")
	server := flag.String("server", "graft", "graft (cmd/graft) or gqlgen (cmd/gqlgenchat)")
	flag.Parse()
	pkg := map[string]string{
		"graft":  graftPkg,
		"gqlgen": "github.com/graftgql/graft/bench/cmd/gqlgenchat",
	}[*server]
	if pkg == "" {
		fmt.Fprintln(os.Stderr, "subsbench: -server is graft or gqlgen")
		os.Exit(2)
	}
	if err := run(pkg, *n, *events); err != nil {
		fmt.Fprintln(os.Stderr, "subsbench:", err)
		os.Exit(1)
	}
}

func run(pkg string, n, events int) error {
	dir, err := os.MkdirTemp("", "subsbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "graft")
	build := exec.Command("go", "build", "-o", bin, pkg)
	if pkg == graftPkg {
		// cmd/graft is built in its own module, whose go.sum covers its
		// dependencies (OpenTelemetry's exporters) that bench's does not.
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/graftgql/graft").Output()
		if err != nil {
			return fmt.Errorf("locate the graft module: %v", err)
		}
		build.Dir = strings.TrimSpace(string(out))
	}
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	srv := exec.Command(bin)
	srv.Env = append(os.Environ(), "GRAFT_EXAMPLE=chat", "HOST=127.0.0.1", "PORT="+strconv.Itoa(port), "LOG_LEVEL=error")
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	for i := 0; ; i++ {
		if r, err := http.Get(base + "/health"); err == nil {
			r.Body.Close()
			break
		}
		if i > 200 {
			return fmt.Errorf("server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	rss0 := rss(srv.Process.Pid)

	var received atomic.Int64
	var mu sync.Mutex
	var latencies []time.Duration
	var sent atomic.Int64 // unix nanos of the current post
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ready, done sync.WaitGroup
	conns := make([]*websocket.Conn, n)
	start := time.Now()
	for i := range n {
		c, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(port)+"/graphql",
			&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
		if err != nil {
			return fmt.Errorf("dial %d: %w", i, err)
		}
		conns[i] = c
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"connection_init"}`))
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"bench\") { id text } }"}}`))
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			acked := false
			for {
				_, b, err := c.Read(ctx)
				if err != nil {
					if !acked {
						ready.Done()
					}
					return
				}
				if !acked && bytes.Contains(b, []byte("connection_ack")) {
					acked = true
					ready.Done()
					continue
				}
				if bytes.Contains(b, []byte(`"next"`)) {
					d := time.Duration(time.Now().UnixNano() - sent.Load())
					received.Add(1)
					mu.Lock()
					latencies = append(latencies, d)
					mu.Unlock()
				}
			}
		}()
	}
	ready.Wait()
	connectTime := time.Since(start)
	// The subscribe messages are handled asynchronously: wait until a
	// probe message reaches every subscriber before measuring.
	for received.Load() < int64(n) {
		sent.Store(time.Now().UnixNano())
		post(base, "probe")
		time.Sleep(200 * time.Millisecond)
		if time.Since(start) > 5*time.Minute {
			return fmt.Errorf("only %d of %d subscribers receive", received.Load(), n)
		}
	}
	time.Sleep(time.Second)
	rssIdle := rss(srv.Process.Pid)
	received.Store(0)
	mu.Lock()
	latencies = latencies[:0]
	mu.Unlock()
	for range events {
		before := received.Load()
		sent.Store(time.Now().UnixNano())
		post(base, "event")
		for received.Load() < before+int64(n) && time.Since(time.Unix(0, sent.Load())) < 10*time.Second {
			time.Sleep(time.Millisecond)
		}
	}
	got := received.Load()
	mu.Lock()
	slices.Sort(latencies)
	p50, p99 := pct(latencies, 0.50), pct(latencies, 0.99)
	mu.Unlock()
	for _, c := range conns {
		_ = c.CloseNow()
	}
	done.Wait()
	time.Sleep(2 * time.Second)
	rssAfter := rss(srv.Process.Pid)
	fmt.Printf("subscribers          %d (connected in %s)\n", n, connectTime.Round(time.Millisecond))
	fmt.Printf("delivery             %d / %d (%.2f%%)\n", got, int64(n*events), 100*float64(got)/float64(n*events))
	fmt.Printf("latency p50 / p99    %s / %s\n", p50.Round(time.Microsecond), p99.Round(time.Microsecond))
	fmt.Printf("server RSS           %d KiB idle-before, %d KiB with subscribers, %d KiB after they left\n", rss0, rssIdle, rssAfter)
	fmt.Printf("RSS per subscriber   %.1f KiB\n", float64(rssIdle-rss0)/float64(n))
	return nil
}

func post(base, text string) {
	body := `{"query":"mutation { postMessage(room: \"bench\", author: \"b\", text: \"` + text + `\") { id } }"}`
	r, err := http.Post(base+"/graphql", "application/json", strings.NewReader(body))
	if err == nil {
		r.Body.Close()
	}
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// rss returns the resident set size of pid in KiB.
func rss(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	return 0
}
