package graft_test

import (
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/testenv"
)

// TestMaskedErrorLogBounded: with MaskErrors, one request whose fields
// fail by the hundred logs the first ten failures and one summary line
// with the count of the others, whatever the number of failures.
func TestMaskedErrorLogBounded(t *testing.T) {
	for _, tt := range []struct {
		field, line string
		n           int
	}{
		{field: "plainError", line: "graphql: resolver error", n: 500},
		{field: "boom", line: "graphql: resolver panicked", n: 300},
		{field: "plainError", line: "graphql: resolver error", n: 10},
	} {
		t.Run(tt.field+" x"+strconv.Itoa(tt.n), func(t *testing.T) {
			var logs testenv.Buffer
			r := newTestRouter(t, graft.Config{MaskErrors: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			var q strings.Builder
			q.WriteString("{")
			for i := range tt.n {
				q.WriteString(" a" + strconv.Itoa(i) + ": " + tt.field)
			}
			q.WriteString(" }")
			got := post(t, r, q.String())
			if got.status != 200 || len(got.body.Errors) != min(tt.n, 100) {
				t.Fatalf("got %d with %d errors", got.status, len(got.body.Errors))
			}
			lines := logs.Lines()
			var failures, summaries int
			for _, l := range lines {
				switch {
				case strings.Contains(l, tt.line):
					failures++
				case strings.Contains(l, "more field errors were not logged"):
					summaries++
					if want := "notLogged=" + strconv.Itoa(tt.n-10); !strings.Contains(l, want) {
						t.Errorf("summary %q lacks %s", l, want)
					}
				}
			}
			wantSummaries := 0
			if tt.n > 10 {
				wantSummaries = 1
			}
			if failures != 10 || summaries != wantSummaries || len(lines) != failures+summaries {
				t.Fatalf("%d lines: %d failures, %d summaries, want 10 and %d:\n%s", len(lines), failures, summaries, wantSummaries, strings.Join(lines, "\n"))
			}
		})
	}
}
