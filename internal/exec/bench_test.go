package exec_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/workload"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/exec"
)

// benchQueries are the workload of ../shared/bench (internal/workload).
var benchQueries = []struct{ name, file, vars string }{
	{"q1", "testdata/q1.graphql", ""},
	{"q2", "testdata/q2.graphql", ""},
	{"q3", "testdata/q3.graphql", "testdata/q3.variables.json"},
	{"q4", "testdata/q4.graphql", ""},
}

func loadBench(b *testing.B, file, varsFile string) (string, map[string]any) {
	b.Helper()
	q, err := workload.ReadFile(strings.TrimPrefix(file, "testdata/"))
	if err != nil {
		b.Fatal(err)
	}
	var vars map[string]any
	if varsFile != "" {
		raw, err := workload.ReadFile(strings.TrimPrefix(varsFile, "testdata/"))
		if err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal(raw, &vars); err != nil {
			b.Fatal(err)
		}
	}
	return string(q), vars
}

func blogEngine(b *testing.B) *exec.Engine {
	b.Helper()
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	return exec.New(s, exec.Options{})
}

// runOnce prepares (when doc is nil), coerces and executes one request.
// It reports failures with Error, so it may run in RunParallel goroutines.
func runOnce(b *testing.B, e *exec.Engine, doc *exec.Document, query string, vars map[string]any, buf []byte) []byte {
	if doc == nil {
		d, errs := e.Prepare(query)
		if errs != nil {
			b.Error(errs)
			return buf
		}
		doc = d
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		b.Error(gerr)
		return buf
	}
	coerced, verrs := e.CoerceVariables(op, vars)
	if verrs != nil {
		b.Error(verrs)
		return buf
	}
	return e.Execute(context.Background(), op, coerced, buf[:0], nil)
}

// BenchmarkWarm runs the workload with the document prepared once, as a
// router does on a document-cache hit.
func BenchmarkWarm(b *testing.B) {
	e := blogEngine(b)
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			query, vars := loadBench(b, q.file, q.vars)
			doc, errs := e.Prepare(query)
			if errs != nil {
				b.Fatal(errs)
			}
			buf := make([]byte, 0, 64<<10)
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				buf = runOnce(b, e, doc, query, vars, buf)
			}
			reportCPU(b, cpu)
			b.SetBytes(int64(len(buf)))
		})
	}
}

// BenchmarkCold parses, validates and plans the document on every run.
func BenchmarkCold(b *testing.B) {
	e := blogEngine(b)
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			query, vars := loadBench(b, q.file, q.vars)
			buf := make([]byte, 0, 64<<10)
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				buf = runOnce(b, e, nil, query, vars, buf)
			}
			reportCPU(b, cpu)
			b.SetBytes(int64(len(buf)))
		})
	}
}

// reportCPU reports the process CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	if used := processCPU() - start; used > 0 && b.N > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkWarmParallel runs the warm workload from every core at once, as
// a busy server does, sharing one prepared document.
func BenchmarkWarmParallel(b *testing.B) {
	e := blogEngine(b)
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			query, vars := loadBench(b, q.file, q.vars)
			doc, errs := e.Prepare(query)
			if errs != nil {
				b.Fatal(errs)
			}
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				var buf []byte
				for pb.Next() {
					buf = runOnce(b, e, doc, query, vars, buf[:0])
				}
			})
		})
	}
}
