package federation

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"time"

	"github.com/graftgql/graft"
)

// TraceHeader is the request header with which a federation gateway asks
// a subgraph for an inline trace (value "ftv1").
const TraceHeader = "apollo-federation-include-trace"

// TracingHook returns the graft.Hook of federated inline tracing (ftv1):
// when a request carries the header apollo-federation-include-trace: ftv1,
// its answer's extensions gain "ftv1", the base64 of an Apollo
// usage-reporting Trace message holding the request's start and end
// times, its duration, and a root node carrying the answer's errors.
// Per-field timings are not recorded. Other requests are untouched.
// Install it in graft.Config.Hooks of a subgraph's router.
func TracingHook() graft.Hook { return tracingHook{} }

type tracingHook struct{}

// Before adds the trace as the answer is completed.
func (tracingHook) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	if ev.Phase != graft.PhaseAnswered || ev.Request.Header == nil || ev.Request.Header(TraceHeader) != "ftv1" {
		return nil, nil
	}
	errs := make([]json.RawMessage, 0, len(ev.Errors))
	for _, e := range ev.Errors {
		if b, err := json.Marshal(e); err == nil {
			errs = append(errs, b)
		}
	}
	graft.SetExtension(ctx, "ftv1", base64.StdEncoding.EncodeToString(encodeTrace(ev.Start, time.Now(), errs)))
	return nil, nil
}

func (tracingHook) After(context.Context, *graft.HookEvent) {}

// traceError is what the trace keeps of a response error.
type traceError struct {
	Message   string `json:"message"`
	Locations []struct {
		Line   uint64 `json:"line"`
		Column uint64 `json:"column"`
	} `json:"locations"`
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
