package main

import (
	"bytes"
	"context"
	"flag"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/servers"
	"github.com/graftgql/graft/bench/workload"
)

func TestParseOptionsBase(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    string
		wantErr string
	}{
		{"none by default", nil, "", ""},
		{"a short hash", []string{"-base", "af82c4e"}, "af82c4e", ""},
		{"a branch with a slash", []string{"-base", "release/1.2"}, "release/1.2", ""},
		{"with a smoke run", []string{"-smoke", "-base", "v0.3.0"}, "v0.3.0", ""},
		{"an option is not a ref", []string{"-base", "--output=/tmp/x"}, "", "not a git ref"},
		{"no spaces in a ref", []string{"-base", "main ~1"}, "", "not a git ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseOptions(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.base != tt.want {
				t.Errorf("base = %q, want %q", o.base, tt.want)
			}
		})
	}
}

// TestParseFlagNames reads the flags out of the usage text the flag package
// prints for `serve -h`, whichever version printed it.
func TestParseFlagNames(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	fs.String("server", "", "server to run")
	fs.Int("port", 0, "port to listen on")
	fs.String("cpuprofile", "", "write a CPU profile")
	fs.Bool("v", false, "verbose")
	if err := fs.Parse([]string{"-h"}); err != flag.ErrHelp {
		t.Fatalf("err = %v", err)
	}
	got := parseFlagNames(buf.String())
	for _, name := range []string{"server", "port", "cpuprofile", "v"} {
		if !got[name] {
			t.Errorf("flag %q not found in:\n%s", name, buf.String())
		}
	}
	if got["allocprofile"] || got["string"] || len(got) != 4 {
		t.Errorf("flags = %v", got)
	}
}

func names(ss []servers.Server) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

func TestWithBase(t *testing.T) {
	b := &baseTree{short: "af82c4e", bin: "/tmp/base/bench", serveFlags: map[string]bool{"server": true, "port": true},
		serves: map[string]bool{"graft": true, "graft-fasthttp": true}}
	pick := func(ns ...string) []servers.Server {
		var out []servers.Server
		for _, n := range ns {
			s, ok := servers.Lookup(n)
			if !ok {
				t.Fatalf("no server %s", n)
			}
			out = append(out, s)
		}
		return out
	}
	tests := []struct {
		name string
		in   []servers.Server
		want []string
	}{
		{"graft", pick("ceiling", "graft"), []string{"ceiling", "graft@af82c4e", "graft"}},
		{"both graft entries", pick("ceiling", "graft", "graft-fasthttp"), []string{"ceiling", "graft@af82c4e", "graft", "graft-fasthttp@af82c4e", "graft-fasthttp"}},
		{"fasthttp only still gets graft", pick("ceiling", "graft-fasthttp"), []string{"ceiling", "graft-fasthttp@af82c4e", "graft-fasthttp", "graft@af82c4e"}},
		{"an entry the base lacks", pick("ceiling", "graft-upstream", "graft"), []string{"ceiling", "graft-upstream", "graft@af82c4e", "graft"}},
		{"peers have no base entry", pick("gqlgen", "gqlgen-upstream", "graft"), []string{"gqlgen", "gqlgen-upstream", "graft@af82c4e", "graft"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := names(withBase(tt.in, b, "")); !slices.Equal(got, tt.want) {
				t.Errorf("servers = %v, want %v", got, tt.want)
			}
		})
	}
	older := *b
	older.serves = map[string]bool{"graft": true}
	if got, want := names(withBase(pick("graft", "graft-fasthttp"), &older, "")), []string{"graft@af82c4e", "graft", "graft-fasthttp"}; !slices.Equal(got, want) {
		t.Errorf("a base without graft-fasthttp: servers = %v, want %v", got, want)
	}
	if got, want := baseProbe(pick("ceiling", "graft-fasthttp", "gqlgen-upstream", "graft-upstream-raw")), []string{"graft", "graft-fasthttp", "graft-upstream-raw"}; !slices.Equal(got, want) {
		t.Errorf("probe = %v, want %v", got, want)
	}
	withUp := *b
	withUp.serves = map[string]bool{"graft": true, "graft-upstream": true}
	up := withBase(pick("graft-upstream"), &withUp, "")
	if got, want := names(up), []string{"graft-upstream@af82c4e", "graft-upstream", "graft@af82c4e"}; !slices.Equal(got, want) {
		t.Fatalf("servers = %v, want %v", got, want)
	}
	if !up[0].Upstream || !up[0].Runs(workload.UpstreamQueries()[0]) {
		t.Errorf("graft-upstream@af82c4e = %+v, want an upstream server", up[0])
	}
	if argv, _ := up[0].Command(4242, "http://127.0.0.1:9"); !slices.Equal(argv[len(argv)-2:], []string{"-upstream", "http://127.0.0.1:9"}) {
		t.Errorf("argv = %v, want the upstream's URL", argv)
	}
	g := withBase(pick("graft"), b, "/tmp/prof")[0]
	if !g.APQ || g.Upstream || g.Serve != nil || g.Command == nil {
		t.Fatalf("base entry = %+v", g)
	}
	if q1 := workload.Queries()[0]; !g.Runs(q1) || g.Runs(workload.UpstreamQueries()[0]) {
		t.Error("the base entry must run the in-memory queries only")
	}
	argv, env := g.Command(4242, "")
	if want := []string{"/tmp/base/bench", "serve", "-server", "graft", "-port", "4242"}; !slices.Equal(argv, want) || env != nil {
		t.Errorf("argv = %v env = %v, want %v: no profile flags the binary does not know", argv, env, want)
	}
	b.serveFlags["cpuprofile"], b.serveFlags["allocprofile"] = true, true
	argv, _ = withBase(pick("graft"), b, "/tmp/prof")[0].Command(4242, "")
	if !slices.Contains(argv, "/tmp/prof/graft@af82c4e.cpu.pprof") || !slices.Contains(argv, "/tmp/prof/graft@af82c4e.allocs.pprof") {
		t.Errorf("argv = %v, want the profiles named after the base entry", argv)
	}
}

