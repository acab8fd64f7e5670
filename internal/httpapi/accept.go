package httpapi

import (
	"strings"
)

// Response media types.
const (
	MediaGraphQLResponse = "application/graphql-response+json"
	MediaJSON            = "application/json"
	MediaEventStream     = "text/event-stream"
	MediaMultipart       = "multipart/mixed"
	// ContentTypeGraphQLResponse and ContentTypeJSON are the Content-Type
	// header values sent with each media type.
	ContentTypeGraphQLResponse = MediaGraphQLResponse + "; charset=utf-8"
	ContentTypeJSON            = MediaJSON + "; charset=utf-8"
)

// Format is one form a GraphQL answer takes on the wire; a set of them
// (ORed) is what graft can produce for one operation.
type Format uint8

const (
	// FormatGraphQLResponse is one result as
	// application/graphql-response+json.
	FormatGraphQLResponse Format = 1 << iota
	// FormatJSON is one result as application/json.
	FormatJSON
	// FormatEventStream is text/event-stream: graphql-sse's distinct
	// connections mode, one next event per result.
	FormatEventStream
	// FormatMultipartSubscription is multipart/mixed with
	// subscriptionSpec=1.0: Apollo's multipart subscriptions.
	FormatMultipartSubscription
)

// Single is the formats of one result; Streams those that carry a
// sequence of results.
const (
	Single  = FormatGraphQLResponse | FormatJSON
	Streams = FormatEventStream | FormatMultipartSubscription
)

// formats lists every format in the order that breaks the last ties.
var formats = [...]Format{FormatGraphQLResponse, FormatJSON, FormatEventStream, FormatMultipartSubscription}

// Choose picks the format of the answer to one operation from its Accept
// header, as RFC 9110 (section 12.5.1) asks: can is what graft can
// produce for this operation, and among those formats the client's
// quality values decide, then the specificity of the media range that
// names the format, then the client's order. A media range whose q is 0
// refuses a format even when a wider range allows it.
//
// streams says whether the operation streams (a subscription, or an
// operation with @defer or @stream). When it does not, the formats of
// Single win whenever the client accepts one of them: a query or mutation
// is a single JSON response, and a stream (a stream of one result) only
// for a client that accepts nothing else. When it does, every format of
// can competes on the client's preference.
//
// A missing Accept header accepts application/json. Wildcards (*/*,
// application/*) stand for application/json only, as GraphQL over HTTP's
// legacy watershed says of the clients that send them: a stream is
// chosen only when the client names its media type. A range with a
// charset other than UTF-8 matches nothing. ok is false when the client
// accepts none of can: the answer is 406.
func Choose(accept string, can Format, streams bool) (Format, bool) {
	if !streams && can&Single != 0 {
		if f, ok := choose(accept, can&Single); ok {
			return f, true
		}
		can &^= Single
	}
	return choose(accept, can)
}

// match is the media range of an Accept header that decides one format.
type match struct {
	q       float64
	spec    int // 0 */*, 1 type/*, 2 type/subtype, 3 with the format's parameter
	pos     int // the range's position in the header
	matched bool
}

// better reports whether m decides for its format over o.
func (m match) better(o match) bool {
	switch {
	case !o.matched:
		return true
	case m.q != o.q:
		return m.q > o.q
	case m.spec != o.spec:
		return m.spec > o.spec
	}
	return m.pos < o.pos
}

func choose(accept string, can Format) (Format, bool) {
	if can == 0 {
		return 0, false
	}
	// The headers the usual clients send, answered without parsing.
	if can&Single == Single {
		switch accept {
		case MediaGraphQLResponse, "application/graphql-response+json, application/json",
			"application/graphql-response+json,application/json;q=0.9",
			"application/graphql-response+json; charset=utf-8, application/json; charset=utf-8":
			return FormatGraphQLResponse, true
		case "", "*/*", MediaJSON, "application/json; charset=utf-8":
			return FormatJSON, true
		}
	}
	if strings.TrimSpace(accept) == "" {
		if can&FormatJSON != 0 {
			return FormatJSON, true
		}
		return 0, false
	}
	// The range that decides each format: the most specific one that
	// matches it (RFC 9110: more specific ranges override less specific
	// ones).
	var decided [len(formats)]match
	pos := 0
	for part := range strings.SplitSeq(accept, ",") {
		mt, params := splitRange(part)
		if mt == "" {
			continue
		}
		for i, f := range formats {
			if can&f == 0 {
				continue
			}
			spec, q, ok := rangeMatches(f, mt, params)
			if !ok {
				continue
			}
			d := &decided[i]
			if !d.matched || spec > d.spec {
				*d = match{q: q, spec: spec, pos: pos, matched: true}
			}
		}
		pos++
	}
	best, bestAt := Format(0), match{}
	for i, f := range formats {
		d := decided[i]
		if !d.matched || d.q <= 0 {
			continue
		}
		if best == 0 || d.better(bestAt) {
			best, bestAt = f, d
		}
	}
	return best, best != 0
}

// splitRange splits one media range of an Accept header into its media
// type, lowercased, and its parameters.
func splitRange(part string) (mediaType, params string) {
	mt, params, _ := strings.Cut(part, ";")
	return strings.ToLower(strings.TrimSpace(mt)), params
}

// rangeMatches reports whether the media range mt (with params) matches
// format f, how specifically, and with which quality.
func rangeMatches(f Format, mt, params string) (spec int, q float64, ok bool) {
	q, charsetOK, subSpec := parseParams(params)
	if !charsetOK {
		return 0, 0, false
	}
	switch f {
	case FormatGraphQLResponse:
		if mt == MediaGraphQLResponse {
			return 2, q, true
		}
	case FormatJSON:
		switch mt {
		case MediaJSON:
			return 2, q, true
		case "application/*":
			return 1, q, true
		case "*/*":
			return 0, q, true
		}
	case FormatEventStream:
		if mt == MediaEventStream {
			return 2, q, true
		}
	case FormatMultipartSubscription:
		// Only Apollo's parameter makes multipart/mixed a subscription
		// stream: a bare multipart/mixed asks for incremental delivery.
		if mt == MediaMultipart && subSpec == "1.0" {
			return 3, q, true
		}
	}
	return 0, 0, false
}

// parseParams reads the parameters of a media range: its quality (1 when
// absent), whether its charset (if any) is UTF-8, and Apollo's
// subscriptionSpec.
func parseParams(params string) (q float64, charsetOK bool, subscriptionSpec string) {
	q, charsetOK = 1, true
	if params == "" {
		return
	}
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.Trim(strings.TrimSpace(v), `"`)
		switch k {
		case "q":
			q = parseQ(v)
		case "charset":
			charsetOK = strings.EqualFold(v, "utf-8") || strings.EqualFold(v, "utf8")
		case "subscriptionspec":
			subscriptionSpec = v
		}
	}
	return
}

// Negotiate chooses the media type of a single result from an Accept
// header: Choose with the formats of Single. ok is false when the client
// accepts neither application/graphql-response+json nor application/json.
func Negotiate(accept string) (mediaType string, ok bool) {
	f, ok := Choose(accept, Single, false)
	if !ok {
		return "", false
	}
	return f.MediaType(), true
}

// MediaType returns the media type of a single format.
func (f Format) MediaType() string {
	switch f {
	case FormatGraphQLResponse:
		return MediaGraphQLResponse
	case FormatJSON:
		return MediaJSON
	case FormatEventStream:
		return MediaEventStream
	case FormatMultipartSubscription:
		return MediaMultipart
	}
	return ""
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
