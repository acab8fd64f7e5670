// Package ceiling is the benchmark's upper bound for HTTP on a machine: a
// plain net/http handler that decodes the request body, looks the query up
// and writes the precomputed correct response bytes, doing no GraphQL work.
package ceiling

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/workload"
)

// Handler answers the workload's queries from precomputed bytes, sent as
// text or, as automatic persisted queries, as a hash only; any other query
// gets 400.
func Handler(d *data.Set) (http.Handler, error) {
	expected, err := Expected(d)
	if err != nil {
		return nil, err
	}
	byText := make(map[string][]byte, len(expected))
	byHash := make(map[string][]byte, len(expected))
	for _, q := range workload.Queries() {
		byText[q.Text] = expected[q.Name]
		byHash[q.Hash()] = expected[q.Name]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var req struct {
			Query      string `json:"query"`
			Extensions struct {
				PersistedQuery struct {
					Sha256Hash string `json:"sha256Hash"`
				} `json:"persistedQuery"`
			} `json:"extensions"`
		}
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		resp, ok := byText[req.Query]
		if req.Query == "" {
			resp, ok = byHash[req.Extensions.PersistedQuery.Sha256Hash]
		}
		if err != nil || !ok {
			http.Error(w, `{"errors":[{"message":"unknown query"}]}`, http.StatusBadRequest)
			return
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(len(resp))}
		_, _ = w.Write(resp)
	}), nil
}
