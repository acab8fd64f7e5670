package graft

import (
	"context"
	"net/http"
	"strconv"

	"github.com/graftgql/graft/internal/httpapi"
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
func (r *Router) serveBatch(ctx context.Context, st *requestState, raw *httpapi.RawRequest, media string, resp *httpapi.Response) {
	ct := httpapi.ContentType(media)
	items, e := httpapi.DecodeBatch(raw, r.cfg.MaxBatch)
	if e != nil {
		r.fail(resp, ct, r.decodeFailed(e, media))
		return
	}
	// The operations are the answers the hooks see, not the batch.
	st.ph = nil
	body := append(resp.Body[:0], '[')
	var one httpapi.Response
	for i := range items {
		if i > 0 {
			body = append(body, ',')
		}
		one = httpapi.Response{Body: one.Body[:0]}
		ist := &requestState{}
		ist.info.RequestID, ist.info.BatchItem = st.info.RequestID, i+1
		ist.batch = true
		ictx := r.enter(ctx, ist, raw, &one)
		if it := &items[i]; it.Err != nil {
			r.fail(&one, ct, r.decodeFailed(it.Err, media))
		} else {
			r.runContained(ictx, ist, &it.Req, media, &one)
		}
		r.leave(ist, &one)
		body = appendBatchItem(body, &one)
	}
	resp.Status = http.StatusOK
	resp.ContentType = ct
	resp.SetErrors()
	resp.Body = append(body, ']')
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
