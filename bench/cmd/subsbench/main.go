// Command subsbench measures subscription fan-out: one server process
// serving the chat example (cmd/graft, or gqlgen's cmd/gqlgenchat), -n
// subscribers of messageAdded in one room, and -events messages posted to
// that room, each once the previous one reached every subscriber. It runs
// every server of -servers over every transport of -transports, each pair
// on a fresh server process, the pairs interleaved over -rounds (the order
// of the servers alternates from round to round), and prints per pair:
// delivery, events delivered per second, delivery latency (from sending
// the mutation to receiving the event, p50 and p99), and the server's
// resident memory per idle subscriber; then graft's figures as ratios of
// gqlgen's, per transport.
//
// The transports: ws is graphql-transport-ws (one WebSocket per
// subscriber), sse is Server-Sent Events in graphql-sse's distinct
// connections mode (one POST with Accept: text/event-stream per
// subscriber; gqlgen's transport.SSE speaks it too).
//
// Memory: the server's VmRSS before any subscriber, one second after the
// subscribers are set up (when the garbage of the handshakes may not yet
// be collected or returned to the operating system), and, with -settle,
// again after that long with the subscribers idle (the runtime forces a
// collection every two minutes and its scavenger returns freed memory in
// the background). The server runs with GODEBUG=gctrace=1, which only
// prints a line per collection: the live heap after the last collection
// of the settled period is reported per subscriber too. GOGC and
// GOMEMLIMIT are left at their defaults.
//
//	go run ./cmd/subsbench                                  # 10,000 subscribers, both servers, both transports
//	go run ./cmd/subsbench -settle 130s                     # with settled memory figures
//	go run ./cmd/subsbench -servers graft -transports ws -n 2000
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const graftPkg = "github.com/graftgql/graft/cmd/graft"

// servers are the packages of the servers, by name.
var servers = map[string]string{
	"graft":  graftPkg,
	"gqlgen": "github.com/graftgql/graft/bench/cmd/gqlgenchat",
}

// query is the subscription every subscriber runs.
const query = `subscription { messageAdded(room: \"bench\") { id text } }`

