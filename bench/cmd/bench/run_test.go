package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/servers"
	"github.com/graftgql/graft/bench/workload"
)

// TestWrongAnswerIsNeverMeasured: a server answering wrongly stops the run
// before any load is sent.
func TestWrongAnswerIsNeverMeasured(t *testing.T) {
	q1 := workload.Queries()[0]
	q4 := workload.Queries()[3]
	tests := []struct {
		name    string
		q       workload.Query
		answer  string
		status  int
		wantErr string
		skipped bool
	}{
		{"wrong data", q1, `{"data":{"hello":"moon"}}`, 200, "WRONG ANSWER from fake", false},
		{"error status", q1, `{"errors":[{"message":"no"}]}`, 400, "status 400", false},
		{"no introspection is skipped, not fatal", q4, `{"errors":[{"message":"introspection disabled"}]}`, 200, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var posts atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.ReadAll(r.Body)
				posts.Add(1)
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.answer)
			}))
			defer srv.Close()
			m := &measurement{opts: options{conns: 2}, cells: map[[2]string]*cell{}}
			c := &child{name: "fake", addr: strings.TrimPrefix(srv.URL, "http://")}
			s := servers.Server{Name: "fake", Check: check.Normalised}
			err := measureOne(context.Background(), slog.New(slog.DiscardHandler), m, s, c, tt.q, []byte(`{"data":{"hello":"world"}}`), 0, 0)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("err = %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			if posts.Load() != 1 {
				t.Errorf("server got %d requests, want only the check", posts.Load())
			}
			ce := m.cells[[2]string{"fake", tt.q.Name}]
			if got := ce != nil && ce.skipped != ""; got != tt.skipped {
				t.Errorf("skipped = %v, want %v", got, tt.skipped)
			}
			if ce != nil && len(ce.samples) != 0 {
				t.Error("a sample was recorded")
			}
		})
	}
}

// TestReportPath: a second report of the day gets the time in its name.
func TestReportPath(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 26, 6, 5, 0, 0, time.UTC)
	first := reportPath(dir, at)
	if filepath.Base(first) != "2026-11-26.md" {
		t.Fatalf("first report %s", first)
	}
	if err := os.WriteFile(first, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := filepath.Base(reportPath(dir, at)); got != "2026-11-26-0605.md" {
		t.Errorf("second report %s", got)
	}
}

// TestPairPersistedMeasuresVariantsBesideTheirBase: a hash-only variant
// is measured beside its base query, after it in even rounds and before it
// in odd ones; one whose base is not selected stays in the rounds on its
// own.
func TestPairPersistedMeasuresVariantsBesideTheirBase(t *testing.T) {
	qs, err := selectQueries([]string{"q1", "q2", "q1-apq", "q3-apq", "q5"})
	if err != nil {
		t.Fatal(err)
	}
	outer, beside := pairPersisted(qs)
	var names []string
	for _, q := range outer {
		names = append(names, q.Name)
		for _, v := range beside[q.Name] {
			names = append(names, "+"+v.Name)
		}
	}
	if got, want := strings.Join(names, " "), "q1 +q1-apq q2 q3-apq q5"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	for r, want := range []string{"q1 q1-apq", "q1-apq q1", "q1 q1-apq"} {
		var got []string
		for _, q := range pairOrder(outer[0], beside["q1"], r) {
			got = append(got, q.Name)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("round %d measures %v, want %s", r, got, want)
		}
	}
}

// TestRoundOrder: the servers a target compares are measured back to back,
// in reversed order every other round, every server once a round, and the
// rest rotate as before.
func TestRoundOrder(t *testing.T) {
	names := []string{"ceiling", "ceiling-decode", "gqlgen", "graft", "graft-upstream", "gqlgen-upstream", "graft-upstream-raw", "yoga"}
	want := []string{
		"ceiling graft ceiling-decode gqlgen gqlgen-upstream graft-upstream graft-upstream-raw yoga",
		"ceiling-decode gqlgen graft-upstream-raw graft-upstream gqlgen-upstream yoga graft ceiling",
		"gqlgen gqlgen-upstream graft-upstream graft-upstream-raw yoga ceiling graft ceiling-decode",
	}
	for r, w := range want {
		var got []string
		for _, k := range roundOrder(names, r) {
			got = append(got, names[k])
		}
		if strings.Join(got, " ") != w {
			t.Errorf("round %d: %v, want %s", r, got, w)
		}
	}
	for r := range 6 {
		seen := map[int]bool{}
		for _, k := range roundOrder(names, r) {
			seen[k] = true
		}
		if len(seen) != len(names) {
			t.Errorf("round %d measures %d servers, want %d", r, len(seen), len(names))
		}
	}
	// A group with one member present is a unit of one.
	if got := roundOrder([]string{"graft", "gqlgen"}, 1); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("graft and gqlgen in round 1: %v, want [1 0]", got)
	}
}
