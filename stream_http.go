package graft

import (
	"net/http"

	"github.com/graftgql/graft/internal/bodylimit"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

// rawFromHTTP fills the pipeline's view of req, reading a POST body with
// the router's size limit.
func (r *Router) rawFromHTTP(req *http.Request) (*httpapi.RawRequest, *httpapi.Error) {
	raw := &httpapi.RawRequest{
		Method:      req.Method,
		Path:        req.URL.Path,
		RawQuery:    req.URL.RawQuery,
		ContentType: req.Header.Get("Content-Type"),
		Accept:      req.Header.Get("Accept"),
		Header:      req.Header.Get,
		Remote:      req.RemoteAddr,
	}
	if req.Method == http.MethodPost {
		body, tooLarge, err := bodylimit.ReadInto(nil, req.Body, req.ContentLength, r.cfg.MaxBodyBytes)
		switch {
		case tooLarge:
			return nil, httpapi.BodyTooLarge(r.cfg.MaxBodyBytes)
		case err != nil:
			return nil, &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest,
				"The request body could not be read")}
		}
		raw.Body = body
	}
	return raw, nil
}
