// Package bodylimit holds the request-body limit rule that every graft
// adapter applies before the pipeline sees a request: reading a body up to
// the router's MaxBodyBytes (Config fills in its default) and the 413
// response for a body over it.
package bodylimit

import (
	"io"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/httpapi"
)

// Read reads r up to limit bytes. tooLarge reports a body longer than
// limit; the bytes read are then incomplete and must not be used.
func Read(r io.Reader, limit int64) (body []byte, tooLarge bool, err error) {
	body, tooLarge, err = ReadInto(nil, r, -1, limit)
	if tooLarge || err != nil {
		return nil, tooLarge, err
	}
	return body, false, nil
}

// ReadInto is Read appending to buf, for callers that pool buffers.
// contentLength, when not negative, is the length the request announced:
// one over the limit is refused before anything is read, and buf grows to
// it at once.
func ReadInto(buf []byte, r io.Reader, contentLength, limit int64) (body []byte, tooLarge bool, err error) {
	if contentLength > limit {
		return buf, true, nil
	}
	if r == nil {
		return buf, false, nil
	}
	if contentLength > 0 && int64(cap(buf)-len(buf)) < contentLength {
		buf = append(make([]byte, 0, int64(len(buf))+contentLength), buf...)
	}
	lr := io.LimitedReader{R: r, N: limit + 1}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return buf, true, nil
		}
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
	}
}

// TooLarge returns the 413 response for a body over limit, with a
// GraphQL-shaped error body coded PAYLOAD_TOO_LARGE.
func TooLarge(limit int64) *httpapi.Response {
	e := httpapi.BodyTooLarge(limit)
	return &httpapi.Response{
		Status:      e.Status,
		ContentType: httpapi.ContentTypeJSON,
		Body:        gqlerr.AppendResponse(nil, gqlerror.List{e.Err}, nil),
	}
}
