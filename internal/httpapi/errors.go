package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Stable extensions.code values of request errors.
const (
	CodeBadRequest            = "BAD_REQUEST"
	CodeParseFailed           = "GRAPHQL_PARSE_FAILED"
	CodeValidationFailed      = "GRAPHQL_VALIDATION_FAILED"
	CodeBadUserInput          = "BAD_USER_INPUT"
	CodeOperationResolution   = "OPERATION_RESOLUTION_FAILURE"
	CodeComplexityLimit       = "COMPLEXITY_LIMIT_EXCEEDED"
	CodeInternalServerError   = "INTERNAL_SERVER_ERROR"
	CodeUnauthenticated       = "UNAUTHENTICATED"
	CodeNotAcceptable         = "NOT_ACCEPTABLE"
	CodePayloadTooLarge       = "PAYLOAD_TOO_LARGE"
	CodeCSRFPreventionBlocked = "CSRF_PREVENTION_BLOCKED"
)

// Error is a request error with the HTTP status it answers with.
type Error struct {
	Status int
	Allow  string // the Allow header of a 405
	Err    *gqlerror.Error
}

// Error returns the GraphQL error's message.
func (e *Error) Error() string { return e.Err.Message }

// NewError returns a GraphQL error with the given extensions.code.
func NewError(code, message string) *gqlerror.Error {
	return &gqlerror.Error{Message: message, Extensions: map[string]any{"code": code}}
}

func badRequest(message string) *Error {
	return &Error{Status: http.StatusBadRequest, Err: NewError(CodeBadRequest, message)}
}

// maxEcho bounds how much of a client's input an error message repeats.
const maxEcho = 120

func truncate(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func quote(s string) string { return strconv.Quote(truncate(s)) }

// AppendErrors appends a response body {"errors":[...]} holding errs.
func AppendErrors(buf []byte, errs ...*gqlerror.Error) []byte {
	buf = append(buf, `{"errors":`...)
	b, err := json.Marshal(gqlerror.List(errs))
	if err != nil {
		b = []byte(`[{"message":"internal error","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]`)
	}
	buf = append(buf, b...)
	return append(buf, '}')
}

// BodyTooLarge is the 413 answer to a body over limit bytes.
func BodyTooLarge(limit int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Err: NewError(CodePayloadTooLarge,
		"The request body is larger than the limit of "+strconv.FormatInt(limit, 10)+" bytes")}
}
