// Package gqlerr is graft's one vocabulary of GraphQL errors on the wire:
// the stable extensions.code values every part of graft uses (package graft
// exports them as graft.Code...), the generic message of internal errors,
// and the one encoder that writes errors in the response format.
package gqlerr

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/schemadef"
)

// Stable extensions.code values.
const (
	BadRequest            = "BAD_REQUEST"
	ParseFailed           = "GRAPHQL_PARSE_FAILED"
	ValidationFailed      = "GRAPHQL_VALIDATION_FAILED"
	BadUserInput          = "BAD_USER_INPUT"
	OperationResolution   = "OPERATION_RESOLUTION_FAILURE"
	OperationUnsupported  = "OPERATION_NOT_SUPPORTED"
	ComplexityLimit       = "COMPLEXITY_LIMIT_EXCEEDED"
	InternalServerError   = "INTERNAL_SERVER_ERROR"
	Unauthenticated       = "UNAUTHENTICATED"
	Forbidden             = "FORBIDDEN"
	NotAcceptable         = "NOT_ACCEPTABLE"
	PayloadTooLarge       = "PAYLOAD_TOO_LARGE"
	CSRFPreventionBlocked = "CSRF_PREVENTION_BLOCKED"
	RequestTimeout        = "REQUEST_TIMEOUT"
	RequestCancelled      = "REQUEST_CANCELLED"
	ResponseTooLarge      = "RESPONSE_TOO_LARGE"
	ServiceUnavailable    = "SERVICE_UNAVAILABLE"
	ServerBusy            = "SERVER_BUSY"
	TooManyConnections    = "TOO_MANY_CONNECTIONS"
	TooManySubscriptions  = "TOO_MANY_SUBSCRIPTIONS"
	ShuttingDown          = "SHUTTING_DOWN"
	MethodNotAllowed      = "METHOD_NOT_ALLOWED"

	UploadMalformed          = "UPLOAD_MALFORMED"
	UploadInvalidMapPath     = "UPLOAD_INVALID_MAP_PATH"
	UploadOperationsTooDeep  = "UPLOAD_OPERATIONS_TOO_DEEP"
	UploadOperationsTooLarge = "UPLOAD_OPERATIONS_TOO_LARGE"
	UploadFileTooLarge       = "UPLOAD_FILE_TOO_LARGE"
	UploadTooManyFiles       = "UPLOAD_TOO_MANY_FILES"
	UploadTooManyParts       = "UPLOAD_TOO_MANY_PARTS"
	UploadTooManyMapPaths    = "UPLOAD_TOO_MANY_MAP_PATHS"

	PersistedQueryNotFound            = "PERSISTED_QUERY_NOT_FOUND"
	PersistedQueryNotSupported        = "PERSISTED_QUERY_NOT_SUPPORTED"
	PersistedQueryNotAllowed          = "PERSISTED_QUERY_NOT_ALLOWED"
	PersistedQueryHashMismatch        = "PERSISTED_QUERY_HASH_MISMATCH"
	PersistedQueryVersionNotSupported = "PERSISTED_QUERY_VERSION_NOT_SUPPORTED"
	PersistedQueryStoreUnavailable    = "PERSISTED_QUERY_STORE_UNAVAILABLE"
)

// InternalMessage is the message of every internal error a client sees;
// the detail goes to the log.
const InternalMessage = "Internal server error"

// New returns a GraphQL error with the given extensions.code.
func New(code, message string) *gqlerror.Error {
	return &gqlerror.Error{Message: message, Extensions: map[string]any{"code": code}}
}

// Internal returns the generic internal error at path (nil for none).
func Internal(path ast.Path) *gqlerror.Error {
	return &gqlerror.Error{Message: InternalMessage, Path: path, Extensions: map[string]any{"code": InternalServerError}}
}

// WithCode sets extensions.code on e unless it has one, and returns e.
func WithCode(e *gqlerror.Error, code string) *gqlerror.Error {
	if e.Extensions == nil {
		e.Extensions = map[string]any{}
	}
	if _, ok := e.Extensions["code"]; !ok {
		e.Extensions["code"] = code
	}
	return e
}

// AppendResponse appends a response body that carries only errors:
// {"errors":[...]}, with "extensions" when extensions is not nil (it must
// then be a JSON object).
func AppendResponse(buf []byte, errs gqlerror.List, extensions []byte) []byte {
	buf = append(buf, `{"errors":`...)
	buf = AppendList(buf, errs)
	if extensions != nil {
		buf = append(buf, `,"extensions":`...)
		buf = append(buf, extensions...)
	}
	return append(buf, '}')
}

// AppendList appends errs as a JSON array in the response format.
func AppendList(buf []byte, errs []*gqlerror.Error) []byte {
	buf = append(buf, '[')
	for i, e := range errs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendError(buf, e)
	}
	return append(buf, ']')
}

// appendError appends one error: message, locations, path, extensions.
func appendError(buf []byte, e *gqlerror.Error) []byte {
	buf = append(buf, `{"message":`...)
	buf = schemadef.AppendJSONString(buf, e.Message)
	if len(e.Locations) > 0 {
		buf = append(buf, `,"locations":[`...)
		for i, l := range e.Locations {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"line":`...)
			buf = strconv.AppendInt(buf, int64(l.Line), 10)
			buf = append(buf, `,"column":`...)
			buf = strconv.AppendInt(buf, int64(l.Column), 10)
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	}
	if len(e.Path) > 0 {
		buf = append(buf, `,"path":[`...)
		for i, p := range e.Path {
			if i > 0 {
				buf = append(buf, ',')
			}
			switch v := p.(type) {
			case ast.PathIndex:
				buf = strconv.AppendInt(buf, int64(v), 10)
			case ast.PathName:
				buf = schemadef.AppendJSONString(buf, string(v))
			default:
				buf = schemadef.AppendJSONString(buf, fmt.Sprint(v))
			}
		}
		buf = append(buf, ']')
	}
	if len(e.Extensions) > 0 {
		ext, err := json.Marshal(e.Extensions)
		if err != nil {
			// An extension value JSON cannot hold: keep the code only.
			code, _ := e.Extensions["code"].(string)
			ext = schemadef.AppendJSONString([]byte(`{"code":`), code)
			ext = append(ext, '}')
		}
		buf = append(buf, `,"extensions":`...)
		buf = append(buf, ext...)
	}
	return append(buf, '}')
}
