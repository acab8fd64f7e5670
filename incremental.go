package graft

import (
	"context"
	"net/http"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport/httpstream"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Incremental delivery (@defer and @stream): the pipeline runs an
// operation whose directives defer work with exec.RunIncremental when the
// transport delivers incrementally (streamSink.format), and the transport
// sends its payloads as a stream (Operation.Pump). Over HTTP the stream is
// a multipart/mixed response in the format the Accept header names
// (httpstream.Incremental, httpstream.Incremental2022), or an event
// stream; over WebSocket, successive next messages in the graphql-js 17
// format. A client that accepts none of these gets the whole result in
// one response, the directives honoured as if absent.

// formatFor returns the incremental delivery format of a stream in the
// httpstream format f, asked for with the Accept header list accept: the
// multipart formats' own; for an event stream, the one a multipart range
// of the header names, else the 2022 format (Yoga's over SSE, which
// graphql-sse clients read); none for multipart subscriptions, whose
// deferred operations are answered as if the directives were absent.
func formatFor(f *httpstream.Format, accept []string) exec.Format {
	switch f {
	case &httpstream.Incremental:
		return exec.FormatCurrent
	case &httpstream.Incremental2022:
		return exec.Format2022
	case &httpstream.SSE:
		return sseFormat(accept)
	}
	return 0
}

// sseFormat is the incremental delivery format of an event stream: the one
// a multipart/mixed range of the Accept header names, else the 2022
// format.
func sseFormat(accept []string) exec.Format {
	if httpstream.MatchIncremental(accept) == &httpstream.Incremental {
		return exec.FormatCurrent
	}
	return exec.Format2022
}

// startIncremental is the pipeline's last step for an operation with
// @defer or @stream over a transport that delivers incrementally: it
// writes the initial payload into resp and hands the running delivery to
// the transport through sink. The execution timeout covers the whole
// delivery.
func (r *Router) startIncremental(st *requestState, req *httpapi.Request, media string, resp *httpapi.Response, p *runPlan, sink *streamSink) {
	ctx, end := context.WithTimeout(p.ctx, r.cfg.Timeout)
	var errs *[]*gqlerror.Error
	if st.ph != nil {
		errs = resp.ErrorSink() // the hooks see the errors as values
	}
	body, hasErrors, inc := r.engine.RunIncremental(ctx, p.op, p.vars, sink.format, resp.Body[:0], p.ext, errs)
	resp.Status = http.StatusOK
	if hasErrors {
		resp.Status = r.status(httpapi.Partial, media)
	}
	resp.ContentType = httpapi.ContentType(media)
	resp.Body = body
	if inc == nil {
		end()
		r.setCacheControl(ctx, st, req, p.op.AST(), p.cacheControl, hasErrors, resp) // cachehints.go
		return
	}
	sink.inc, sink.incEnd, sink.ctx = inc, end, p.ctx
}

// refuseBatchedIncremental is the answer for an operation with @defer or
// @stream in an HTTP batch.
func refuseBatchedIncremental() *httpapi.Error {
	return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest,
		"@defer and @stream cannot be used in a batched request: send the operation on its own")}
}

// pumpIncremental sends the initial payload of op's delivery, then each
// later one, until the last, send fails or the delivery's context ends.
// Each later payload passes the hooks' PhasePayload, whose After sees its
// errors (the work of a payload runs before it is handed out, so a hook
// cannot refuse it).
func (r *Router) pumpIncremental(op *operation, send func(body []byte) error) error {
	defer op.endIncremental()
	if err := send(op.state.answer.Body); err != nil {
		return err
	}
	ph := op.st.ph
	var buf []byte
	for more := true; more; {
		if ph == nil {
			buf, more = op.inc.Next(buf[:0], nil)
		} else {
			_, _ = ph.beginPayload(op.ctx)
			var errs []*gqlerror.Error
			buf, more = op.inc.Next(buf[:0], &errs)
			ph.ev.Parts = incrementalParts(ph.ev.Parts[:0], op.inc.Parts())
			ph.endPayload(op.ctx, errs)
		}
		if err := send(buf); err != nil {
			return err
		}
	}
	return nil
}

// endIncremental cancels what is left of op's delivery.
func (op *operation) endIncremental() {
	op.inc.Close()
	op.incEnd()
}

// incrementalParts appends the hooks' view of parts to dst.
func incrementalParts(dst []IncrementalPart, parts []exec.Part) []IncrementalPart {
	for _, p := range parts {
		dst = append(dst, IncrementalPart{Label: p.Label, Path: p.Path, Stream: p.Stream,
			Start: p.Start, Duration: p.End.Sub(p.Start), Errors: p.Errors})
	}
	return dst
}