// cpuCell is a sample with only what the before/after target reads.
func cpuCell(rps float64, cpu time.Duration) *cell {
	return &cell{samples: []sample{{rps: rps, cpuPerReq: cpu, p50: time.Millisecond, p99: 3 * time.Millisecond, rss: 20 << 20, anon: 8 << 20}}}
}

func TestBeforeAfterMarkdown(t *testing.T) {
	q := workload.Queries()
	base := &baseTree{ref: "af82c4e", short: "af82c4e", commit: "af82c4ed039cc54500cc8284718af2431d8be715"}
	us := time.Microsecond
	full := func() map[[2]string]*cell {
		return map[[2]string]*cell{
			{"graft@af82c4e", "q1"}:     cpuCell(40000, 20*us),
			{"graft", "q1"}:             cpuCell(42000, 19*us),
			{"graft@af82c4e", "q2"}:     cpuCell(4000, 200*us),
			{"graft", "q2"}:             cpuCell(3900, 210*us),
			{"graft@af82c4e", "q3"}:     cpuCell(20000, 40*us),
			{"graft", "q3"}:             cpuCell(20000, 40*us),
			{"graft@af82c4e", "q4"}:     cpuCell(10000, 100*us),
			{"graft", "q4"}:             cpuCell(10000, 100*us),
			{"graft@af82c4e", "q1@256"}: cpuCell(30000, 25*us),
			{"graft", "q1@256"}:         cpuCell(33000, 24*us),
		}
	}
	tests := []struct {
		name    string
		change  func(map[[2]string]*cell)
		verdict string
		figure  string
	}{
		{"within 5% everywhere", nil, "yes", "q1 0.95, q2 1.05, q3 1.00, q4 1.00"},
		{"q4 dearer by 10%", func(c map[[2]string]*cell) { c[[2]string{"graft", "q4"}] = cpuCell(9000, 110*us) }, "no", "q4 1.10"},
		{"q3 not in the run", func(c map[[2]string]*cell) { delete(c, [2]string{"graft", "q3"}) }, "not judged (q3 not measured)", "q1 0.95, q2 1.05, q4 1.00"},
		{"q3 and q4 not in the run, q2 dearer", func(c map[[2]string]*cell) {
			delete(c, [2]string{"graft", "q3"})
			delete(c, [2]string{"graft@af82c4e", "q4"})
			c[[2]string{"graft", "q2"}] = cpuCell(3000, 300*us)
		}, "no", "q2 1.50"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cells := full()
			if tt.change != nil {
				tt.change(cells)
			}
			m := &measurement{
				opts:    options{rounds: 1, conns: 32, connsHigh: 256},
				servers: []string{"ceiling", "graft@af82c4e", "graft"},
				queries: q,
				cells:   cells,
				peakRSS: map[string]int64{},
				base:    base,
			}
			fig, verdict := m.baseTarget()
			if verdict != tt.verdict || !strings.Contains(fig, tt.figure) {
				t.Errorf("target = %q, %q; want %q containing %q", fig, verdict, tt.verdict, tt.figure)
			}
			out := m.markdown()
			row := "| graft q1–q4 within 5% of af82c4e (server CPU µs/req after/before ≤ 1.05) | " + fig + " | " + tt.verdict + " |"
			if !strings.Contains(out, row) {
				t.Errorf("targets table lacks %q:\n%s", row, out)
			}
			if !strings.Contains(out, "; met: "+tt.verdict+".") {
				t.Errorf("before-and-after section lacks the verdict %q:\n%s", tt.verdict, out)
			}
		})
	}
	m := &measurement{
		opts:    options{rounds: 1, conns: 32, connsHigh: 256},
		servers: []string{"ceiling", "graft@af82c4e", "graft"},
		queries: q[:1],
		cells:   full(),
		peakRSS: map[string]int64{},
		base:    base,
	}
	out := m.markdown()
	assertContains(t, "report", out,
		"## Before and after: graft at af82c4e (commit af82c4e) and today\n",
		"### graft (before: graft@af82c4e)\n",
		"| q1 | 40000 | 42000 | 1.05 | 20.0 | 19.0 | 0.95 | 1000 | 1000 | 3000 | 3000 | 20.0 (8.0) | 20.0 (8.0) |\n",
		"| q1 at 256 conns | 30000 | 33000 | 1.10 | 25.0 | 24.0 | 0.96 |",
		"- Before: graft at af82c4e, commit af82c4ed039cc54500cc8284718af2431d8be715,",
		"| graft@af82c4e | – |\n", // in the ordinary ratio tables too (no ceiling in this run)
	)
	if strings.Contains(out, "### graft-fasthttp") {
		t.Error("a graft-fasthttp table without graft-fasthttp in the run")
	}
	// An upstream entry gets its table, with the upstream queries only.
	up := &measurement{
		opts:    options{rounds: 1, conns: 32},
		servers: []string{"graft@af82c4e", "graft", "graft-upstream@af82c4e", "graft-upstream"},
		queries: []workload.Query{q[0], workload.UpstreamQueries()[0]},
		cells: map[[2]string]*cell{
			{"graft@af82c4e", "q1"}:          cpuCell(40000, 20*us),
			{"graft", "q1"}:                  cpuCell(42000, 19*us),
			{"graft@af82c4e", "q5"}:          {skipped: skipInMemory},
			{"graft", "q5"}:                  {skipped: skipInMemory},
			{"graft-upstream@af82c4e", "q1"}: {skipped: skipUpstream},
			{"graft-upstream", "q1"}:         {skipped: skipUpstream},
			{"graft-upstream@af82c4e", "q5"}: cpuCell(2000, 400*us),
			{"graft-upstream", "q5"}:         cpuCell(3000, 300*us),
		},
		peakRSS: map[string]int64{},
		base:    base,
	}
	out = up.beforeAfterMarkdown()
	assertContains(t, "section", out,
		"### graft (before: graft@af82c4e)\n\n| query |",
		"| q1 | 40000 | 42000 | 1.05 |",
		"### graft-upstream (before: graft-upstream@af82c4e)\n\n| query |",
		"| q5 | 2000 | 3000 | 1.50 | 400.0 | 300.0 | 0.75 |",
	)
	if strings.Count(out, "| q5 |") != 1 || strings.Count(out, "| q1 |") != 1 {
		t.Errorf("a query in the table of a server that does not run it:\n%s", out)
	}
	// Without -base the report has no such section or target.
	m.base = nil
	if out := m.markdown(); strings.Contains(out, "Before and after") || strings.Contains(out, "within 5% of") {
		t.Errorf("before-and-after content without -base:\n%s", out)
	}
}

