package federation

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"time"
)

// TraceHeader is the request header with which a federation gateway asks
// a subgraph for an inline trace (value "ftv1").
const TraceHeader = "apollo-federation-include-trace"

// Tracing wraps a subgraph's handler with federated inline tracing (ftv1).
// When a request carries the header apollo-federation-include-trace: ftv1,
// the JSON answer's extensions are replaced by {"ftv1": trace}, the
// base64 of an Apollo usage-reporting Trace message: the request's start
// and end times, its duration, and a root node carrying the response's
// errors. Per-field timings are not recorded. Other requests pass through
// untouched.
func Tracing(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(TraceHeader) != "ftv1" {
			h.ServeHTTP(w, r)
			return
		}
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		start := time.Now()
		h.ServeHTTP(rec, r)
		end := time.Now()
		body := rec.body.Bytes()
		if traced, ok := withTrace(body, rec.header.Get("Content-Type"), start, end); ok {
			body = traced
			rec.header.Set("Content-Length", strconv.Itoa(len(body)))
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(body)
	})
}

// recorder buffers a response.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}

// traceError is what the trace keeps of a response error.
type traceError struct {
	Message   string `json:"message"`
	Locations []struct {
		Line   uint64 `json:"line"`
		Column uint64 `json:"column"`
	} `json:"locations"`
}

// withTrace rewrites a JSON GraphQL response with extensions {"ftv1": ...}.
func withTrace(body []byte, contentType string, start, end time.Time) ([]byte, bool) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "application/json" && mt != "application/graphql-response+json" {
		return nil, false
	}
	var resp struct {
		Data   json.RawMessage   `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(body, &resp) != nil {
		return nil, false
	}
	var out struct {
		Data       json.RawMessage   `json:"data,omitempty"`
		Errors     []json.RawMessage `json:"errors,omitempty"`
		Extensions map[string]string `json:"extensions"`
	}
	out.Data, out.Errors = resp.Data, resp.Errors
	out.Extensions = map[string]string{"ftv1": base64.StdEncoding.EncodeToString(encodeTrace(start, end, resp.Errors))}
	b, err := json.Marshal(out)
	return b, err == nil
}

// encodeTrace encodes a Trace message (Apollo's reports.proto): start_time
// (4), end_time (3), duration_ns (11) and root (14), a Node whose error
// (11) entries hold message (1), location (2: line 1, column 2) and json
// (4).
func encodeTrace(start, end time.Time, errs []json.RawMessage) []byte {
	var root []byte
	for _, raw := range errs {
		var e traceError
		_ = json.Unmarshal(raw, &e)
		var eb []byte
		eb = appendBytes(eb, 1, []byte(e.Message))
		for _, l := range e.Locations {
			var lb []byte
			lb = appendVarintField(lb, 1, l.Line)
			lb = appendVarintField(lb, 2, l.Column)
			eb = appendBytes(eb, 2, lb)
		}
		eb = appendBytes(eb, 4, raw)
		root = appendBytes(root, 11, eb)
	}
	var t []byte
	t = appendBytes(t, 3, timestamp(end))
	t = appendBytes(t, 4, timestamp(start))
	t = appendVarintField(t, 11, uint64(max(end.Sub(start), 1)))
	t = appendBytes(t, 14, root)
	return t
}

func timestamp(t time.Time) []byte {
	var b []byte
	b = appendVarintField(b, 1, uint64(t.Unix()))
	return appendVarintField(b, 2, uint64(t.Nanosecond()))
}

func appendVarintField(b []byte, field int, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(field)<<3)
	return binary.AppendUvarint(b, v)
}

func appendBytes(b []byte, field int, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(field)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}
