package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/servers"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/bench/workload"
)

// sample is one measurement of one server on one query.
type sample struct {
	rps       float64
	p50, p99  time.Duration
	cpuPerReq time.Duration
	requests  int
	rss       int64
	// anon is the anonymous part of rss (heap, stacks, runtime).
	anon int64
	// calls is the upstream calls per request under load (upstream
	// queries only).
	calls float64
	// timeouts counts requests left unanswered after requestTimeout.
	timeouts int
}

// cell gathers the samples of one server and query over the rounds.
type cell struct {
	samples []sample
	skipped string // why the query was not measured on this server
	// oneCalls is the upstream calls of one checked request (upstream
	// queries only), -1 when not known.
	oneCalls int64
	// alt is the alternating measurement of a hash-only query against its
	// full query (see measureAlternating), in the hash-only query's cell.
	alt alternated
	// against is the alternating measurement of the server against the
	// server it is judged against (measureServerPairs), in the
	// server's cell: ratios of its CPU per request over the other's.
	against alternated
}

// alternated gathers the alternating blocks of a hash-only query and its
// full query on one server over the rounds.
type alternated struct {
	// ratios is each pair of blocks' CPU per request of the hash-only
	// query over the full query's.
	ratios []float64
	// cpu and requests total the blocks of the full query ([0]) and the
	// hash-only query ([1]).
	cpu      [2]time.Duration
	requests [2]int64
}

// Why a server does not run a query of the other kind.
const (
	skipInMemory = "in-memory server"
	skipUpstream = "upstream server"
	skipSchema   = "another schema"
)

// runs says whether server ran (or was to run) query cell q: not when it
// is of the other kind (in memory or through the upstream) or serves the
// other schema (q7's servers, the others).
func (m *measurement) runs(server, q string) bool {
	ce := m.cells[[2]string{server, q}]
	return ce == nil || (ce.skipped != skipInMemory && ce.skipped != skipUpstream && ce.skipped != skipSchema)
}

// shapeQuery names the cell of query q measured at conns connections: q
// itself at the main load shape (-conns), "q@N" at any other.
func (m *measurement) shapeQuery(q string, conns int) string {
	if conns == m.opts.conns {
		return q
	}
	return fmt.Sprintf("%s@%d", q, conns)
}

// dedupeConns is the load shape the deduplication target is judged at:
// q7 is always measured there too.
const dedupeConns = 64

// shapes returns the connection counts q is measured at: the main shape,
// then the high one, then (upstream queries) the low one, then for q7
// dedupeConns.
func (m *measurement) shapes(q workload.Query) []int {
	out := []int{m.opts.conns}
	if c := m.opts.connsHigh; c > 0 && c != m.opts.conns {
		out = append(out, c)
	}
	if c := m.opts.connsLow; q.Upstream && c > 0 && !slices.Contains(out, c) {
		out = append(out, c)
	}
	if q.Tailcall && !slices.Contains(out, dedupeConns) {
		out = append(out, dedupeConns)
	}
	return out
}

// measurement is everything a run measured, for the report.
type measurement struct {
	opts    options
	pinned  bool
	servers []string
	queries []workload.Query
	cells   map[[2]string]*cell // [server, query]
	peakRSS map[string]int64
	// peakAnon is the highest anonymous memory read after a measurement.
	peakAnon map[string]int64
	// exe is the executable each server ran from, and binary its size
	// (Go servers; 0 for the Node peers); alone says it held that server
	// only (a solo build of cmd/benchserve), not every Go server.
	exe     map[string]string
	binary  map[string]int64
	alone   map[string]bool
	started time.Time
	took    time.Duration
	inProc  *inProcessResult
	// base is the earlier tree measured beside this one (-base), nil
	// without; inProcAB its in-process comparison.
	base     *baseTree
	inProcAB *inProcessAB
	// loadStart is the load average when the run began.
	loadStart string
	// checked counts the answers found correct.
	checked int
	// up is the upstream service's client when upstream servers run.
	up *upstream.Client
}