func main() {
	n := flag.Int("n", 10000, "subscribers per server and transport")
	events := flag.Int("events", 20, "messages posted per server and transport")
	serverList := flag.String("servers", "graft,gqlgen", "servers: graft (cmd/graft), gqlgen (cmd/gqlgenchat)")
	transportList := flag.String("transports", "ws,sse", "transports: ws (graphql-transport-ws), sse (graphql-sse, distinct connections)")
	rounds := flag.Int("rounds", 1, "rounds; each runs every server over every transport once")
	settle := flag.Duration("settle", 0, "how long the subscribers stay idle before the settled memory figure (past 2m for the runtime's forced collection); 0 skips it")
	timeout := flag.Duration("timeout", 2*time.Minute, "bound on setting up the subscribers of one pair, and on delivering its events")
	base := flag.String("base", "", "also run cmd/graft as of this commit (the server graft@REF), checked out in a temporary git worktree")
	useReactor := flag.Bool("reactor", false, "read every subscriber's socket on one goroutine with epoll (Linux), rather than a goroutine each: the client is then never the bound of the throughput, but sleeps more, and a server on loopback pays for waking it")
	pin := flag.Bool("pin", true, "run the server on CPU 0 with GOMAXPROCS=1 and the clients on CPU 1 (needs taskset and two CPUs)")
	flag.Parse()
	cfg := config{n: *n, events: *events, settle: *settle, timeout: *timeout, pin: *pin, reactor: *useReactor, procs: strconv.Itoa(runtime.NumCPU())}
	if _, err := exec.LookPath("taskset"); err != nil || runtime.NumCPU() < 2 {
		cfg.pin = false
	}
	if cfg.pin {
		cfg.procs = "1"
		out, err := exec.Command("taskset", "-a", "-p", "-c", "1", strconv.Itoa(os.Getpid())).CombinedOutput()
		if err != nil {
			fail(fmt.Errorf("taskset: %v: %s", err, out))
		}
		runtime.GOMAXPROCS(1)
	}
	names := strings.Split(*serverList, ",")
	transports := strings.Split(*transportList, ",")
	for _, s := range names {
		if servers[s] == "" {
			fail(fmt.Errorf("unknown server %q: want graft or gqlgen", s))
		}
	}
	for _, t := range transports {
		if t != "ws" && t != "sse" {
			fail(fmt.Errorf("unknown transport %q: want ws or sse", t))
		}
	}
	if err := raiseFileLimit(2*cfg.n + 256); err != nil {
		fail(err)
	}
	dir, err := os.MkdirTemp("", "subsbench")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	bins := map[string]string{}
	for _, s := range names {
		if bins[s], err = build(dir, s); err != nil {
			fail(err)
		}
	}
	if *base != "" {
		name := "graft@" + *base
		if bins[name], err = buildBase(dir, *base); err != nil {
			fail(err)
		}
		names = append(names, name)
	}
	placement := "not pinned"
	if cfg.pin {
		placement = "server on CPU 0, clients on CPU 1"
	}
	reader := "a goroutine per subscriber"
	if cfg.reactor && newReactorOK() {
		reader = "one epoll reader for all subscribers"
	}
	fmt.Printf("subsbench: %d subscribers, %d events, servers %s, transports %s, %d round(s), settle %s; %d CPUs, %s, server GOMAXPROCS=%s; clients read with %s\n\n",
		cfg.n, cfg.events, strings.Join(names, ","), strings.Join(transports, ","), *rounds, cfg.settle, runtime.NumCPU(), placement, cfg.procs, reader)
	var all []result
	for r := range *rounds {
		order := slices.Clone(names)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, t := range transports {
			for _, s := range order {
				res, err := measure(bins[s], s, t, cfg)
				if err != nil {
					fail(fmt.Errorf("%s over %s: %w", s, t, err))
				}
				res.print(os.Stdout)
				all = append(all, res)
			}
		}
	}
	report(os.Stdout, all, transports, cfg)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "subsbench:", err)
	os.Exit(1)
}

type config struct {
	n, events int
	settle    time.Duration
	timeout   time.Duration
	pin       bool   // the server on CPU 0, the clients on CPU 1
	reactor   bool   // the clients read with the reactor
	procs     string // the server's GOMAXPROCS
}

// raiseFileLimit raises the soft limit of open files to want, or to the
// hard limit when that is lower, and fails when the limit left cannot
// hold the subscribers' sockets.
func raiseFileLimit(want int) error {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return err
	}
	if l.Cur < uint64(want) {
		l.Cur = min(uint64(want), l.Max)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return fmt.Errorf("raise the open files limit: %w", err)
		}
	}
	// The client holds one socket per subscriber; the server (a child,
	// which inherits the limit) holds the other end.
	if need := uint64(want/2 + 64); l.Cur < need {
		return fmt.Errorf("open files limited to %d, %d subscribers need %d: lower -n or raise the hard limit (ulimit -Hn)", l.Cur, (want-256)/2, need)
	}
	return nil
}

// cpuTime returns the CPU time pid has used (user and system).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields 14 and 15, counted after the command's closing parenthesis.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return time.Duration(u+s) * time.Second / 100 // clock ticks, USER_HZ = 100
}

// build builds server name into dir and returns the binary's path.
func build(dir, name string) (string, error) {
	pkg := servers[name]
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	if pkg == graftPkg {
		// cmd/graft is built in its own module, whose go.sum covers its
		// dependencies (OpenTelemetry's exporters) that bench's does not.
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/graftgql/graft").Output()
		if err != nil {
			return "", fmt.Errorf("locate the graft module: %v", err)
		}
		cmd.Dir = strings.TrimSpace(string(out))
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s: %v\n%s", name, err, out)
	}
	return bin, nil
}

