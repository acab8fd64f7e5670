package accesslog

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Message is the msg of every access-log line.
const Message = "graphql request"

// Entry is one request's access-log line.
type Entry struct {
	// Time is when the line is logged (the record's time).
	Time time.Time
	// Method is the HTTP method ("WS" style names for other transports
	// are the caller's choice).
	Method string
	// Status is the answer's HTTP status.
	Status int
	// OperationName and OperationType name the operation, "" when unknown.
	OperationName string
	OperationType string
	// Duration is how long the request took; it is logged as duration_ms,
	// in milliseconds with microsecond precision.
	Duration time.Duration
	// Errors is the number of errors in the answer.
	Errors int
	// RequestID and Remote identify the request and its client.
	RequestID string
	Remote    string
	// BytesReceived is the size of the request body read (for an HTTP
	// batch, carried by its first operation), logged as bytes_received.
	BytesReceived int64
	// BatchItem is the position (from 1) of an operation of an HTTP
	// batch, logged as batch_item; 0 (not logged) for a single request.
	BatchItem int
}

// AppendAttrs appends e's fields as slog attributes, with the keys
// Handler.Log writes, for a logger that is not a Handler's.
func (e *Entry) AppendAttrs(a []slog.Attr) []slog.Attr {
	a = append(a,
		slog.String("method", e.Method),
		slog.Int("status", e.Status),
		slog.String("operation_name", e.OperationName),
		slog.String("operation_type", e.OperationType),
		slog.Float64("duration_ms", durationMS(e.Duration)),
		slog.Int("errors", e.Errors),
		slog.String("request_id", e.RequestID),
		slog.String("remote", e.Remote),
		slog.Int64("bytes_received", e.BytesReceived),
	)
	if e.BatchItem > 0 {
		a = append(a, slog.Int("batch_item", e.BatchItem))
	}
	return a
}

// durationMS is d in milliseconds rounded to the microsecond.
func durationMS(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}

// Format is the encoding of a Handler's lines.
type Format int

const (
	// Text writes key=value pairs as slog.TextHandler does.
	Text Format = iota
	// JSON writes one JSON object per line as slog.JSONHandler does.
	JSON
)

// HandlerOptions configures a Handler. Level is the minimum level logged
// (slog.LevelInfo when nil); access lines are logged at LevelInfo.
type HandlerOptions struct {
	Format Format
	Level  slog.Leveler
}

// Handler is a slog.Handler writing lines in the format slog's own
// handlers write, with a fast path for access-log lines (Log). Records
// logged through slog go through slog's handler of the same format.
type Handler struct {
	// second is the formatted second of the last line logged.
	second atomic.Pointer[secondText]
	inner  slog.Handler
	w      *Writer   // the fast path's buffer, when the sink is a Writer
	out    io.Writer // the sink
	json   bool
	level  slog.Leveler
}

// NewHandler returns a Handler writing to w: through w's buffer without
// copying when w is a *Writer (the usual case: NewHandler(NewWriter(os.Stderr, ...))).
func NewHandler(w io.Writer, o *HandlerOptions) *Handler {
	if o == nil {
		o = &HandlerOptions{}
	}
	h := &Handler{out: w, json: o.Format == JSON, level: o.Level}
	if h.level == nil {
		h.level = slog.LevelInfo
	}
	h.w, _ = w.(*Writer)
	so := &slog.HandlerOptions{Level: h.level}
	if h.json {
		h.inner = slog.NewJSONHandler(w, so)
	} else {
		h.inner = slog.NewTextHandler(w, so)
	}
	return h
}

// Enabled implements slog.Handler.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return l >= h.level.Level() }

