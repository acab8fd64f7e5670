package servers

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/workload"
)

// TestAnswers holds every net/http server to the ceiling's answers, as the
// load generator does before it measures.
func TestAnswers(t *testing.T) {
	d := data.Shared()
	want, err := ceiling.Expected(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range All() {
		if s.Handler == nil {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			h, err := s.Handler(d)
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			mux.Handle(Path, h)
			srv := httptest.NewServer(mux)
			defer srv.Close()
			qs := workload.Queries()
			if s.Reference {
				qs = append(qs, workload.UpstreamQueries()...)
			}
			for _, q := range qs {
				t.Run(q.Name, func(t *testing.T) {
					res, err := http.Post(srv.URL+Path, "application/json", bytes.NewReader(q.Body()))
					if err != nil {
						t.Fatal(err)
					}
					defer res.Body.Close()
					body, err := io.ReadAll(res.Body)
					if err != nil {
						t.Fatal(err)
					}
					if res.StatusCode != http.StatusOK {
						t.Fatalf("status %d: %s", res.StatusCode, body)
					}
					if err := check.Answer(q, body, want[q.Name], s.Check); err != nil {
						t.Error(err)
					}
				})
			}
		})
	}
}

func TestLookup(t *testing.T) {
	if _, ok := Lookup("gqlgen"); !ok {
		t.Error("gqlgen not found")
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("an unknown name was found")
	}
}

// TestPersistedAnswers checks the automatic-persisted-query variants on the
// servers that support them: after a registration with the query, the hash
// alone gets the same answer.
func TestPersistedAnswers(t *testing.T) {
	d := data.Shared()
	want, err := ceiling.Expected(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range All() {
		if s.Handler == nil || !s.APQ {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			h, err := s.Handler(d)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			for _, q := range workload.PersistedQueries() {
				for _, step := range []struct {
					name string
					body []byte
				}{{"register", q.RegisterBody()}, {"hash only", q.Body()}} {
					t.Run(q.Name+" "+step.name, func(t *testing.T) {
						res, err := http.Post(srv.URL+Path, "application/json", bytes.NewReader(step.body))
						if err != nil {
							t.Fatal(err)
						}
						defer res.Body.Close()
						body, _ := io.ReadAll(res.Body)
						if res.StatusCode != http.StatusOK {
							t.Fatalf("status %d: %s", res.StatusCode, body)
						}
						if err := check.Answer(q, body, want[q.Base], s.Check); err != nil {
							t.Error(err)
						}
					})
				}
			}
		})
	}
}
