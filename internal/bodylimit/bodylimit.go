// Package bodylimit holds the request-body limit rule that every graft
// adapter applies before the pipeline sees a request: the effective limit
// of a router's configuration and the 413 response for a body over it.
package bodylimit

import (
	"fmt"
	"io"
	"net/http"

	"github.com/graftgql/graft/httpapi"
)

// Default is the limit used when the configuration leaves it at zero.
const Default int64 = 1 << 20

// Of returns the effective limit for a configured value: zero or negative
// means Default.
func Of(configured int64) int64 {
	if configured <= 0 {
		return Default
	}
	return configured
}

// Read reads r up to limit bytes. tooLarge reports a body longer than
// limit; the bytes read are then incomplete and must not be used.
func Read(r io.Reader, limit int64) (body []byte, tooLarge bool, err error) {
	if r == nil {
		return nil, false, nil
	}
	body, err = io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(body)) > limit {
		return nil, true, nil
	}
	return body, false, nil
}

// TooLarge returns the 413 response for a body over limit, with a
// GraphQL-shaped error body coded PAYLOAD_TOO_LARGE.
func TooLarge(limit int64) *httpapi.Response {
	e := httpapi.NewError(httpapi.CodePayloadTooLarge,
		fmt.Sprintf("The request body is larger than the limit of %d bytes", limit))
	return &httpapi.Response{
		Status:      http.StatusRequestEntityTooLarge,
		ContentType: httpapi.ContentTypeJSON,
		Body:        httpapi.AppendErrors(nil, e),
	}
}
