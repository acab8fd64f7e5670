package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// BatchItem is one operation of a batch: its decoded request, or the error
// that refuses it alone.
type BatchItem struct {
	Req Request
	Err *Error
}

// IsBatch reports whether raw is a POST whose body is a JSON array: a
// batch of requests.
func IsBatch(raw *RawRequest) bool {
	if raw.Method != http.MethodPost {
		return false
	}
	for _, c := range raw.Body {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c == '['
	}
	return false
}

// DecodeBatch decodes a batch, a POST body holding a JSON array of
// request objects, of at most max operations (0: batching is off). An
// error refusing the whole batch (batching off, wrong Content-Type, not a
// JSON array, empty, over max) is returned as *Error; an operation that
// does not decode gets its own error in its BatchItem, and the others
// still run.
func DecodeBatch(raw *RawRequest, max int) ([]BatchItem, *Error) {
	if max <= 0 {
		return nil, badRequest("Batched requests (a JSON array) are not enabled on this server: send one JSON object")
	}
	if err := checkContentType(raw.ContentType); err != nil {
		return nil, err
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw.Body, &elems); err != nil {
		return nil, badRequest("The request body is not a valid JSON array: " + truncate(err.Error()))
	}
	switch {
	case len(elems) == 0:
		return nil, malformed("The batch is empty: send at least one request object")
	case len(elems) > max:
		return nil, badRequest("The batch holds " + strconv.Itoa(len(elems)) + " operations, more than the limit of " + strconv.Itoa(max))
	}
	items := make([]BatchItem, len(elems))
	for i, e := range elems {
		items[i].Req, items[i].Err = decodePost(e, nil, raw.Texts)
		if items[i].Err == nil && raw.Attach != nil {
			items[i].Err = raw.Attach(i, items[i].Req.Variables)
		}
	}
	return items, nil
}
