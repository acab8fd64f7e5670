package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// inProcessResult is the output of the in-process benchmarks.
type inProcessResult struct {
	command string
	output  string // raw `go test -bench` output, benchstat's input
	skipped string // why they did not run
	// repeats is the raw output of judgedRepeats further runs of the
	// benchmarks the in-process target judges, and repeatCommand their
	// command.
	repeats, repeatCommand string
}

// The in-process target is judged on the median of judgedRepeats runs of
// these benchmarks, made after the whole set: one run is one moment of the
// machine, which a busy host can slow by half.
const (
	judgedInProcessPattern = "^BenchmarkQ2$/^graft-(append-)?warm$"
	judgedRepeats          = 5
)

// runInProcess runs the in-process benchmarks of ./inprocess with `go test`,
// pinned to cpu when cpu >= 0, when the working directory is the bench
// module.
func runInProcess(ctx context.Context, cpu int, benchtime string) inProcessResult {
	mod, err := os.ReadFile("go.mod")
	if err != nil || !bytes.Contains(mod, []byte("module github.com/graftgql/graft/bench\n")) {
		return inProcessResult{skipped: "not run: the working directory is not the bench module"}
	}
	res := goBench(ctx, ".", cpu, benchtime, ".", 1)
	if res.skipped != "" {
		return res
	}
	rep := goBench(ctx, ".", cpu, benchtime, judgedInProcessPattern, judgedRepeats)
	if rep.skipped == "" {
		res.repeats, res.repeatCommand = rep.output, rep.command
	}
	return res
}

// goBench runs `go test -bench pattern -count count ./inprocess` in the
// bench module at dir, pinned to cpu when cpu >= 0.
func goBench(ctx context.Context, dir string, cpu int, benchtime, pattern string, count int) inProcessResult {
	args := []string{"go", "test", "-run", "^$", "-bench", pattern, "-benchmem", "-cpu", "1", "-count", strconv.Itoa(count), "-benchtime", benchtime, "./inprocess"}
	res := inProcessResult{command: strings.Join(args, " ")}
	if cpu >= 0 {
		args = append([]string{"taskset", "-c", strconv.Itoa(cpu)}, args...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	res.output = string(out)
	if err != nil {
		res.skipped = fmt.Sprintf("failed: %v", err)
	}
	return res
}

// table renders the benchmark lines as a markdown table.
func (r inProcessResult) table() string {
	var b strings.Builder
	b.WriteString("| benchmark | ns/op | B/op | allocs/op |\n|---|---:|---:|---:|\n")
	sc := bufio.NewScanner(strings.NewReader(r.output))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 8 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f[0], f[2], f[4], f[6])
	}
	return b.String()
}
