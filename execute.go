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
	// Header, when set, is what RequestInfo.Header returns to resolvers.
	Header func(name string) string
}

// Execute runs req through the router's pipeline (persisted queries,
// document cache, limits, execution) without HTTP, as a POST would, and
// returns the HTTP status the request would get and the JSON response
// body. Variables hold JSON values: nil, bool, float64 or int64 numbers,
// string, []any and map[string]any.
func (r *Router) Execute(ctx context.Context, req Request) (status int, body []byte) {
	hreq := httpapi.Request{Query: req.Query, OperationName: req.OperationName, Variables: req.Variables, Extensions: req.Extensions}
	header := req.Header
	if header == nil {
		header = noHeader
	}
	// The Auth hook sees what a POST would carry.
	raw := httpapi.RawRequest{Method: http.MethodPost, Path: r.cfg.Path, ContentType: httpapi.ContentTypeJSON,
		Accept: httpapi.MediaGraphQLResponse, Header: header}
	// Execute into a pooled buffer and hand back an exact-size copy, so a
	// large response is not regrown on every call.
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	resp := httpapi.Response{Body: (*bp)[:0]}
	func() {
		defer r.containPanic(ctx, &resp, httpapi.ContentTypeGraphQLResponse)
		st := &requestState{layer: r.layer, info: RequestInfo{Header: header}}
		actx, e := r.admit(ctx, &raw, st)
		if e != nil {
			r.fail(&resp, httpapi.ContentTypeGraphQLResponse, e)
			return
		}
		r.run(actx, st, &hreq, httpapi.MediaGraphQLResponse, &resp)
	}()
	body = append([]byte(nil), resp.Body...)
	if cap(resp.Body) <= maxPooledResponse {
		*bp = resp.Body[:0]
	}
	return resp.Status, body
}
