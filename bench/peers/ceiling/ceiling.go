// Package ceiling holds the benchmark's references for HTTP on a machine,
// which do no GraphQL work at all.
//
// Handler is the true ceiling: it reads the request body and writes the
// precomputed answer, looked up by the body's exact bytes, nothing else; no
// GraphQL server on net/http can beat it. DecodeHandler is the earlier,
// heavier reference: it also decodes the body with encoding/json first.
package ceiling

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/workload"
)

// maxBody bounds the request body both references read.
const maxBody = 1 << 20

// bodyPool recycles the buffers Handler reads request bodies into.
var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Handler answers every body the load generator sends for a workload query
// (q1 to q6, and the hash-only and registering bodies of q1-apq and
// q3-apq) with the precomputed answer of that query, found by the body's
// exact bytes; any other body gets 400.
func Handler(d *data.Set) (http.Handler, error) {
	byBody, err := Answers(d)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bp := bodyPool.Get().(*[]byte)
		body, err := readBody((*bp)[:0], r.Body)
		resp, ok := byBody[string(body)] // no allocation: the compiler reads body in place
		*bp = body[:0]
		bodyPool.Put(bp)
		if err != nil || !ok {
			http.Error(w, `{"errors":[{"message":"unknown query"}]}`, http.StatusBadRequest)
			return
		}
		writeAnswer(w, resp)
	}), nil
}

// Answers returns the precomputed answer of every body the load
// generator sends for a workload query (q1 to q7, and the hash-only and
// registering bodies of the persisted queries), by the body's exact
// bytes: what Handler answers, for a ceiling on another HTTP server.
func Answers(d *data.Set) (map[string][]byte, error) {
	expected, err := Expected(d)
	if err != nil {
		return nil, err
	}
	byBody := make(map[string][]byte)
	for _, q := range workload.All() {
		byBody[string(q.Body())] = expected[q.Base]
		byBody[string(q.RegisterBody())] = expected[q.Base]
	}
	return byBody, nil
}

// readBody appends the body, up to maxBody bytes, to buf.
func readBody(buf []byte, r io.Reader) ([]byte, error) {
	for len(buf) < maxBody {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), maxBody)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

func writeAnswer(w http.ResponseWriter, resp []byte) {
	h := w.Header()
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{strconv.Itoa(len(resp))}
	_, _ = w.Write(resp)
}

// DecodeHandler answers the workload's queries from precomputed bytes, sent
// as text or, as automatic persisted queries, as a hash only, after
// decoding the body with encoding/json; any other query gets 400. It is
// the heavier reference kept beside Handler: the cost of a plain decoding
// of the request.
func DecodeHandler(d *data.Set) (http.Handler, error) {
	expected, err := Expected(d)
	if err != nil {
		return nil, err
	}
	byText := make(map[string][]byte)
	byHash := make(map[string][]byte)
	for _, q := range append(workload.Queries(), workload.UpstreamQueries()...) {
		byText[q.Text] = expected[q.Name]
		byHash[q.Hash()] = expected[q.Name]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
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
		writeAnswer(w, resp)
	}), nil
}