func TestInProcessABTable(t *testing.T) {
	line := func(name, ns, by, al string) string {
		return name + " \t 1000\t " + ns + " ns/op\t " + by + " B/op\t " + al + " allocs/op\n"
	}
	ab := inProcessAB{
		command: "go test -bench /^graft- ./inprocess",
		before: []inProcessResult{
			{output: "goos: linux\n" + line("BenchmarkQ2/graft-warm", "100000", "9000", "51") + line("BenchmarkQ1/graft-warm", "2000", "100", "3") + "PASS\n"},
			{output: line("BenchmarkQ2/graft-warm", "110000", "9000", "51") + line("BenchmarkQ1/graft-warm", "2200", "100", "3")},
			{output: line("BenchmarkQ2/graft-warm", "90000", "9100", "51")},
		},
		after: []inProcessResult{
			{output: line("BenchmarkQ2/graft-warm", "50000", "3000", "10") + line("BenchmarkQ4/graft-warm", "7000", "10", "1")},
			{output: line("BenchmarkQ2/graft-warm", "60000", "3000", "10")},
			{output: line("BenchmarkQ2/graft-warm", "40000", "3000", "10")},
		},
	}
	got := ab.table()
	assertContains(t, "table", got,
		"| BenchmarkQ2/graft-warm | 100000 | 50000 | 0.50 | 9000 | 3000 | 51 | 10 |\n",
		"| BenchmarkQ1/graft-warm | 2100 | – | – | 100 | – | 3 | – |\n",
		"| BenchmarkQ4/graft-warm | – | 7000 | – | – | 10 | – | 1 |\n",
	)
	m := &measurement{opts: options{conns: 32}, servers: []string{"graft"}, cells: map[[2]string]*cell{}, peakRSS: map[string]int64{},
		base: &baseTree{ref: "v1", short: "abc1234"}, inProcAB: &ab}
	out := m.beforeAfterMarkdown()
	if !strings.Contains(out, "3 run(s) each") || !strings.Contains(out, "```\ngoos: linux\n") || !strings.Contains(out, "benchstat's new.txt") {
		t.Errorf("in-process section:\n%s", out)
	}
	m.inProcAB = &inProcessAB{skipped: "failed: exit status 1 (before tree)"}
	if out := m.beforeAfterMarkdown(); !strings.Contains(out, "Not run: failed: exit status 1 (before tree).") {
		t.Errorf("skipped in-process section:\n%s", out)
	}
}

