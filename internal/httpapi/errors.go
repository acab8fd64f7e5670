package httpapi

import (
	"github.com/graftgql/graft/internal/clip"
	"net/http"
	"strconv"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Error is a request error with the HTTP status it answers with.
type Error struct {
	Status int
	// Header holds headers of the answer: Allow for a 405,
	// WWW-Authenticate for a 401, ...
	Header http.Header
	Err    *gqlerror.Error
	// Malformed marks a request that is JSON but not a well-formed
	// GraphQL-over-HTTP request (a parameter of the wrong type, no
	// query); its status depends on the status-code policy.
	Malformed bool
}

// Error returns the GraphQL error's message.
func (e *Error) Error() string { return e.Err.Message }

func badRequest(message string) *Error {
	return &Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest, message)}
}

// malformed is the error of a request that is not well-formed: 400 (the
// policy may choose another status).
func malformed(message string) *Error {
	e := badRequest(message)
	e.Malformed = true
	return e
}

// maxEcho bounds how much of a client's input an error message repeats.
const maxEcho = 120

func truncate(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	return clip.Prefix(s, maxEcho) + "…"
}

func quote(s string) string { return strconv.Quote(truncate(s)) }

// BodyTooLarge is the 413 answer to a body over limit bytes.
func BodyTooLarge(limit int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Err: gqlerr.New(gqlerr.PayloadTooLarge,
		"The request body is larger than the limit of "+strconv.FormatInt(limit, 10)+" bytes")}
}
