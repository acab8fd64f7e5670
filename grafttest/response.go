package grafttest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Response is a router's answer to one request.
type Response struct {
	// Status is the HTTP status code.
	Status int
	// Header holds the response headers.
	Header http.Header
	// Body is the response body as sent.
	Body []byte
	// Data is the raw "data" member: null or absent when no operation ran.
	Data json.RawMessage
	// Errors are the response's errors, in order.
	Errors []Error
	// Extensions is the response's "extensions" member, if any.
	Extensions map[string]any
}

// Error is one GraphQL error of a response.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path,omitempty"`
	Locations  []Location     `json:"locations,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// Location is a line and column of the query an error points at.
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Code returns extensions.code, or "" when the error has none.
func (e Error) Code() string {
	code, _ := e.Extensions["code"].(string)
	return code
}

func newResponse(t testing.TB, status int, header http.Header, body []byte) *Response {
	t.Helper()
	r := &Response{Status: status, Header: header, Body: body}
	if status == http.StatusNotFound && !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		return r // not the GraphQL endpoint
	}
	var v struct {
		Data       json.RawMessage `json:"data"`
		Errors     []Error         `json:"errors"`
		Extensions map[string]any  `json:"extensions"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("grafttest: status %d, body is not a GraphQL response: %v\n%s", status, err, body)
	}
	r.Data, r.Errors, r.Extensions = v.Data, v.Errors, v.Extensions
	return r
}

// Decode decodes Data into v, failing t when the answer has no data or
// does not fit v.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if len(r.Data) == 0 || string(r.Data) == "null" {
		t.Fatalf("grafttest: no data (status %d): %s", r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("grafttest: decode data into %T: %v\n%s", v, err, r.Data)
	}
}

// NoErrors fails t unless the answer is 200 without errors.
func (r *Response) NoErrors(t testing.TB) {
	t.Helper()
	if r.Status != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("grafttest: want 200 without errors, got %d: %s", r.Status, r.Body)
	}
}

// ErrorWithCode returns the first error whose extensions.code is code,
// failing t when the answer has none (whatever its status; WantError
// checks the status too).
func (r *Response) ErrorWithCode(t testing.TB, code string) *Error {
	t.Helper()
	e := r.errorWithCode(code)
	if e == nil {
		t.Fatalf("grafttest: want an error of code %s, got %d: %s", code, r.Status, r.Body)
	}
	return e
}

// HasErrorCode reports whether the answer has an error whose
// extensions.code is code.
func (r *Response) HasErrorCode(code string) bool { return r.errorWithCode(code) != nil }

func (r *Response) errorWithCode(code string) *Error {
	for i := range r.Errors {
		if r.Errors[i].Code() == code {
			return &r.Errors[i]
		}
	}
	return nil
}

// WantError fails t unless the answer has status and an error with code,
// and returns that error.
func (r *Response) WantError(t testing.TB, status int, code string) *Error {
	t.Helper()
	e := r.errorWithCode(code)
	if r.Status != status || e == nil {
		t.Fatalf("grafttest: want %d with an error of code %s, got %d: %s", status, code, r.Status, r.Body)
	}
	return e
}

// String returns the status and body, for failure messages.
func (r *Response) String() string {
	var b strings.Builder
	b.WriteString(http.StatusText(r.Status))
	b.WriteString(": ")
	b.Write(r.Body)
	return b.String()
}
