package graft

import (
	"net/http"
	"strconv"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

// policy returns the status-code table of Config.StatusCodes.
func (c *Config) policy() httpapi.Policy {
	switch c.StatusCodes {
	case StatusCodesSpec:
		return httpapi.PolicySpec
	case StatusCodesLegacy:
		return httpapi.PolicyLegacy
	}
	return httpapi.PolicyApollo
}

// status returns the HTTP status of failure f answered in media.
func (r *Router) status(f httpapi.Failure, media string) int {
	return r.policy.Status(f, media)
}

// documentFailure tells a document that does not parse from one that
// does not validate, by the code of its first error.
func documentFailure(errs gqlerror.List) httpapi.Failure {
	if len(errs) > 0 && errs[0].Extensions["code"] == gqlerr.ParseFailed {
		return httpapi.ParseFailed
	}
	return httpapi.Invalid
}

// decodeFailed sets the policy's status on a request that is not
// well-formed.
func (r *Router) decodeFailed(e *httpapi.Error, media string) *httpapi.Error {
	if e.Malformed {
		e.Status = r.status(httpapi.Malformed, media)
	}
	return e
}

// uriTooLong is the 414 answer to a GET whose query string is longer than
// MaxBodyBytes: the same bound as a POST body.
func (r *Router) uriTooLong(raw *httpapi.RawRequest) *httpapi.Error {
	if raw.Method != http.MethodGet || int64(len(raw.RawQuery)) <= r.cfg.MaxBodyBytes {
		return nil
	}
	return &httpapi.Error{Status: http.StatusRequestURITooLong, Err: gqlerr.New(gqlerr.BadRequest,
		"The query string is longer than the limit of "+strconv.FormatInt(r.cfg.MaxBodyBytes, 10)+" bytes: send the request as a POST")}
}
