package httpapi

import "net/http"

// Policy is a status-code table: how the HTTP status of an answer is
// chosen from the kind of failure and the response media type.
type Policy uint8

// The status-code policies.
const (
	// PolicyApollo answers every request error with 400 whatever the
	// client accepts (as Apollo Server does) and every executed
	// operation with 200.
	PolicyApollo Policy = iota
	// PolicySpec follows the GraphQL-over-HTTP working draft (August
	// 2026): for application/graphql-response+json, 400 for unparsable
	// JSON or documents, 422 for a request that is not well-formed, a
	// validation failure, an undeterminable operation or a
	// variable-coercion failure, and 294 for a response with both data
	// and errors; for application/json, 200 for every well-formed request
	// and 400 otherwise.
	PolicySpec
	// PolicyLegacy is PolicyApollo except that parse, validation, operation
	// and variable errors answer 200 to clients that accept only
	// application/json, as the graphql-http audit's SHOULDs check.
	PolicyLegacy
)

// StatusPartialSuccess is 294 Partial Success, the status the
// GraphQL-over-HTTP draft recommends for a response with data and errors.
const StatusPartialSuccess = 294

// Failure is the kind of outcome a status is chosen for.
type Failure uint8

// The failures a policy distinguishes.
const (
	// Unparsable: the body or a parameter is not JSON.
	Unparsable Failure = iota
	// Malformed: JSON, but not a well-formed GraphQL-over-HTTP request
	// (a parameter of the wrong type, no query).
	Malformed
	// ParseFailed: the document does not parse.
	ParseFailed
	// Invalid: the document fails validation.
	Invalid
	// LimitExceeded: the operation is over a depth, complexity or other
	// limit of the server.
	LimitExceeded
	// NoOperation: the operation to run cannot be determined.
	NoOperation
	// BadVariables: the variables do not coerce.
	BadVariables
	// Partial: the operation ran and the response holds data and errors.
	Partial
)

// Status returns the HTTP status of failure f answered in media type
// media (MediaJSON or MediaGraphQLResponse).
func (p Policy) Status(f Failure, media string) int {
	switch p {
	case PolicySpec:
		if media == MediaJSON {
			if f == Unparsable || f == Malformed {
				return http.StatusBadRequest
			}
			return http.StatusOK
		}
		switch f {
		case Unparsable, ParseFailed:
			return http.StatusBadRequest
		case Partial:
			return StatusPartialSuccess
		}
		return http.StatusUnprocessableEntity
	case PolicyLegacy:
		switch f {
		case ParseFailed, Invalid, NoOperation, BadVariables:
			if media == MediaJSON {
				return http.StatusOK
			}
		}
	}
	if f == Partial {
		return http.StatusOK
	}
	return http.StatusBadRequest
}
