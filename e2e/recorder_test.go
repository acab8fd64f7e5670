package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// stepHeader names the step of a Node script a request belongs to.
const stepHeader = "X-Graft-E2e-Step"

// seenRequest is what the server saw of one request and its answer.
type seenRequest struct {
	Method   string
	HasQuery bool   // a non-empty query parameter was sent
	Hash     string // extensions.persistedQuery.sha256Hash
	Status   int
	Code     string // extensions.code of the first error, if any
	// CacheControl is the response's Cache-Control header.
	CacheControl string
}

// recorder wraps a handler and keeps, per step header, what it saw.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	seen map[string][]seenRequest
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	step := r.Header.Get(stepHeader)
	if step == "" {
		rec.next.ServeHTTP(w, r)
		return
	}
	var params struct {
		Query      string `json:"query"`
		Extensions struct {
			PersistedQuery struct {
				SHA256Hash string `json:"sha256Hash"`
			} `json:"persistedQuery"`
		} `json:"extensions"`
	}
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		_ = json.Unmarshal(body, &params)
	} else {
		q := r.URL.Query()
		params.Query = q.Get("query")
		_ = json.Unmarshal([]byte(q.Get("extensions")), &params.Extensions)
	}
	cw := &capturingWriter{ResponseWriter: w, status: http.StatusOK}
	rec.next.ServeHTTP(cw, r)
	var resp struct {
		Errors []struct {
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	_ = json.Unmarshal(cw.body.Bytes(), &resp)
	s := seenRequest{
		Method:       r.Method,
		HasQuery:     params.Query != "",
		Hash:         params.Extensions.PersistedQuery.SHA256Hash,
		Status:       cw.status,
		CacheControl: w.Header().Get("Cache-Control"),
	}
	if len(resp.Errors) > 0 {
		s.Code = resp.Errors[0].Extensions.Code
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.seen == nil {
		rec.seen = make(map[string][]seenRequest)
	}
	rec.seen[step] = append(rec.seen[step], s)
}

func (rec *recorder) step(name string) []seenRequest {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.seen[name]
}

// capturingWriter keeps a copy of the status and body it passes on.
type capturingWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *capturingWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *capturingWriter) Write(p []byte) (int, error) {
	w.body.Write(p)
	return w.ResponseWriter.Write(p)
}
