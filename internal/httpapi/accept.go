package httpapi

import (
	"strings"
)

// Response media types.
const (
	MediaGraphQLResponse = "application/graphql-response+json"
	MediaJSON            = "application/json"
	// ContentTypeGraphQLResponse and ContentTypeJSON are the Content-Type
	// header values sent with each media type.
	ContentTypeGraphQLResponse = MediaGraphQLResponse + "; charset=utf-8"
	ContentTypeJSON            = MediaJSON + "; charset=utf-8"
)

// Negotiate chooses the response media type from an Accept header:
// application/graphql-response+json when the client names it, else
// application/json, which is also the answer to a missing Accept header
// and to wildcards (*/*, application/*) because legacy clients that send
// those expect it (GraphQL-over-HTTP, "Legacy Watershed"). ok is false
// when the client accepts neither, which answers 406.
func Negotiate(accept string) (mediaType string, ok bool) {
	switch accept {
	case MediaGraphQLResponse, "application/graphql-response+json, application/json",
		"application/graphql-response+json; charset=utf-8, application/json; charset=utf-8":
		return MediaGraphQLResponse, true
	case "", "*/*", MediaJSON, "application/json; charset=utf-8":
		return MediaJSON, true
	}
	var bestType string
	bestQ := -1.0
	for part := range strings.SplitSeq(accept, ",") {
		mt, q, charsetOK := parseAcceptPart(part)
		if q <= 0 || !charsetOK {
			continue
		}
		var candidate string
		switch mt {
		case MediaGraphQLResponse:
			candidate = MediaGraphQLResponse
		case MediaJSON, "*/*", "application/*":
			candidate = MediaJSON
		default:
			continue
		}
		// Prefer the higher quality; on a tie prefer graphql-response+json.
		if q > bestQ || (q == bestQ && candidate == MediaGraphQLResponse) {
			bestType, bestQ = candidate, q
		}
	}
	if bestType == "" {
		return "", false
	}
	return bestType, true
}

func parseAcceptPart(part string) (mediaType string, q float64, charsetOK bool) {
	q, charsetOK = 1, true
	params := strings.Split(part, ";")
	mediaType = strings.ToLower(strings.TrimSpace(params[0]))
	for _, p := range params[1:] {
		k, v, _ := strings.Cut(p, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.Trim(strings.TrimSpace(v), `"`)
		switch k {
		case "q":
			q = parseQ(v)
		case "charset":
			charsetOK = strings.EqualFold(v, "utf-8") || strings.EqualFold(v, "utf8")
		}
	}
	return mediaType, q, charsetOK
}

// parseQ reads a quality value (0 to 1, at most three decimals); anything
// malformed counts as 0.
func parseQ(v string) float64 {
	if v == "" || len(v) > 5 {
		return 0
	}
	var q float64
	var scale float64
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '.' && scale == 0:
			scale = 0.1
		case c >= '0' && c <= '9':
			if scale == 0 {
				q = q*10 + float64(c-'0')
			} else {
				q += float64(c-'0') * scale
				scale /= 10
			}
		default:
			return 0
		}
	}
	if q > 1 {
		return 0
	}
	return q
}

// ContentType returns the Content-Type header value for a media type
// chosen by Negotiate.
func ContentType(mediaType string) string {
	if mediaType == MediaJSON {
		return ContentTypeJSON
	}
	return ContentTypeGraphQLResponse
}
