// Command subsbench measures WebSocket subscriptions on one server process
// serving the chat example (cmd/graft, or gqlgen with -server gqlgen): it opens -n graphql-transport-ws
// connections, each subscribed to messageAdded of one room, posts -events
// messages, and reports delivery, delivery latency (from sending the
// mutation to receiving the event), and the server's resident memory per
// idle subscriber: one second after the subscribers are set up, when the
// garbage of the handshakes may not yet be collected or returned to the
// operating system, and again once settled, after -settle with the
// subscribers idle (the runtime forces a collection every two minutes and
// its scavenger returns freed memory in the background). The server runs
// with GODEBUG=gctrace=1, which only prints a line per collection: the
// live heap and the goroutine stacks after the last collection of the
// settled period are reported per subscriber too.
//
//	go run ./cmd/subsbench -n 10000 -events 20
//	go run ./cmd/subsbench -n 10000 -events 5 -settle 0  # no settled figures
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	settle := flag.Duration("settle", 150*time.Second, "how long the subscribers stay idle before the settled measurement; 0 skips it")
	flag.Parse()
	pkg := map[string]string{
		"graft":  graftPkg,
		"gqlgen": "github.com/graftgql/graft/bench/cmd/gqlgenchat",
	}[*server]
	if pkg == "" {
		fmt.Fprintln(os.Stderr, "subsbench: -server is graft or gqlgen")
		os.Exit(2)
	}
	if err := run(pkg, *n, *events, *settle); err != nil {
		fmt.Fprintln(os.Stderr, "subsbench:", err)
		os.Exit(1)
	}
}

func run(pkg string, n, events int, settle time.Duration) error {
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
	srv.Env = append(os.Environ(), "GRAFT_EXAMPLE=chat", "HOST=127.0.0.1", "PORT="+strconv.Itoa(port), "LOG_LEVEL=error",
		"GODEBUG="+strings.TrimPrefix(os.Getenv("GODEBUG")+",gctrace=1", ","))
	var gcs gcTrace
	stderr, err := srv.StderrPipe()
	if err != nil {
		return err
	}
	go gcs.read(stderr)
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
	gc0, _ := gcs.get()

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
	var rssSettled int
	var gcSettled gcLine
	settledGCs := 0
	if settle > 0 {
		_, before := gcs.get()
		time.Sleep(settle)
		rssSettled = rss(srv.Process.Pid)
		var after int
		gcSettled, after = gcs.get()
		settledGCs = after - before
	}
	received.Store(0)
	mu.Lock()
	latencies = latencies[:0]
	mu.Unlock()
	deliverStart := time.Now()
	for range events {
		before := received.Load()
		sent.Store(time.Now().UnixNano())
		post(base, "event")
		for received.Load() < before+int64(n) && time.Since(time.Unix(0, sent.Load())) < 10*time.Second {
			time.Sleep(time.Millisecond)
		}
	}
	got := received.Load()
	deliverTime := time.Since(deliverStart)
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
	fmt.Printf("throughput           %.0f events/s delivered (%d in %s, each event posted once the previous one reached every subscriber)\n",
		float64(got)/deliverTime.Seconds(), got, deliverTime.Round(time.Millisecond))
	fmt.Printf("server RSS           %d KiB idle-before, %d KiB with subscribers, %d KiB after they left\n", rss0, rssIdle, rssAfter)
	fmt.Printf("RSS per subscriber   %.1f KiB, 1 s after the subscribers were set up\n", float64(rssIdle-rss0)/float64(n))
	if settle > 0 {
		fmt.Printf("                     %.1f KiB settled, after %s idle (%d collections in it)\n",
			float64(rssSettled-rss0)/float64(n), settle, settledGCs)
		if settledGCs > 0 {
			fmt.Printf("heap per subscriber  %.1f KiB live after the last collection (gctrace: %d MB, before any subscriber %d MB)\n",
				float64(gcSettled.liveMB-gc0.liveMB)*1024/float64(n), gcSettled.liveMB, gc0.liveMB)
		}
	}
	return nil
}

// gcLine is what a GODEBUG=gctrace=1 line says of the heap after a
// collection.
type gcLine struct {
	liveMB int
}

// gcTrace reads the server's standard error and keeps the last
// collection and the count of collections.
type gcTrace struct {
	mu   sync.Mutex
	last gcLine
	n    int
}

// gcPattern matches "gc 12 @3.4s 1%: ..., 10->12->6 MB, 13 MB goal, ...".
var gcPattern = regexp.MustCompile(`^gc \d+ .* \d+->\d+->(\d+) MB, \d+ MB goal`)

func (g *gcTrace) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := gcPattern.FindStringSubmatch(sc.Text())
		if m == nil {
			if sc.Text() != "GC forced" {
				fmt.Fprintln(os.Stderr, sc.Text()) // the server's own messages
			}
			continue
		}
		live, _ := strconv.Atoi(m[1])
		g.mu.Lock()
		g.last, g.n = gcLine{live}, g.n+1
		g.mu.Unlock()
	}
}

// get returns the last collection and the number of collections so far.
func (g *gcTrace) get() (gcLine, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.last, g.n
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
