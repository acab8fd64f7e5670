// Package httpapi implements the GraphQL-over-HTTP wire format that every
// graft transport shares: decoding GET and POST requests into a Request,
// choosing the response media type from Accept, and the status codes and
// error bodies of the wire contract. It knows nothing of net/http handlers:
// adapters (net/http, fasthttp, AWS Lambda) fill a RawRequest and send the
// Response back, so the same pipeline serves every host.
package httpapi

import (
	"net/http"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// RawRequest is the transport-neutral view of an HTTP request that the
// graft pipeline reads. Adapters fill it from their own request types; the
// body must already be read with the configured size limit applied.
type RawRequest struct {
	Method      string
	Path        string
	RawQuery    string // the URL query string, without '?'
	ContentType string
	Accept      string
	// Header returns the first value of a request header (any case).
	Header func(name string) string
	Body   []byte
	// Scratch, when not nil, is spare memory the decoder may unescape the
	// query text into rather than allocate (see Request.Query); like
	// Body it must stay unchanged until the request is answered.
	Scratch []byte
	// Texts, when not nil, is where the decoder finds and keeps the text
	// of queries that arrive with escapes (see QueryTexts).
	Texts *QueryTexts
	// Remote is the client address, for logs.
	Remote string
	// Refusal, when not nil, is the answer the transport decided before
	// the pipeline could run (a body over the size limit): the pipeline
	// answers it after admitting the request through its door, so hooks,
	// the access log and metrics see it.
	Refusal *Error
	// Attach, when not nil, runs on the variables of each decoded
	// request (op is its index in a batch, -1 for a single request): a
	// multipart request puts its files there. An error refuses the
	// request (the batch item).
	Attach func(op int, vars map[string]any) *Error
}

// Response is what the pipeline answers: adapters copy it to the wire,
// the status, Content-Type, every entry of Header as it is, and the body.
type Response struct {
	Status      int
	ContentType string
	// Header holds the other headers (Allow, Cache-Control,
	// WWW-Authenticate, ...): nil on the hot path.
	Header http.Header
	Body   []byte
	// MayShare, set by a transport before serving, lets the pipeline
	// answer with memory it shares between answers (a cached
	// introspection answer) rather than copy it into Body's buffer. The
	// transport then sends Body as it is and, when Shared is set, neither
	// writes into it nor keeps its memory for another answer.
	MayShare bool
	// Shared is set when Body is such shared memory: it is only read.
	Shared bool
	// errs holds the answer's errors as values, for the hooks (Errors,
	// SetErrors, ErrorSink): in the answer itself, which a request
	// allocates with its state, so that collecting them allocates nothing
	// until there is an error.
	errs []*gqlerror.Error
}

// Errors returns the answer's errors as values: set with every error
// answer, and by execution while hooks observe the request. Adapters
// ignore them.
func (r *Response) Errors() []*gqlerror.Error { return r.errs }

// SetErrors makes errs the answer's errors.
func (r *Response) SetErrors(errs ...*gqlerror.Error) {
	if r.errs == nil && len(errs) == 0 {
		return
	}
	r.errs = append(r.errs[:0], errs...)
}

// ErrorSink returns where execution appends the answer's errors.
func (r *Response) ErrorSink() *[]*gqlerror.Error { return &r.errs }

// Reuse returns Body emptied, to write a new answer into its memory; nil
// when Body is shared memory, which is then let go (Shared is cleared).
// Whatever replaces an answer the pipeline may have written starts from
// it.
func (r *Response) Reuse() []byte {
	if r.Shared {
		r.Body, r.Shared = nil, false
		return nil
	}
	return r.Body[:0]
}

// SetHeader sets a header of the response, allocating Header on first
// use.
func (r *Response) SetHeader(name, value string) {
	if r.Header == nil {
		r.Header = make(http.Header, 1)
	}
	r.Header.Set(name, value)
}
