package servers

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/bench/workload"
)

// TestUpstreamAnswers holds every Go upstream server to the ceiling's
// answers of q5 and q6 (q7 for the Tailcall replica's servers), exact
// bytes for graft, served through an upstream service without
// latency, and checks the upstream calls each request costs: the plain
// graft resolvers one per author plus one, the DataLoaders between one
// batch per level and one call per author, q7 two calls (posts, then the
// distinct users) on every server.
func TestUpstreamAnswers(t *testing.T) {
	d := data.Shared()
	want, err := ceiling.Expected(d)
	if err != nil {
		t.Fatal(err)
	}
	svc := upstream.New(d, 0)
	usrv := httptest.NewServer(svc)
	defer usrv.Close()
	up := upstream.NewClient(usrv.URL)
	exact := map[string]int64{"graft-upstream-plain": 51, "graft-upstream": 2, "graft-upstream-raw": 2,
		"graft-tailcall": 2, "graft-tailcall-raw": 2, "graft-tailcall-dedupe": 2}
	ran := 0
	for _, s := range All() {
		if s.UpstreamHandler == nil {
			continue
		}
		ran++
		t.Run(s.Name, func(t *testing.T) {
			h, err := s.UpstreamHandler(up)
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			mux.Handle(Path, h)
			srv := httptest.NewServer(mux)
			defer srv.Close()
			runs := 0
			for _, q := range workload.UpstreamQueries() {
				if q.Tailcall != s.Tailcall {
					if s.Runs(q) {
						t.Errorf("%s runs %s", s.Name, q.Name)
					}
					continue
				}
				runs++
				t.Run(q.Name, func(t *testing.T) {
					if !s.Runs(q) {
						t.Fatalf("%s does not run %s", s.Name, q.Name)
					}
					if err := up.Reset(context.Background()); err != nil {
						t.Fatal(err)
					}
					res, err := http.Post(srv.URL+Path, "application/json", bytes.NewReader(q.Body()))
					if err != nil {
						t.Fatal(err)
					}
					defer res.Body.Close()
					body, _ := io.ReadAll(res.Body)
					if res.StatusCode != http.StatusOK {
						t.Fatalf("status %d: %s", res.StatusCode, body)
					}
					if err := check.Answer(q, body, want[q.Name], s.Check); err != nil {
						t.Error(err)
					}
					calls := svc.Calls()
					if n, ok := exact[s.Name]; ok && calls != n {
						t.Errorf("%d upstream calls, want %d", calls, n)
					}
					if calls < 2 || calls > 51 {
						t.Errorf("%d upstream calls, want 2 to 51", calls)
					}
					if r, ok := s.UpstreamCalls[q.Name]; ok && (calls < r[0] || calls > r[1]) {
						t.Errorf("%d upstream calls, outside the server's declared %d to %d", calls, r[0], r[1])
					}
				})
			}
			if runs == 0 {
				t.Error("runs no upstream query")
			}
		})
	}
	if ran < 3 {
		t.Errorf("%d Go upstream servers, want gqlgen, graph-gophers and graft", ran)
	}
}

// TestServersRun: in-memory servers run q1 to q4 and not q5, q6, q7;
// upstream servers q5 and q6; the Tailcall replica's servers q7 alone; the
// ceilings every query.
func TestServersRun(t *testing.T) {
	q2, q5, q7 := workload.Queries()[1], workload.UpstreamQueries()[0], workload.UpstreamQueries()[2]
	for _, s := range All() {
		wantQ2 := !s.Upstream || s.Reference
		wantQ5 := (s.Upstream && !s.Tailcall) || s.Reference
		wantQ7 := s.Tailcall || s.Reference
		if s.Runs(q2) != wantQ2 || s.Runs(q5) != wantQ5 || s.Runs(q7) != wantQ7 {
			t.Errorf("%s: runs q2 %v, q5 %v, q7 %v; want %v, %v, %v", s.Name, s.Runs(q2), s.Runs(q5), s.Runs(q7), wantQ2, wantQ5, wantQ7)
		}
	}
}