// TestBaseHEADServes checks HEAD out into a temporary worktree, builds its
// bench binary, serves graft@<short> from it and checks its answer to q1;
// the worktree is gone afterwards. It builds the bench module, so -short
// skips it.
func TestBaseHEADServes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bench module of a checked-out tree; skipped with -short")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if err := exec.Command("git", "rev-parse", "--verify", "HEAD").Run(); err != nil {
		t.Skip("not inside a git repository with a commit")
	}
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	b, err := prepareBase(ctx, log, "HEAD", []string{"graft", "graft-fasthttp"}, false)
	if err != nil {
		t.Fatal(err)
	}
	removed := false
	t.Cleanup(func() {
		if !removed {
			b.remove(log)
		}
	})
	if !b.serveFlags["server"] || !b.serveFlags["port"] || !b.serves["graft"] || !b.serves["graft-fasthttp"] || len(b.commit) < 40 || !strings.HasPrefix(b.commit, b.short) {
		t.Fatalf("base = %+v", b)
	}
	srvs := withBase(nil, b, "")
	if len(srvs) != 1 || srvs[0].Name != "graft@"+b.short {
		t.Fatalf("servers = %v", names(srvs))
	}
	// HEAD has cmd/benchserve: its graft runs from a binary of its own.
	if b.solo["graft"] == "" || b.solo["graft-fasthttp"] == "" {
		t.Fatalf("no solo binaries built for the base: %v", b.solo)
	}
	c, err := startChild(srvs[0], "", -1, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if exe := c.exe(); exe != b.solo["graft"] {
		c.stop()
		t.Fatalf("graft@%s runs %s, want its solo binary %s", b.short, exe, b.solo["graft"])
	}
	want, err := ceiling.Expected(data.Shared())
	if err != nil {
		c.stop()
		t.Fatal(err)
	}
	q1 := workload.Queries()[0]
	err = checkedFetch(c.addr, request(c.addr, servers.Path, q1.Body()), q1, want[q1.Base], srvs[0].Check)
	c.stop()
	if err != nil {
		t.Fatalf("graft@%s: %v", b.short, err)
	}
	b.remove(log)
	removed = true
	if _, err := os.Stat(b.dir); !os.IsNotExist(err) {
		t.Errorf("%s still there (%v)", b.dir, err)
	}
	list, err := gitOut(ctx, ".", "worktree", "list", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, b.tree) {
		t.Errorf("worktree %s still registered:\n%s", b.tree, list)
	}
}

