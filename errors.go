package graft

import (
	"context"
	"maps"
	"net/http"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/gqlerr"
)

// The stable extensions.code values graft answers with. Clients may match
// them; they never change. A resolver may use any code of its own too.
const (
	CodeBadRequest            = gqlerr.BadRequest            // the request is not a GraphQL request
	CodeParseFailed           = gqlerr.ParseFailed           // GraphQL syntax error
	CodeValidationFailed      = gqlerr.ValidationFailed      // the document does not validate
	CodeBadUserInput          = gqlerr.BadUserInput          // bad variables or arguments
	CodeOperationResolution   = gqlerr.OperationResolution   // unknown or missing operationName
	CodeOperationUnsupported  = gqlerr.OperationUnsupported  // e.g. a subscription over POST
	CodeComplexityLimit       = gqlerr.ComplexityLimit       // a limit of Config.Complexity exceeded
	CodeInternalServerError   = gqlerr.InternalServerError   // an unexpected failure; details in the log
	CodeUnauthenticated       = gqlerr.Unauthenticated       // the Auth hook refused the request
	CodeForbidden             = gqlerr.Forbidden             // for resolvers that refuse an authenticated user
	CodeNotAcceptable         = gqlerr.NotAcceptable         // the Accept header allows no GraphQL media type
	CodePayloadTooLarge       = gqlerr.PayloadTooLarge       // the body is over Config.MaxBodyBytes
	CodeCSRFPreventionBlocked = gqlerr.CSRFPreventionBlocked // refused by Config.CSRF
	CodeRequestTimeout        = gqlerr.RequestTimeout        // Config.Timeout passed
	CodeRequestCancelled      = gqlerr.RequestCancelled      // the client went away
	CodeResponseTooLarge      = gqlerr.ResponseTooLarge      // Config.MaxResponseBytes passed
	CodeServiceUnavailable    = gqlerr.ServiceUnavailable    // the layer's services could not start
	CodeServerBusy            = gqlerr.ServerBusy            // too many requests in flight or large answers waiting (503, Retry-After)
	CodeMethodNotAllowed      = gqlerr.MethodNotAllowed      // e.g. a persisted mutation over GET
	CodeTooManyConnections    = gqlerr.TooManyConnections    // SubscriptionConfig.MaxConnections reached
	CodeTooManySubscriptions  = gqlerr.TooManySubscriptions  // a subscription bound of SubscriptionConfig reached
	CodeShuttingDown          = gqlerr.ShuttingDown          // the server is shutting down; reconnect elsewhere

	CodePersistedQueryNotFound            = gqlerr.PersistedQueryNotFound
	CodePersistedQueryNotSupported        = gqlerr.PersistedQueryNotSupported
	CodePersistedQueryNotAllowed          = gqlerr.PersistedQueryNotAllowed
	CodePersistedQueryHashMismatch        = gqlerr.PersistedQueryHashMismatch
	CodePersistedQueryVersionNotSupported = gqlerr.PersistedQueryVersionNotSupported
	CodePersistedQueryStoreUnavailable    = gqlerr.PersistedQueryStoreUnavailable

	// The refusals of a multipart upload (UploadConfig); its body over
	// UploadConfig.MaxBytes is CodePayloadTooLarge.
	CodeUploadMalformed          = gqlerr.UploadMalformed          // 400: not a multipart request of the specification
	CodeUploadInvalidMapPath     = gqlerr.UploadInvalidMapPath     // 400: a map path names no null placeholder of the variables
	CodeUploadOperationsTooDeep  = gqlerr.UploadOperationsTooDeep  // 400: operations nested past MaxOperationsDepth
	CodeUploadOperationsTooLarge = gqlerr.UploadOperationsTooLarge // 413: operations or map over MaxOperationsBytes
	CodeUploadFileTooLarge       = gqlerr.UploadFileTooLarge       // 413: a file over MaxFileBytes
	CodeUploadTooManyFiles       = gqlerr.UploadTooManyFiles       // 413: more files than MaxFiles
	CodeUploadTooManyParts       = gqlerr.UploadTooManyParts       // 413: more parts than MaxParts
	CodeUploadTooManyMapPaths    = gqlerr.UploadTooManyMapPaths    // 413: more map paths than MaxMapPaths
)

// Error is an error a resolver returns to tell the client something: its
// Message is shown as is, with extensions.code set to Code and the
// entries of Details beside it, even when Config.MaskErrors is on. Err, the cause,
// is for the server's logs and errors.Is/As; it is never sent.
//
// This is the contract for what resolvers return: an error that is, or
// wraps, a *graft.Error, a *gqlerror.Error, or any error with an
// Extensions() map[string]any method keeps its message and extensions.
// Any other error is the resolver's failure: its text is sent as the
// message, or, with MaskErrors, replaced by "Internal server error" and
// logged.
type Error struct {
	Message string
	Code    string
	Details map[string]any
	Err     error
}

// NewError returns an *Error with the given code and message.
func NewError(code, message string) *Error {
	return &Error{Message: message, Code: code}
}

// WrapError returns an *Error with the given code and message whose
// cause is err.
func WrapError(err error, code, message string) *Error {
	return &Error{Message: message, Code: code, Err: err}
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Extensions returns the error's extensions: Details with "code" set to
// Code (when not empty).
func (e *Error) Extensions() map[string]any {
	if e.Code == "" {
		return e.Details
	}
	ext := make(map[string]any, len(e.Details)+1)
	maps.Copy(ext, e.Details)
	ext["code"] = e.Code
	return ext
}

// AddError reports err as an error of the field whose resolver received
// ctx, without ending the resolver: a field may report several errors
// this way and still return a value (or return an error of its own as
// well). err follows the same rules as a returned error (see Error). It
// reports false, and does nothing, when ctx is not a resolver's context.
func AddError(ctx context.Context, err error) bool {
	return exec.AddError(ctx, err)
}

// AuthError is an error the Config.Auth hook returns to choose the
// WWW-Authenticate challenge of the 401 it answers (RFC 9110 requires
// one). Any other error answers 401 with the challenge "Bearer".
type AuthError struct {
	// Challenge is the WWW-Authenticate header value, such as
	// `Bearer realm="api", error="invalid_token"`.
	Challenge string
	// Err is the error whose message the client sees.
	Err error
}

// Error returns Err's message.
func (e *AuthError) Error() string {
	if e.Err == nil {
		return "Unauthenticated"
	}
	return e.Err.Error()
}

// Unwrap returns Err.
func (e *AuthError) Unwrap() error { return e.Err }

// Refusal is an error a Hook's Before returns to refuse a request with an
// HTTP status and headers of its choosing: a rate limiter answers 429
// with Retry-After, a hook guarding a dependency 503. The answer keeps the
// headers already set (X-Request-ID, CORS, cookies) beside Header.
// Transports without a status of their own (a WebSocket operation, a
// subscription's event) carry the error alone.
type Refusal struct {
	// Status is the answer's HTTP status, a 4xx or 5xx; any other value
	// answers 400.
	Status int
	// Header holds headers the answer carries, such as Retry-After.
	Header http.Header
	// Err is the GraphQL error the client gets: its message, code and
	// details. Nil answers the status text with a code made of it
	// ("TOO_MANY_REQUESTS" for 429).
	Err *Error
}

// Error returns Err's message, or the status text.
func (r *Refusal) Error() string {
	if r.Err != nil {
		return r.Err.Message
	}
	return http.StatusText(r.Status)
}

// Unwrap returns Err.
func (r *Refusal) Unwrap() error {
	if r.Err == nil {
		return nil
	}
	return r.Err
}