// buildBase builds cmd/graft as of the commit ref, from a temporary
// git worktree of the graft repository, and returns the binary's path.
func buildBase(dir, ref string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/graftgql/graft").Output()
	if err != nil {
		return "", fmt.Errorf("locate the graft module: %v", err)
	}
	repo := strings.TrimSpace(string(out))
	tree := filepath.Join(dir, "base")
	if out, err := exec.Command("git", "-C", repo, "worktree", "add", "--detach", tree, ref).CombinedOutput(); err != nil {
		return "", fmt.Errorf("git worktree add %s: %v\n%s", ref, err, out)
	}
	defer exec.Command("git", "-C", repo, "worktree", "remove", "--force", tree).Run()
	bin := filepath.Join(dir, "graft-base")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/graft")
	cmd.Dir = tree
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build cmd/graft at %s: %v\n%s", ref, err, out)
	}
	return bin, nil
}

// result is one server over one transport.
type result struct {
	server, transport string
	n, events         int
	connect           time.Duration
	got               int64
	deliver           time.Duration
	cpu               time.Duration // the server's CPU time while delivering
	clientCPU         time.Duration // the clients' CPU time while delivering
	p50, p99          time.Duration
	rss0, rssIdle     int // KiB
	rssSettled        int // KiB; 0 without -settle
	rssAfter          int // KiB, once the subscribers left
	liveMB0, liveMB   int // gctrace's live heap before any subscriber and after the settled period's last collection
	settledGCs        int
}

func (r result) perSub(kib int) float64 { return float64(kib-r.rss0) / float64(r.n) }

func (r result) throughput() float64 { return float64(r.got) / r.deliver.Seconds() }

// capacity is the events delivered per second of the server's CPU: the
// throughput of a server with a core to itself, whatever the clients
// cost.
func (r result) capacity() float64 {
	if r.cpu <= 0 {
		return 0
	}
	return float64(r.got) / r.cpu.Seconds()
}

func (r result) print(w io.Writer) {
	fmt.Fprintf(w, "%s over %s\n", r.server, r.transport)
	fmt.Fprintf(w, "  subscribers          %d (set up in %s)\n", r.n, r.connect.Round(time.Millisecond))
	fmt.Fprintf(w, "  delivery             %d / %d (%.2f%%)\n", r.got, int64(r.n*r.events), 100*float64(r.got)/float64(r.n*r.events))
	fmt.Fprintf(w, "  latency p50 / p99    %s / %s\n", r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond))
	fmt.Fprintf(w, "  throughput           %.0f events/s delivered (%d in %s, each event posted once the previous one reached every subscriber)\n", r.throughput(), r.got, r.deliver.Round(time.Millisecond))
	fmt.Fprintf(w, "  server CPU           %s while delivering: %.0f events per CPU-second\n", r.cpu, r.capacity())
	// Clients near 100% of their CPU bound the throughput, whatever the
	// server could deliver.
	fmt.Fprintf(w, "  clients CPU          %s while delivering (%.0f%% of the delivery's wall time)\n", r.clientCPU, 100*r.clientCPU.Seconds()/r.deliver.Seconds())
	fmt.Fprintf(w, "  server RSS           %d KiB before, %d KiB with subscribers, %d KiB after they left\n", r.rss0, r.rssIdle, r.rssAfter)
	fmt.Fprintf(w, "  RSS per subscriber   %.1f KiB, 1 s after the subscribers were set up\n", r.perSub(r.rssIdle))
	if r.rssSettled > 0 {
		fmt.Fprintf(w, "                       %.1f KiB settled (%d collections in the idle period)\n", r.perSub(r.rssSettled), r.settledGCs)
		if r.settledGCs > 0 {
			fmt.Fprintf(w, "  live heap            %.1f KiB per subscriber after the last collection (gctrace: %d MB, before any subscriber %d MB)\n",
				float64(r.liveMB-r.liveMB0)*1024/float64(r.n), r.liveMB, r.liveMB0)
		}
	}
	fmt.Fprintln(w)
}