// Handle implements slog.Handler with slog's handler of h's format. A
// record at slog.LevelWarn or above is flushed to the sink at once when
// the handler writes through a *Writer.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	err := h.inner.Handle(ctx, r)
	if h.w != nil && r.Level >= slog.LevelWarn {
		if ferr := h.w.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// WithAttrs implements slog.Handler; the handler it returns has no fast
// path.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler { return h.inner.WithAttrs(attrs) }

// WithGroup implements slog.Handler; the handler it returns has no fast
// path.
func (h *Handler) WithGroup(name string) slog.Handler { return h.inner.WithGroup(name) }

// maxLine bounds the line of an Entry whose strings are short; longer
// ones are formatted into a buffer of their own first.
const maxLine = 1024

// Log writes e's line at slog.LevelInfo with msg Message, as the
// handler's slog format would write it (duration as duration_ms), without
// allocating when the sink is a *Writer. It does nothing when Info is not
// enabled.
func (h *Handler) Log(e *Entry) {
	if slog.LevelInfo < h.level.Level() {
		return
	}
	if h.w != nil {
		n := 256 + 6*(len(e.Method)+len(e.OperationName)+len(e.OperationType)+len(e.RequestID)+len(e.Remote))
		if n <= h.w.size {
			h.w.appendLine(n, func(b []byte) []byte { return h.append(b, e) })
			return
		}
	}
	bp := linePool.Get().(*[]byte)
	b := h.append((*bp)[:0], e)
	_, _ = h.out.Write(b)
	if cap(b) <= 64<<10 {
		*bp = b
		linePool.Put(bp)
	}
}

var linePool = sync.Pool{New: func() any { b := make([]byte, 0, maxLine); return &b }}

// append appends e's line, newline included.
func (h *Handler) append(b []byte, e *Entry) []byte {
	if h.json {
		return appendJSON(b, e, h.secondOf(e.Time))
	}
	return appendText(b, e, h.secondOf(e.Time))
}

// secondText is a second formatted for a line's time: its date and time
// up to the second, and its zone. Lines logged within the same second
// share it, so only the fraction is formatted per line.
type secondText struct {
	unix int64
	loc  *time.Location
	date []byte // 2006-01-02T15:04:05
	zone []byte // Z07:00
}

// secondOf returns the formatted second of t.
func (h *Handler) secondOf(t time.Time) *secondText {
	if s := h.second.Load(); s != nil && s.unix == t.Unix() && s.loc == t.Location() {
		return s
	}
	s := &secondText{unix: t.Unix(), loc: t.Location(),
		date: t.AppendFormat(nil, "2006-01-02T15:04:05"), zone: t.AppendFormat(nil, "Z07:00")}
	h.second.Store(s)
	return s
}

// appendTime appends t as layout "2006-01-02T15:04:05.000Z07:00" (text)
// or time.RFC3339Nano (json) would, from its formatted second sec.
func appendTime(b []byte, t time.Time, sec *secondText, json bool) []byte {
	b = append(b, sec.date...)
	ns := t.Nanosecond()
	switch {
	case !json:
		ms := ns / 1e6
		b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	case ns != 0:
		var frac [10]byte
		frac[0] = '.'
		for i := 9; i >= 1; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for frac[n-1] == '0' {
			n--
		}
		b = append(b, frac[:n]...)
	}
	return append(b, sec.zone...)
}

// timeLayout is slog's text handler's: RFC 3339 with milliseconds (its
// JSON handler writes time.RFC3339Nano).
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

func appendJSON(b []byte, e *Entry, sec *secondText) []byte {
	b = append(b, `{"time":"`...)
	b = appendTime(b, e.Time, sec, true)
	b = append(b, `","level":"INFO","msg":"`+Message+`","method":`...)
	b = appendJSONString(b, e.Method)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, `,"operation_name":`...)
	b = appendJSONString(b, e.OperationName)
	b = append(b, `,"operation_type":`...)
	b = appendJSONString(b, e.OperationType)
	b = append(b, `,"duration_ms":`...)
	b = strconv.AppendFloat(b, durationMS(e.Duration), 'f', -1, 64)
	b = append(b, `,"errors":`...)
	b = strconv.AppendInt(b, int64(e.Errors), 10)
	b = append(b, `,"request_id":`...)
	b = appendJSONString(b, e.RequestID)
	b = append(b, `,"remote":`...)
	b = appendJSONString(b, e.Remote)
	b = append(b, `,"bytes_received":`...)
	b = strconv.AppendInt(b, e.BytesReceived, 10)
	if e.BatchItem > 0 {
		b = append(b, `,"batch_item":`...)
		b = strconv.AppendInt(b, int64(e.BatchItem), 10)
	}
	return append(b, "}\n"...)
}

func appendText(b []byte, e *Entry, sec *secondText) []byte {
	b = append(b, "time="...)
	b = appendTime(b, e.Time, sec, false)
	b = append(b, ` level=INFO msg="`+Message+`" method=`...)
	b = appendTextString(b, e.Method)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, " operation_name="...)
	b = appendTextString(b, e.OperationName)
	b = append(b, " operation_type="...)
	b = appendTextString(b, e.OperationType)
	b = append(b, " duration_ms="...)
	b = strconv.AppendFloat(b, durationMS(e.Duration), 'g', -1, 64)
	b = append(b, " errors="...)
	b = strconv.AppendInt(b, int64(e.Errors), 10)
	b = append(b, " request_id="...)
	b = appendTextString(b, e.RequestID)
	b = append(b, " remote="...)
	b = appendTextString(b, e.Remote)
	b = append(b, " bytes_received="...)
	b = strconv.AppendInt(b, e.BytesReceived, 10)
	if e.BatchItem > 0 {
		b = append(b, " batch_item="...)
		b = strconv.AppendInt(b, int64(e.BatchItem), 10)
	}
	return append(b, '\n')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, escaped as slog's JSON
// handler escapes it (encoding/json's rules without HTML escaping).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendTextString appends s as slog's text handler does: quoted (Go
// syntax) when empty or when it holds a space, '=', '"' or a character
// that is not printable.
func appendTextString(b []byte, s string) []byte {
	if needsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func needsQuoting(s string) bool {
	if len(s) == 0 {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '=' || c == '"' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}
