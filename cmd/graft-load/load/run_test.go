package load_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/cmd/graft-load/load"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/persisted"
)

// TestRunMatchesTheContract sends a few hundred requests of the mix to the
// blog example: every answer must be the expected one, and the run must
// stop at MaxRequests.
func TestRunMatchesTheContract(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{Logger: slog.New(slog.DiscardHandler), PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	const max = 300
	rep, err := load.Run(context.Background(), load.Options{URL: srv.URL, Clients: 4, MaxRequests: max, Duration: time.Minute, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := rep.UnexpectedCount(); n > 0 {
		t.Fatalf("%d unexpected answers:\n%s", n, rep)
	}
	if rep.Requests != max {
		t.Fatalf("%d requests answered, want %d", rep.Requests, max)
	}
	if len(rep.Outcomes) < 8 {
		t.Fatalf("the mix reached only %d kinds of answer:\n%s", len(rep.Outcomes), rep)
	}
}

func TestRunNeedsURL(t *testing.T) {
	if _, err := load.Run(context.Background(), load.Options{}); err == nil {
		t.Fatal("Run without a URL did not fail")
	}
}
