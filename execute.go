package graft

import (
	"context"
	"net/http"

	"github.com/graftgql/graft/internal/httpapi"
)

// Request is a GraphQL request run without HTTP by Router.Execute.
type Request struct {
	Query         string
	OperationName string
	Variables     map[string]any
	Extensions    map[string]any
	// Header, when set, is what Config.Auth (AuthRequest.Header), the
	// hooks and resolvers (RequestInfo.Header) read as the request's
	// headers.
	Header func(name string) string
}

// Execute runs req through the router's pipeline (Config.Auth, which sees
// req.Header, the hooks, persisted queries, document cache, limits,
// execution) without HTTP, as a POST would, and
// returns the HTTP status the request would get and the JSON response
// body. Variables hold JSON values: nil, bool, float64 or int64 numbers,
// string, []any and map[string]any.
//
// The body is the caller's: graft keeps no reference to it. It is an
// exact-size copy of the answer, written into a pooled buffer, so an
// operation seen for the first time does not grow a new buffer step by
// step; AppendExecute, given the previous body, saves the copy.
func (r *Router) Execute(ctx context.Context, req Request) (status int, body []byte) {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	status, out := r.AppendExecute(ctx, (*bp)[:0], req)
	body = append([]byte(nil), out...)
	if cap(out) <= maxPooledResponse {
		*bp = out[:0]
	}
	return status, body
}

// AppendExecute is Execute writing the response body into dst: it
// appends the body to dst and returns the extended slice, as
// strconv.AppendInt does. A caller that answers many requests, each
// consumed before the next, passes the previous body[:0] and so reuses
// one buffer instead of having a new one allocated, zeroed and later
// collected for every answer; for a large answer that is most of what
// Execute costs beyond the execution itself. graft keeps no reference
// to dst or to the returned slice.
func (r *Router) AppendExecute(ctx context.Context, dst []byte, req Request) (status int, body []byte) {
	hreq := httpapi.Request{Query: req.Query, OperationName: req.OperationName, Variables: req.Variables, Extensions: req.Extensions}
	header := req.Header
	if header == nil {
		header = noHeader
	}
	// The Auth hook sees what a POST would carry.
	raw := httpapi.RawRequest{Method: http.MethodPost, Path: r.cfg.Path, ContentType: httpapi.ContentTypeJSON,
		Accept: httpapi.MediaGraphQLResponse, Header: header}
	// The request's state and its response are one allocation. The
	// response body starts as the caller's free capacity after dst's
	// bytes (none for Execute): the engine grows it to the size of the
	// operation's last answer at once (further only for a larger answer),
	// and it goes to the caller as it is, with no pooled buffer and no
	// copy.
	st := r.newState()
	resp := &st.answer
	resp.Body = dst[len(dst):]
	r.runExecute(ctx, st, &raw, &hreq)
	st.mu.Lock()
	status, body = resp.Status, resp.Body
	resp.Body = nil // a resolver still holding the context reaches headers only
	st.mu.Unlock()
	if len(dst) == 0 {
		return status, body
	}
	if cap(body) > 0 && cap(dst) > len(dst) && &body[:1][0] == &dst[len(dst) : len(dst)+1][0] {
		return status, dst[:len(dst)+len(body)] // written in place after dst's bytes
	}
	return status, append(dst, body...) // the body outgrew dst
}

// runExecute admits and runs a request of Execute into st.answer, a
// panic anywhere becoming the generic internal error.
func (r *Router) runExecute(ctx context.Context, st *requestState, raw *httpapi.RawRequest, req *httpapi.Request) {
	resp := &st.answer
	ctx = r.enter(ctx, st, raw, resp)
	defer r.leave(st, resp)
	defer r.containPanic(ctx, resp, httpapi.ContentTypeGraphQLResponse)
	actx, e := r.admit(ctx, raw)
	if e != nil {
		r.fail(resp, httpapi.ContentTypeGraphQLResponse, e)
		return
	}
	r.run(actx, st, req, httpapi.MediaGraphQLResponse, resp)
}
