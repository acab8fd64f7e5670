package blog

import (
	"context"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/workload"
	"github.com/graftgql/graft/schema"
)

// prepare plans query on the engine alone, for the benchmarks of the
// engine's warm and cold paths.
func prepare(tb testing.TB, build func() (*schema.Schema, error), query string, vars map[string]any) (*exec.Engine, *exec.Operation, map[string]any) {
	tb.Helper()
	s, err := build()
	if err != nil {
		tb.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(query)
	if errs != nil {
		tb.Fatalf("prepare: %v", errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		tb.Fatalf("operation: %v", gerr)
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		tb.Fatalf("variables: %v", errs)
	}
	return e, op, coerced
}

func benchQuery(b *testing.B, file string, vars map[string]any) { benchQueryOf(b, Schema, file, vars) }

func benchQueryOf(b *testing.B, build func() (*schema.Schema, error), file string, vars map[string]any) {
	q, err := workload.ReadFile(file)
	if err != nil {
		b.Skipf("bench query: %v", err)
	}
	e, op, coerced := prepare(b, build, string(q), vars)
	buf := make([]byte, 0, 1<<20)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf = e.Execute(context.Background(), op, coerced, buf[:0], nil)
	}
}

// The warm path of the benchmark queries: planned once, executed each
// iteration.
func BenchmarkQ1Warm(b *testing.B) { benchQuery(b, "q1.graphql", nil) }
func BenchmarkQ2Warm(b *testing.B) { benchQuery(b, "q2.graphql", nil) }
func BenchmarkQ3Warm(b *testing.B) { benchQuery(b, "q3.graphql", map[string]any{"id": "a42"}) }

func benchCold(b *testing.B, file string, vars map[string]any) {
	q, err := workload.ReadFile(file)
	if err != nil {
		b.Skipf("bench query: %v", err)
	}
	s, err := Schema()
	if err != nil {
		b.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	buf := make([]byte, 0, 1<<20)
	b.ReportAllocs()
	for b.Loop() {
		doc, errs := e.Prepare(string(q))
		if errs != nil {
			b.Fatal(errs)
		}
		op, _ := doc.Operation("")
		coerced, _ := e.CoerceVariables(op, vars)
		buf = e.Execute(context.Background(), op, coerced, buf[:0], nil)
	}
}

// The cold path: parse, validate and plan each iteration.
func BenchmarkQ2Cold(b *testing.B) { benchCold(b, "q2.graphql", nil) }
func BenchmarkQ3Cold(b *testing.B) { benchCold(b, "q3.graphql", map[string]any{"id": "a42"}) }

// BenchmarkBuild measures building the blog schema, SDL and gqlparser
// form included.
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Schema(); err != nil {
			b.Fatal(err)
		}
	}
}