// report prints every pair in a table and graft's figures over gqlgen's
// (medians over the rounds) per transport.
func report(w io.Writer, all []result, transports []string, cfg config) {
	fmt.Fprintln(w, "| server | transport | subscribers | delivered | events/s | events/CPU-s | p50 | p99 | RSS/sub 1 s | RSS/sub settled |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range all {
		settled := "-"
		if r.rssSettled > 0 {
			settled = fmt.Sprintf("%.1f KiB", r.perSub(r.rssSettled))
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d / %d | %.0f | %.0f | %s | %s | %.1f KiB | %s |\n", r.server, r.transport, r.n, r.got, r.n*r.events,
			r.throughput(), r.capacity(), r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond), r.perSub(r.rssIdle), settled)
	}
	fmt.Fprintln(w)
	med := func(server, transport string, f func(result) float64) float64 {
		var v []float64
		for _, r := range all {
			if r.server == server && r.transport == transport {
				v = append(v, f(r))
			}
		}
		if len(v) == 0 {
			return 0
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	for _, t := range transports {
		g := med("graft", t, result.throughput)
		q := med("gqlgen", t, result.throughput)
		if g == 0 || q == 0 {
			continue
		}
		p99 := func(r result) float64 { return float64(r.p99) }
		idle := func(r result) float64 { return r.perSub(r.rssIdle) }
		fmt.Fprintf(w, "graft / gqlgen over %s: throughput %.2f×, events per server CPU-second %.2f×, p99 latency %.2f×, RSS per idle subscriber %.2f×",
			t, g/q, med("graft", t, result.capacity)/med("gqlgen", t, result.capacity), med("graft", t, p99)/med("gqlgen", t, p99), med("graft", t, idle)/med("gqlgen", t, idle))
		if cfg.settle > 0 {
			settled := func(r result) float64 { return r.perSub(r.rssSettled) }
			fmt.Fprintf(w, " (settled %.2f×)", med("graft", t, settled)/med("gqlgen", t, settled))
		}
		fmt.Fprintln(w)
	}
	for _, t := range transports {
		for _, r := range all {
			if !strings.HasPrefix(r.server, "graft@") || r.transport != t {
				continue
			}
			b := r.server
			idle := func(r result) float64 { return r.perSub(r.rssIdle) }
			fmt.Fprintf(w, "graft / %s over %s: events per server CPU-second %.2f×, RSS per idle subscriber %.2f×",
				b, t, med("graft", t, result.capacity)/med(b, t, result.capacity), med("graft", t, idle)/med(b, t, idle))
			if cfg.settle > 0 {
				settled := func(r result) float64 { return r.perSub(r.rssSettled) }
				fmt.Fprintf(w, " (settled %.2f×)", med("graft", t, settled)/med(b, t, settled))
			}
			fmt.Fprintln(w)
			break
		}
	}
}

// subscriber is one client's subscription (openWS, openSSE), which
// reports each event it receives to the bench; close ends it.
type subscriber interface {
	close()
}

// bench is the shared state of one measurement's subscribers.
type bench struct {
	base     string   // http://127.0.0.1:port
	r        *reactor // reads the subscribers' sockets (nil: goroutines)
	received atomic.Int64
	sent     atomic.Int64 // unix nanos of the current post
	// lat holds the latency of each event received, at the index its
	// arrival takes; the events past its end are counted only.
	lat []time.Duration
}

// event records one event received.
func (b *bench) event() {
	d := time.Duration(time.Now().UnixNano() - b.sent.Load())
	if i := b.received.Add(1) - 1; i < int64(len(b.lat)) {
		b.lat[i] = d
	}
}

// measure runs server bin over transport with cfg.n subscribers.
func measure(bin, name, transport string, cfg config) (result, error) {
	res := result{server: name, transport: transport, n: cfg.n, events: cfg.events}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	srv := exec.Command(bin)
	if cfg.pin {
		srv = exec.Command("taskset", "-c", "0", bin)
	}
	srv.Env = append(os.Environ(), "GOMAXPROCS="+cfg.procs, "GRAFT_EXAMPLE=chat", "HOST=127.0.0.1", "PORT="+strconv.Itoa(port), "LOG_LEVEL=error", "ACCESS_LOG=false",
		"GODEBUG="+strings.TrimPrefix(os.Getenv("GODEBUG")+",gctrace=1", ","))
	var gcs gcTrace
	stderr, err := srv.StderrPipe()
	if err != nil {
		return res, err
	}
	go gcs.read(stderr)
	if err := srv.Start(); err != nil {
		return res, err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	b := &bench{base: "http://127.0.0.1:" + strconv.Itoa(port), lat: make([]time.Duration, cfg.n*cfg.events)}
	if cfg.reactor {
		b.r = newReactor()
	}
	for i := 0; ; i++ {
		if r, err := http.Get(b.base + "/health"); err == nil {
			r.Body.Close()
			break
		}
		if i > 200 {
			return res, fmt.Errorf("server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	res.rss0 = rss(srv.Process.Pid)
	gc0, _ := gcs.get()
	res.liveMB0 = gc0.liveMB

	start := time.Now()
	subs, err := connect(b, transport, cfg)
	defer func() {
		for _, s := range subs {
			if s != nil {
				s.close()
			}
		}
	}()
	if err != nil {
		return res, err
	}
	// Subscriptions start asynchronously: wait until a probe message
	// reaches every subscriber before measuring.
	for b.received.Load() < int64(cfg.n) {
		b.sent.Store(time.Now().UnixNano())
		post(b.base, "probe")
		time.Sleep(200 * time.Millisecond)
		if time.Since(start) > cfg.timeout {
			return res, fmt.Errorf("only %d of %d subscribers receive within %s", b.received.Load(), cfg.n, cfg.timeout)
		}
	}
	res.connect = time.Since(start)
	time.Sleep(time.Second)
	res.rssIdle = rss(srv.Process.Pid)
	if cfg.settle > 0 {
		_, before := gcs.get()
		time.Sleep(cfg.settle)
		res.rssSettled = rss(srv.Process.Pid)
		var after int
		var last gcLine
		last, after = gcs.get()
		res.settledGCs, res.liveMB = after-before, last.liveMB
	}
	b.received.Store(0)
	cpu0, clientCPU0 := cpuTime(srv.Process.Pid), cpuTime(os.Getpid())
	deliverStart := time.Now()
	for range cfg.events {
		before := b.received.Load()
		b.sent.Store(time.Now().UnixNano())
		post(b.base, "event")
		for b.received.Load() < before+int64(cfg.n) && time.Since(time.Unix(0, b.sent.Load())) < 10*time.Second {
			time.Sleep(200 * time.Microsecond)
		}
		if time.Since(deliverStart) > cfg.timeout {
			break
		}
	}
	res.got = b.received.Load()
	res.deliver = time.Since(deliverStart)
	res.cpu = cpuTime(srv.Process.Pid) - cpu0
	res.clientCPU = cpuTime(os.Getpid()) - clientCPU0
	lat := b.lat[:min(res.got, int64(len(b.lat)))]
	slices.Sort(lat)
	res.p50, res.p99 = pct(lat, 0.50), pct(lat, 0.99)
	for i, s := range subs {
		s.close()
		subs[i] = nil
	}
	time.Sleep(2 * time.Second)
	res.rssAfter = rss(srv.Process.Pid)
	return res, nil
}

// connect opens cfg.n subscribers over transport, a few at a time, and
// returns once each has been answered (the WebSocket acknowledged, the
// event stream's headers received).
func connect(b *bench, transport string, cfg config) ([]subscriber, error) {
	subs := make([]subscriber, cfg.n)
	var next atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	deadline := time.Now().Add(cfg.timeout)
	for range 16 {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= cfg.n || time.Now().After(deadline) {
					return
				}
				var s subscriber
				var err error
				if transport == "ws" {
					s, err = openWS(b)
				} else {
					s, err = openSSE(b)
				}
				if err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("subscriber %d: %w", i, err) })
					return
				}
				subs[i] = s
			}
		})
	}
	wg.Wait()
	if firstErr == nil && slices.Contains(subs, nil) {
		firstErr = fmt.Errorf("subscribers not set up within %s", cfg.timeout)
	}
	return subs, firstErr
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
		_, _ = io.Copy(io.Discard, r.Body)
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