func selectQueries(names []string) ([]workload.Query, error) {
	all := workload.All()
	var out []workload.Query
	for _, n := range names {
		i := slices.IndexFunc(all, func(q workload.Query) bool { return q.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("unknown query %q", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

func selectServers(names []string) ([]servers.Server, error) {
	if len(names) == 0 {
		return servers.All(), nil
	}
	var out []servers.Server
	for _, n := range names {
		s, ok := servers.Lookup(n)
		if !ok {
			return nil, fmt.Errorf("unknown server %q", n)
		}
		out = append(out, s)
	}
	return out, nil
}

func run(ctx context.Context, log *slog.Logger, o options) error {
	qs, err := selectQueries(o.queries)
	if err != nil {
		return err
	}
	srvs, err := selectServers(o.servers)
	if err != nil {
		return err
	}
	if os.Getenv("GRAFT_REQUIRE_ALL") == "1" && len(o.servers) == 0 && !servers.NodeInstalled() {
		return fmt.Errorf("GRAFT_REQUIRE_ALL=1 but the Node peers are not installed: run npm ci in %s", servers.NodeDir())
	}
	expected, err := ceiling.Expected(data.Shared())
	if err != nil {
		return err
	}
	m := &measurement{opts: o, queries: qs, cells: map[[2]string]*cell{}, peakRSS: map[string]int64{}, peakAnon: map[string]int64{},
		exe: map[string]string{}, binary: map[string]int64{}, alone: map[string]bool{}, started: time.Now(), loadStart: loadAverage()}
	// The solo binaries and the base are built before this process pins
	// itself: the builds would inherit the one CPU.
	var bins map[string]string
	if o.solo {
		if bins, err = soloBuilds(ctx, log, srvs, o.profile != ""); err != nil {
			return err
		}
	}
	if slices.ContainsFunc(srvs, func(s servers.Server) bool { return servers.IsShipped(s.Name) }) {
		if err := buildShipped(ctx, log); err != nil {
			return err
		}
	}
	if o.base != "" {
		b, err := prepareBase(ctx, log, o.base, baseProbe(srvs), o.profile != "")
		if err != nil {
			return err
		}
		defer b.remove(log)
		m.base = b
		srvs = withBase(srvs, b, o.profile)
	}
	serverCPU := -1
	if _, err := exec.LookPath("taskset"); err == nil && runtime.NumCPU() >= 2 {
		if err := pinSelf(o.clientCPU); err != nil {
			return err
		}
		runtime.GOMAXPROCS(1)
		serverCPU, m.pinned = o.serverCPU, true
	} else {
		log.Warn("running unpinned: taskset or a second CPU is missing")
	}
	if o.inProcess && !o.smoke {
		log.Info("running the in-process benchmarks")
		res := runInProcess(ctx, serverCPU, o.benchtime)
		m.inProc = &res
		if m.base != nil && res.skipped == "" {
			ab := runInProcessAB(ctx, log, m.base, serverCPU, o.benchtime, o.rounds)
			m.inProcAB = &ab
		}
	}
	var children []*child
	defer func() {
		for _, c := range children {
			c.stop()
		}
	}()
	if o.profile != "" {
		if err := os.MkdirAll(o.profile, 0o755); err != nil {
			return err
		}
	}
	upstreamURL := ""
	if slices.ContainsFunc(srvs, func(s servers.Server) bool { return s.Upstream }) {
		// The upstream shares the load generator's CPU: its answers are
		// precomputed bytes, and the servers' CPU stays theirs alone.
		upCPU := -1
		if m.pinned {
			upCPU = o.clientCPU
		}
		c, err := startUpstream(upCPU)
		if err != nil {
			return err
		}
		children = append(children, c)
		upstreamURL = "http://" + c.addr
		m.up = upstream.NewClient(upstreamURL)
	}
	var srvChildren []*child
	for _, s := range srvs {
		c, err := startChild(s, bins[s.Name], serverCPU, o.profile, upstreamURL)
		if err != nil {
			return err
		}
		children = append(children, c)
		srvChildren = append(srvChildren, c)
		m.servers = append(m.servers, s.Name)
		m.noteBinary(s, c, bins[s.Name] != "")
	}
	outer, beside := pairPersisted(qs)
	var names []string
	for _, s := range srvs {
		names = append(names, s.Name)
	}
	for r := 0; r < o.rounds; r++ {
		if r > 0 {
			// cmd/graft's entries start afresh each round: two processes of
			// one binary and configuration differ by a few per cent in CPU
			// per request (where their memory lands), as much as the costs
			// their targets judge; over the rounds that evens out.
			for k, s := range srvs {
				if !servers.IsShipped(s.Name) {
					continue
				}
				old := srvChildren[k]
				if mem, err := old.memory(); err == nil {
					m.peakRSS[s.Name] = max(m.peakRSS[s.Name], mem.hwm)
				}
				old.stop()
				c, err := startChild(s, bins[s.Name], serverCPU, o.profile, upstreamURL)
				if err != nil {
					return err
				}
				srvChildren[k] = c
				children[slices.Index(children, old)] = c
			}
		}
		order := roundOrder(names, r)
		for _, q := range outer {
			for _, conns := range m.shapes(q) {
				for _, k := range order {
					for _, q := range pairOrder(q, beside[q.Name], r) {
						if err := ctx.Err(); err != nil {
							return err
						}
						if err := measureOne(ctx, log, m, srvs[k], srvChildren[k], q, expected[q.Base], r, conns); err != nil {
							return err
						}
					}
					if conns != o.conns {
						continue
					}
					for _, v := range beside[q.Name] {
						if err := measureAlternating(ctx, log, m, srvs[k], srvChildren[k], q, v, r); err != nil {
							return err
						}
					}
				}
				if conns == o.conns {
					if err := measureServerPairs(ctx, log, m, srvs, srvChildren, q, r); err != nil {
						return err
					}
				}
			}
		}
	}
	for _, c := range srvChildren {
		if mem, err := c.memory(); err == nil {
			m.peakRSS[c.name] = max(m.peakRSS[c.name], mem.hwm)
		}
	}
	m.took = time.Since(m.started)
	report := m.markdown()
	fmt.Print(report)
	if o.smoke {
		fmt.Printf("smoke: %d passed, 0 failed\n", m.checked)
		return nil
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	path := reportPath(o.out, m.started)
	if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
		return err
	}
	log.Info("report written", "path", path)
	return nil
}

// pairPersisted splits qs into the queries the rounds walk and, by base
// query, the hash-only variants measured beside their base on the same
// server and load shape (in the order pairOrder gives): the two are
// compared with each other, so they are measured seconds apart, not
// minutes, and the machine's drift between them is small. A variant whose
// base is not selected is walked on its own.
func pairPersisted(qs []workload.Query) (outer []workload.Query, beside map[string][]workload.Query) {
	beside = map[string][]workload.Query{}
	for _, q := range qs {
		if q.Persisted && slices.ContainsFunc(qs, func(b workload.Query) bool { return b.Name == q.Base && !b.Persisted }) {
			beside[q.Base] = append(beside[q.Base], q)
			continue
		}
		outer = append(outer, q)
	}
	return outer, beside
}

// pairOrder is the order base and its hash-only variants are measured in
// round r (from 0): the base first in even rounds, last in odd ones, so
// that being measured second (a slightly warmer or cooler machine) favours
// neither.
func pairOrder(base workload.Query, variants []workload.Query, r int) []workload.Query {
	if r%2 == 1 {
		return append(slices.Clone(variants), base)
	}
	return append([]workload.Query{base}, variants...)
}

// judgedTogether are the servers a target compares with each other: each
// group is measured back to back on every query and load shape, so that a
// ratio a target judges comes from measurements seconds apart, not the
// whole round, and the machine's drift between them is small.
var judgedTogether = [][]string{
	{"ceiling", "graft"},
	{"ceiling-fasthttp", "graft-fasthttp"},
	{"gqlgen-upstream", graftUpstreamStructs, graftUpstreamRaw},
	{"gqlgen-tailcall", graftTailcallStructs, graftTailcallRaw, graftTailcallDedupe},
	{"graft-shipped-nolog", "graft-shipped", "graft-shipped-metrics", "graft-shipped-tracing"},
}

// roundOrder is the order the servers named are measured in round r (from
// 0), as indexes into names: the servers of each group of judgedTogether
// form one unit (in the group's order, reversed in odd rounds so that
// being measured first favours no one), every other server a unit of its
// own, and the units rotate by one place a round.
func roundOrder(names []string, r int) []int {
	var units [][]int
	placed := map[string]bool{}
	for i, n := range names {
		if placed[n] {
			continue
		}
		unit := []int{i}
		for _, g := range judgedTogether {
			if !slices.Contains(g, n) {
				continue
			}
			unit = unit[:0]
			for _, member := range g {
				if j := slices.Index(names, member); j >= 0 && !placed[member] {
					unit = append(unit, j)
					placed[member] = true
				}
			}
			break
		}
		placed[n] = true
		if r%2 == 1 {
			slices.Reverse(unit)
		}
		units = append(units, unit)
	}
	var out []int
	for u := range units {
		out = append(out, units[(u+r)%len(units)]...)
	}
	return out
}

// measureOne checks the answer of s to q, then measures it at conns
// connections.
func measureOne(ctx context.Context, log *slog.Logger, m *measurement, s servers.Server, c *child, q workload.Query, want []byte, round, conns int) error {
	if conns == 0 {
		conns = m.opts.conns
	}
	key := [2]string{s.Name, m.shapeQuery(q.Name, conns)}
	ce := m.cells[key]
	if ce == nil {
		ce = &cell{oneCalls: -1}
		m.cells[key] = ce
	}
	if ce.skipped == "" && !s.Runs(q) {
		switch {
		case q.Upstream && !s.Upstream && !s.Reference:
			ce.skipped = skipInMemory
		case !q.Upstream && s.Upstream:
			ce.skipped = skipUpstream
		case q.Tailcall != s.Tailcall:
			ce.skipped = skipSchema
		default:
			ce.skipped = "no automatic persisted queries"
		}
	}
	if ce.skipped != "" {
		return nil
	}
	req := request(c.addr, servers.Path, q.Body())
	var err error
	if q.Persisted {
		// Register the query, as an APQ client does after a miss, and check
		// that answer too.
		if err = checkedFetch(c.addr, request(c.addr, servers.Path, q.RegisterBody()), q, want, s.Check); err == nil {
			m.checked++
		}
	}
	countCalls := q.Upstream && m.up != nil
	if err == nil && countCalls {
		err = m.up.Reset(ctx)
	}
	if err == nil {
		if err = checkedFetch(c.addr, req, q, want, s.Check); err == nil {
			m.checked++
		}
	}
	if err == nil && countCalls {
		ce.oneCalls, err = m.up.Calls(ctx)
		if r, ok := s.UpstreamCalls[q.Name]; err == nil && ok && (ce.oneCalls < r[0] || ce.oneCalls > r[1]) {
			err = fmt.Errorf("%s %s: %d upstream calls for one request, want %d to %d", s.Name, q.Name, ce.oneCalls, r[0], r[1])
		}
	}
	if err != nil {
		if q.Introspection {
			ce.skipped = "no introspection"
			log.Warn("introspection not measured", "server", s.Name, "err", err)
			return nil
		}
		return fmt.Errorf("WRONG ANSWER from %s, not measured: %w", s.Name, err)
	}
	warmup := m.opts.warmup
	if round == 0 {
		warmup = max(warmup, m.opts.firstWarmup)
	}
	if _, err := load(ctx, c.addr, req, conns, warmup); err != nil {
		return fmt.Errorf("%s %s warm-up: %w", s.Name, q.Name, err)
	}
	if countCalls {
		if err := m.up.Reset(ctx); err != nil {
			return err
		}
	}
	cpu0, err := c.cpuTime()
	if err != nil {
		return err
	}
	res, err := load(ctx, c.addr, req, conns, m.opts.duration)
	if err != nil {
		return fmt.Errorf("%s %s: %w", s.Name, q.Name, err)
	}
	cpu1, err := c.cpuTime()
	if err != nil {
		return err
	}
	if res.errors > 0 {
		return fmt.Errorf("%s %s: %d failed requests under load", s.Name, q.Name, res.errors)
	}
	if res.requests == 0 && res.timeouts > 0 {
		ce.skipped = fmt.Sprintf("overloaded: no answer within %s at %d connections", requestTimeout, conns)
		log.Warn("not measured", "server", s.Name, "query", q.Name, "why", ce.skipped)
		return nil
	}
	if res.requests == 0 {
		return fmt.Errorf("%s %s: no request completed", s.Name, q.Name)
	}
	mem, _ := c.memory()
	sm := sample{
		rps: res.rps(), p50: res.percentile(50), p99: res.percentile(99),
		cpuPerReq: (cpu1 - cpu0) / time.Duration(res.requests), requests: res.requests, rss: mem.rss,
		anon: mem.anon, timeouts: res.timeouts,
	}
	m.peakAnon[s.Name] = max(m.peakAnon[s.Name], mem.anon)
	if res.timeouts > 0 {
		log.Warn("requests timed out under load", "server", s.Name, "query", q.Name, "conns", conns, "timeouts", res.timeouts, "after", requestTimeout)
	}
	if countCalls {
		calls, err := m.up.Calls(ctx)
		if err != nil {
			return err
		}
		sm.calls = float64(calls) / float64(res.requests)
	}
	ce.samples = append(ce.samples, sm)
	log.Info("measured", "round", round+1, "server", s.Name, "query", q.Name, "conns", conns,
		"rps", int(sm.rps), "p50", sm.p50, "p99", sm.p99, "cpu_per_req", sm.cpuPerReq)
	return nil
}

// alternatedServers are the servers whose hash-only queries are also
// measured against their full queries in alternating blocks: graft, whose
// target it is, and the ceiling, which does the same work for either body
// and so shows what the bodies' sizes alone make of the comparison.
var alternatedServers = []string{"ceiling", "graft"}

// measureAlternating measures the full query q and its hash-only variant v
// on s in alternating blocks (loadAlternating) at the main load shape, after
// measureOne checked both answers and registered v in the round. The blocks
// are a fraction of a second, so the machine's changes of speed, which
// spoil a comparison of measurements seconds apart, fall on both alike.
func measureAlternating(ctx context.Context, log *slog.Logger, m *measurement, s servers.Server, c *child, q, v workload.Query, round int) error {
	if m.opts.alternate == 0 || !slices.Contains(alternatedServers, s.Name) {
		return nil
	}
	for _, name := range []string{q.Name, v.Name} {
		if ce := m.cells[[2]string{s.Name, name}]; ce == nil || ce.skipped != "" {
			return nil
		}
	}
	reqs := [2][]byte{request(c.addr, servers.Path, q.Body()), request(c.addr, servers.Path, v.Body())}
	blocks, err := loadAlternating(ctx, c.addr, reqs, m.opts.conns, m.opts.alternate, m.opts.block, alternateSettle, c.cpuTime)
	if err != nil {
		return fmt.Errorf("%s %s against %s, alternating: %w", s.Name, v.Name, q.Name, err)
	}
	alt := &m.cells[[2]string{s.Name, v.Name}].alt
	ratios := pairedBlockRatios(blocks)
	alt.ratios = append(alt.ratios, ratios...)
	for _, b := range blocks {
		alt.cpu[b.kind] += b.cpu
		alt.requests[b.kind] += b.requests
	}
	log.Info("alternated", "round", round+1, "server", s.Name, "query", v.Name, "against", q.Name,
		"pairs", len(ratios), "median_ratio", fmt.Sprintf("%.3f", median(ratios)), "median_so_far", fmt.Sprintf("%.3f", median(alt.ratios)))
	return nil
}

// Every cmd/graft entry but servers.ShippedBase (the access log, metrics
// or tracing on) is also measured against it in alternating blocks, on
// alternatedServerQuery: their costs are a few per cent, less than a
// shared machine's changes of speed between measurements seconds apart.

// alternatedServerQuery is the query those pairs are measured on.
const alternatedServerQuery = "q1"

// measureServerPairs measures each cmd/graft entry run against
// servers.ShippedBase in alternating blocks (loadAlternatingServers) on q,
// after measureOne checked both servers' answers in the round:
// o.alternateServers blocks of o.block, the ratios kept in the entry's
// cell.
func measureServerPairs(ctx context.Context, log *slog.Logger, m *measurement, srvs []servers.Server, children []*child, q workload.Query, round int) error {
	if m.opts.alternateServers == 0 || q.Name != alternatedServerQuery {
		return nil
	}
	for _, s := range srvs {
		if !servers.IsShipped(s.Name) || s.Name == servers.ShippedBase {
			continue
		}
		pair := [2]string{servers.ShippedBase, s.Name}
		var idx [2]int
		ok := true
		for i, name := range pair {
			idx[i] = slices.IndexFunc(srvs, func(s servers.Server) bool { return s.Name == name })
			if ce := m.cells[[2]string{name, q.Name}]; idx[i] < 0 || ce == nil || ce.skipped != "" {
				ok = false
			}
		}
		if !ok {
			continue
		}
		a, b := children[idx[0]], children[idx[1]]
		addrs := [2]string{a.addr, b.addr}
		reqs := [2][]byte{request(a.addr, servers.Path, q.Body()), request(b.addr, servers.Path, q.Body())}
		pairs, err := loadAlternatingServers(ctx, addrs, reqs, m.opts.conns, m.opts.alternateServers, m.opts.block,
			[2]func() (time.Duration, error){a.cpuTime, b.cpuTime})
		if err != nil {
			return fmt.Errorf("%s against %s on %s, alternating: %w", pair[1], pair[0], q.Name, err)
		}
		alt := &m.cells[[2]string{pair[1], q.Name}].against
		var ratios []float64
		for _, p := range pairs {
			if r := p.ratio(); r > 0 {
				ratios = append(ratios, r)
			}
			for s := range 2 {
				alt.cpu[s] += p.cpu[s]
				alt.requests[s] += p.requests[s]
			}
		}
		alt.ratios = append(alt.ratios, ratios...)
		log.Info("alternated servers", "round", round+1, "server", pair[1], "against", pair[0], "query", q.Name,
			"pairs", len(ratios), "median_ratio", fmt.Sprintf("%.3f", median(ratios)), "median_so_far", fmt.Sprintf("%.3f", median(alt.ratios)))
	}
	return nil
}

// alternateSettle is the unmeasured start of each alternating block, in
// which the requests of the block before finish.
const alternateSettle = 10 * time.Millisecond

// soloBuilds builds each Go server of srvs alone (cmd/benchserve with its
// solo tags, and the tag profile with profile) into the per-tree cache
// folder and returns the binaries by server name.
func soloBuilds(ctx context.Context, log *slog.Logger, srvs []servers.Server, profile bool) (map[string]string, error) {
	names := goServers(srvs)
	if len(names) == 0 {
		return nil, nil
	}
	dir, err := benchModuleDir(ctx)
	if err != nil {
		return nil, err
	}
	cache, err := soloDir(dir)
	if err != nil {
		return nil, err
	}
	return buildSolo(ctx, log, dir, cache, names, profile, nil)
}

// noteBinary records what server s runs from, for the report: alone when
// that binary holds s only (a solo build), and its size.
func (m *measurement) noteBinary(s servers.Server, c *child, alone bool) {
	exe := c.exe()
	m.exe[s.Name] = exe
	m.alone[s.Name] = alone || (m.base != nil && m.base.runsAlone(s.Name))
	if fi, err := os.Stat(exe); err == nil && filepath.IsAbs(exe) && fi.Mode().IsRegular() {
		m.binary[s.Name] = fi.Size()
	}
}

// checkedFetch sends req once and checks the answer.
func checkedFetch(addr string, req []byte, q workload.Query, want []byte, mode check.Mode) error {
	status, body, err := fetch(addr, req)
	if err != nil {
		return err
	}
	if status != 200 {
		return fmt.Errorf("%s: status %d: %.300s", q.Name, status, body)
	}
	return check.Answer(q, body, want, mode)
}

// reportPath is out/YYYY-MM-DD.md, or out/YYYY-MM-DD-HHMM.md when a report
// of that day is already there.
func reportPath(out string, started time.Time) string {
	t := started.UTC()
	path := filepath.Join(out, t.Format("2006-01-02")+".md")
	if _, err := os.Stat(path); err == nil {
		path = filepath.Join(out, t.Format("2006-01-02-1504")+".md")
	}
	return path
}
