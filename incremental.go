package graft

import (
	"context"
	"net/http"
	"strings"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Incremental delivery (@defer and @stream) over HTTP: a multipart/mixed
// response whose parts are the payloads, in the format the client's
// Accept header names, echoed in the Content-Type:
//
//   - multipart/mixed;incrementalSpec=v0.2: the format of graphql-js 17
//     (pending, incremental by id, completed);
//   - multipart/mixed;deferSpec=20220824, and plain multipart/mixed: the
//     2022 format (incremental entries with path and label).
//
// Over Server-Sent Events and WebSocket the payloads, in the graphql-js 17
// format, are successive next messages. A client that accepts none of
// these gets the whole result in one response, the directives honoured as
// if absent.

// Parts of a multipart incremental response (boundary "-").
var (
	incFirst     = []byte("\r\n---")
	incPartHead  = []byte("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n")
	incPartClose = []byte("\r\n---")
	incEnd       = []byte("--\r\n")
)

// The content types of a multipart incremental response, by format.
const (
	incCurrentType = `multipart/mixed;boundary="-";incrementalSpec=v0.2`
	inc2022Type    = `multipart/mixed;boundary="-";deferSpec=20220824`
)

// incrementalFormat returns the incremental delivery format an Accept
// header list asks for: the first multipart/mixed range with
// incrementalSpec=v0.2 (the current format) or deferSpec=20220824 (the
// 2022 one), or with no spec parameter at all (the 2022 format, which
// every multipart client reads). It returns 0 when there is none, and for
// a range that asks for multipart subscriptions only.
func incrementalFormat(values []string) exec.Format {
	var f exec.Format
	mediaRanges(values, func(mt, params string) bool {
		if mt != "multipart/mixed" {
			return true
		}
		found := exec.Format2022
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			k, v = strings.ToLower(strings.TrimSpace(k)), strings.Trim(strings.TrimSpace(v), `"`)
			switch {
			case k == "incrementalspec" && v == "v0.2":
				f = exec.FormatCurrent
				return false
			case k == "deferspec" && v == "20220824":
				f = exec.Format2022
				return false
			case k == "subscriptionspec", k == "incrementalspec", k == "deferspec":
				found = 0 // another spec
			}
		}
		if found != 0 {
			f = found
			return false
		}
		return true
	})
	return f
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
		errs = &resp.Errors // the hooks see the errors as values
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
	if err := send(op.resp.Body); err != nil {
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

// serveIncremental writes op's delivery as a multipart/mixed response in
// format. A client that stops reading within the write timeout is
// disconnected and the work left is cancelled.
func (r *Router) serveIncremental(w http.ResponseWriter, op *operation, stop context.CancelCauseFunc, format exec.Format) {
	h := w.Header()
	for k, v := range op.resp.Header {
		h[k] = v
	}
	h.Set("Content-Type", incContentType(format))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	s := newHTTPStream(w, r.subs.cfg.WriteTimeout)
	if s.write(incFirst) != nil {
		op.endIncremental()
		op.end()
		return
	}
	err := r.pump(op, func(body []byte) error { return s.write(incPartHead, body, incPartClose) })
	if err != nil {
		stop(errNotStream)
		return
	}
	_ = s.write(incEnd)
}

// incContentType returns the Content-Type of a multipart incremental
// response in format.
func incContentType(format exec.Format) string {
	if format == exec.FormatCurrent {
		return incCurrentType
	}
	return inc2022Type
}