func TestPrepareBaseUnknownRef(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if err := exec.Command("git", "rev-parse", "--verify", "HEAD").Run(); err != nil {
		t.Skip("not inside a git repository with a commit")
	}
	_, err := prepareBase(context.Background(), slog.New(slog.DiscardHandler), "no-such-ref-anywhere", []string{"graft"}, false)
	if err == nil || !strings.Contains(err.Error(), "-base no-such-ref-anywhere") {
		t.Errorf("err = %v", err)
	}
}

// TestBaseBeforeBenchserveRunsAlone takes the last tree without
// cmd/benchserve as the base: its graft entry must still run from a
// binary of its own (a graft-only program written against that tree's
// API), so its memory compares with today's, and answer correctly.
func TestBaseBeforeBenchserveRunsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bench module of a checked-out tree; skipped with -short")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	added, err := gitOut(ctx, ".", "log", "-1", "--format=%H", "--diff-filter=A", "--", ":/bench/cmd/benchserve/main.go")
	if err != nil || added == "" {
		t.Skipf("no commit adding cmd/benchserve in this clone's history (%v)", err)
	}
	if _, err := gitOut(ctx, ".", "rev-parse", "--verify", added+"^{commit}"); err != nil {
		t.Skipf("the history before %s is not in this clone (shallow?)", added)
	}
	if _, err := gitOut(ctx, ".", "rev-parse", "--verify", added+"^1^{commit}"); err != nil {
		t.Skipf("the history before %s is not in this clone (shallow?)", added)
	}
	log := slog.New(slog.DiscardHandler)
	b, err := prepareBase(ctx, log, added+"^1", []string{"graft"}, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.remove(log) })
	if b.solo["graft"] == "" {
		t.Fatalf("the base's graft has no binary of its own: %v", b.solo)
	}
	srvs := withBase(nil, b, "")
	if len(srvs) != 1 || !b.runsAlone(srvs[0].Name) {
		t.Fatalf("servers = %v, alone: %v", names(srvs), b.solo)
	}
	c, err := startChild(srvs[0], "", -1, "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.stop()
	if exe := c.exe(); exe != b.solo["graft"] {
		t.Fatalf("graft@%s runs %s, want %s", b.short, exe, b.solo["graft"])
	}
	want, err := ceiling.Expected(data.Shared())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range workload.Queries()[:4] {
		if err := checkedFetch(c.addr, request(c.addr, servers.Path, q.Body()), q, want[q.Base], srvs[0].Check); err != nil {
			t.Fatalf("graft@%s %s: %v", b.short, q.Name, err)
		}
	}
}

// TestBuildNoteNamesTheEarlyBase checks the method line: a base that
// predates cmd/benchserve is said to run from a graft-only program, not
// from a benchserve build, and still counts as alone in the peak table.
func TestBuildNoteNamesTheEarlyBase(t *testing.T) {
	b := &baseTree{short: "abc1234", solo: map[string]string{"graft": "/x/graft"}, early: true}
	m := &measurement{
		servers: []string{"ceiling", "graft@abc1234", "graft"},
		exe:     map[string]string{"ceiling": "/c", "graft@abc1234": "/x/graft", "graft": "/g"},
		binary:  map[string]int64{"ceiling": 1 << 20, "graft@abc1234": 1 << 20, "graft": 1 << 20},
		alone:   map[string]bool{"ceiling": true, "graft": true, "graft@abc1234": b.runsAlone("graft@abc1234")},
		base:    b,
	}
	note := m.buildNote()
	if !strings.Contains(note, "ceiling, graft. The load") {
		t.Errorf("the benchserve line should list ceiling and graft only:\n%s", note)
	}
	if !strings.Contains(note, "graft@abc1234 predates cmd/benchserve") {
		t.Errorf("no line for the early base:\n%s", note)
	}
	if got := m.runsFrom("graft@abc1234"); got != "alone" {
		t.Errorf("runsFrom(graft@abc1234) = %q, want alone", got)
	}
}
