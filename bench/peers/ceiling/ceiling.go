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

// Handler answers the workload's queries from precomputed bytes; any other
// query gets 400.
func Handler(d *data.Set) (http.Handler, error) {
	expected, err := Expected(d)
	if err != nil {
		return nil, err
	}
	byText := make(map[string][]byte, len(expected))
	for _, q := range workload.Queries() {
		byText[q.Text] = expected[q.Name]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var req struct {
			Query string `json:"query"`
		}
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		resp, ok := byText[req.Query]
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
