package httpapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/pqattach"
)

// Request is a decoded GraphQL-over-HTTP request.
type Request struct {
	// Query is the query text. Decoded from a POST body, it may share
	// memory with RawRequest.Body or RawRequest.Scratch, so it is valid
	// only while they are unchanged: whoever keeps it beyond the request
	// (a cache key, a stored persisted query) keeps a copy
	// (strings.Clone).
	Query string
	// QuerySlot, when not nil, is the slot of Query's entry in the
	// RawRequest's QueryTexts: the router may attach the query's prepared
	// document to it and find it there for the next request.
	QuerySlot *pqattach.Slot
	// DocumentID names a persisted document instead of Query (the
	// GraphQL-over-HTTP persisted-documents proposal).
	DocumentID    string
	OperationName string
	Variables     map[string]any
	Extensions    map[string]any
	// IsGet is set for GET requests, which may only run queries.
	IsGet bool
	// PersistedQuery holds extensions.persistedQuery, and
	// HasPersistedQuery is set, when the extensions held nothing else and
	// had the usual shape; Extensions is then nil. Other extensions are
	// left in Extensions as decoded. Like Query, its hashes may share
	// memory with RawRequest.Body: whoever keeps one beyond the request
	// keeps a copy.
	PersistedQuery    PersistedQueryExtension
	HasPersistedQuery bool
}

// PersistedQueryExtension is extensions.persistedQuery in the usual shape
// of Apollo's protocol: a version and the query's hash as sent.
type PersistedQueryExtension struct {
	Version    int64
	SHA256Hash string
	SHA512Hash string
	// LowerHex is set when SHA256Hash is known to be 64 lowercase hex
	// digits (the decoder checked it), so it needs no normalising.
	LowerHex bool
}

// Decode reads a GraphQL request from a GET query string or a POST body.
// A request the wire contract refuses gives an *Error carrying its HTTP
// status: 405 for other methods, 415 for a body that is not JSON in
// UTF-8, 400 (BAD_REQUEST) for malformed parameters.
func Decode(raw *RawRequest) (Request, *Error) {
	switch raw.Method {
	case http.MethodGet:
		return decodeGet(raw.RawQuery)
	case http.MethodPost:
		if err := checkContentType(raw.ContentType); err != nil {
			return Request{}, err
		}
		req, e := decodePost(raw.Body, raw.Scratch, raw.Texts)
		if e == nil && raw.Attach != nil {
			e = raw.Attach(-1, req.Variables)
		}
		return req, e
	}
	return Request{}, &Error{
		Status: http.StatusMethodNotAllowed,
		Header: http.Header{"Allow": {"GET, POST"}},
		Err:    gqlerr.New(gqlerr.BadRequest, "Method "+raw.Method+" is not allowed: use GET or POST"),
	}
}

func checkContentType(ct string) *Error {
	if ct == "" {
		return &Error{Status: http.StatusUnsupportedMediaType, Err: gqlerr.New(gqlerr.BadRequest,
			"Missing Content-Type header: send application/json")}
	}
	// Fast path for the common exact values.
	if ct == "application/json" || ct == "application/json; charset=utf-8" || ct == "application/json;charset=utf-8" {
		return nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return &Error{Status: http.StatusUnsupportedMediaType, Err: gqlerr.New(gqlerr.BadRequest,
			"Unsupported Content-Type "+quote(ct)+": send application/json")}
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return &Error{Status: http.StatusUnsupportedMediaType, Err: gqlerr.New(gqlerr.BadRequest,
			"Unsupported charset "+quote(cs)+": send UTF-8")}
	}
	return nil
}

// postBody mirrors the JSON body of a POST request. Each parameter is
// decoded lazily so that a wrong type gets a precise message.
type postBody struct {
	Query         json.RawMessage `json:"query"`
	DocumentID    json.RawMessage `json:"documentId"`
	OperationName json.RawMessage `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
	Extensions    json.RawMessage `json:"extensions"`
}

func decodePost(body, scratch []byte, texts *QueryTexts) (Request, *Error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return Request{}, badRequest("The request body is empty: send a JSON object with a query")
	}
	if body[0] != '{' {
		if json.Valid(body) {
			return Request{}, malformed("The request body must be a JSON object")
		}
		return Request{}, badRequest("The request body must be a JSON object")
	}
	if req, ok := decodePostFast(body, scratch, texts); ok {
		return req, nil
	}
	return decodePostGeneral(body)
}

// decodePostGeneral decodes any POST body with encoding/json and words
// the error of a malformed one.
func decodePostGeneral(body []byte) (Request, *Error) {
	var pb postBody
	if err := json.Unmarshal(body, &pb); err != nil {
		return Request{}, badRequest("The request body is not valid JSON: " + truncate(err.Error()))
	}
	var req Request
	if e := stringParam("query", pb.Query, &req.Query); e != nil {
		return req, e
	}
	if e := stringParam("documentId", pb.DocumentID, &req.DocumentID); e != nil {
		return req, e
	}
	if e := stringParam("operationName", pb.OperationName, &req.OperationName); e != nil {
		return req, e
	}
	if e := objectParam("variables", pb.Variables, &req.Variables); e != nil {
		return req, e
	}
	if e := objectParam("extensions", pb.Extensions, &req.Extensions); e != nil {
		return req, e
	}
	return req, nil
}

func decodeGet(rawQuery string) (Request, *Error) {
	req := Request{IsGet: true}
	values, err := url.ParseQuery(rawQuery)
	if err != nil {
		return req, badRequest("The query string is malformed: " + truncate(err.Error()))
	}
	req.Query = values.Get("query")
	req.DocumentID = values.Get("documentId")
	req.OperationName = values.Get("operationName")
	if v := values.Get("variables"); v != "" {
		if e := objectParam("variables", json.RawMessage(v), &req.Variables); e != nil {
			return req, e
		}
	}
	if v := values.Get("extensions"); v != "" {
		if e := objectParam("extensions", json.RawMessage(v), &req.Extensions); e != nil {
			return req, e
		}
	}
	return req, nil
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

func stringParam(name string, raw json.RawMessage, dst *string) *Error {
	if isNull(raw) {
		return nil
	}
	if raw[0] != '"' {
		return malformed("The " + name + " parameter must be a string")
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return malformed("The " + name + " parameter is not a valid JSON string")
	}
	return nil
}

func objectParam(name string, raw json.RawMessage, dst *map[string]any) *Error {
	raw = bytes.TrimSpace(raw)
	if isNull(raw) {
		return nil
	}
	if raw[0] != '{' {
		return malformed("The " + name + " parameter must be a JSON object")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return malformed("The " + name + " parameter is not valid JSON: " + truncate(err.Error()))
	}
	if d.More() {
		return malformed("The " + name + " parameter has trailing data after the JSON object")
	}
	*dst = normalizeNumbers(m).(map[string]any)
	return nil
}

// normalizeNumbers turns json.Number values into int64 when they are
// integers that fit and float64 when they have a fraction or exponent; an
// integer beyond int64 or a number out of float64's range stays a
// json.Number, exact, and no coercion mistakes it for a string.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil && !isIntegerText(x.String()) {
			return f
		}
		return x // a large integer or out of float64's range: kept exact, never a string
	}
	return v
}
