package graft

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/limits"
)

// serveBatch answers a batch (Config.MaxBatch): a POST body holding a JSON
// array of requests. The operations run one after the other, each with its
// own limits, timeout and errors, within the one request's body limit and
// in-flight slot; the answer is a JSON array of their responses in order,
// with status 200. An operation refused before it ran carries its own
// status in its response's extensions.status.
//
// The batch entered the door as one request, whose ID its answer carries;
// once it decodes, each operation passes the door as a request of its
// own, with the batch's request ID and its position (RequestInfo.BatchItem),
// so hooks, the access log and metrics see one answer per operation.
//
// The batch as a whole is one request for the limits too: the sum of its
// operations' measures is held to Config.Complexity (batchLimits.charge),
// and their responses share one Config.MaxResponseBytes budget; once it is
// spent, the operations not yet run are not run.
func (r *Router) serveBatch(ctx context.Context, st *requestState, raw *httpapi.RawRequest, media string, resp *httpapi.Response) {
	ct := httpapi.ContentType(media)
	items, e := httpapi.DecodeBatch(raw, r.cfg.MaxBatch)
	if e != nil {
		r.fail(resp, ct, r.decodeFailed(e, media))
		return
	}
	// The operations are the answers the hooks see, not the batch.
	st.ph = nil
	shared := &batchLimits{left: r.cfg.MaxResponseBytes}
	body := append(resp.Body[:0], '[')
	var one httpapi.Response
	for i := range items {
		if i > 0 {
			body = append(body, ',')
		}
		one = httpapi.Response{Body: one.Body[:0]}
		ist := newServedState()
		ist.batch = shared
		ist.info.RequestID, ist.info.BatchItem = st.info.RequestID, i+1
		ictx := r.enter(ctx, ist, raw, &one)
		ist.info.BytesReceived = 0
		if i == 0 {
			ist.info.BytesReceived = st.info.BytesReceived // counted once
		}
		switch it := &items[i]; {
		case it.Err != nil:
			r.fail(&one, ct, r.decodeFailed(it.Err, media))
		case shared.left <= 0:
			r.fail(&one, ct, &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.ResponseTooLarge,
				"Not run: the batch's responses reached the limit of "+strconv.Itoa(r.cfg.MaxResponseBytes)+" bytes before this operation.")})
		default:
			left := shared.left
			r.runContained(ictx, ist, &it.Req, media, &one)
			shared.left = min(shared.left, left-len(one.Body)) // execute sets it to 0 when spent
		}
		r.leave(ist, &one)
		body = appendBatchItem(body, &one)
	}
	resp.Status = http.StatusOK
	resp.ContentType = ct
	resp.SetErrors()
	resp.Body = append(body, ']')
}

// batchLimits is what the operations of one HTTP batch share: the sum of
// the measures of those that ran, and what is left of the response budget.
type batchLimits struct {
	sum  limits.Result
	left int
}

// charge adds the measure a of the next operation to the batch's sum, or
// returns the error of the first limit of c the sum would exceed (a limit
// the operation alone exceeds is refused before, by c.Check). Counts add
// up; depths and list nesting are the largest of the operations'.
func (b *batchLimits) charge(c limits.Config, a limits.Result) *gqlerror.Error {
	s := b.sum
	s.Depth = max(s.Depth, a.Depth)
	s.Complexity = satAdd(s.Complexity, a.Complexity)
	s.Fields = satAdd(s.Fields, a.Fields)
	s.Aliases = satAdd(s.Aliases, a.Aliases)
	s.Directives = satAdd(s.Directives, a.Directives)
	s.IntrospectionDepth = max(s.IntrospectionDepth, a.IntrospectionDepth)
	s.IntrospectionLists = max(s.IntrospectionLists, a.IntrospectionLists)
	s.IntrospectionRoots = satAdd(s.IntrospectionRoots, a.IntrospectionRoots)
	s.IntrospectionFields = satAdd(s.IntrospectionFields, a.IntrospectionFields)
	if lerr := c.Check(s); lerr != nil {
		lerr.Message = "Batch" + strings.TrimPrefix(lerr.Message, "Query") + " (the sum over the batch's operations)"
		lerr.Extensions["batch"] = true
		return lerr
	}
	b.sum = s
	return nil
}

// satAdd is a+b for non-negative counts, saturating at math.MaxInt.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// runContained is run with a panic turned into the internal error of that
// operation alone.
func (r *Router) runContained(ctx context.Context, st *requestState, req *httpapi.Request, media string, resp *httpapi.Response) {
	defer r.containPanic(ctx, resp, httpapi.ContentType(media))
	r.run(ctx, st, req, media, resp)
}

// appendBatchItem appends one operation's response to a batch answer; an
// error answer ({"errors":[...]}, written without extensions) gets its
// status as extensions.status.
func appendBatchItem(buf []byte, one *httpapi.Response) []byte {
	b := one.Body
	if one.Status < http.StatusMultipleChoices || len(b) == 0 || b[len(b)-1] != '}' {
		return append(buf, b...)
	}
	buf = append(buf, b[:len(b)-1]...)
	buf = append(buf, `,"extensions":{"status":`...)
	buf = strconv.AppendInt(buf, int64(one.Status), 10)
	return append(buf, "}}"...)
}
