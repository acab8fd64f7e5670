package httpapi

import (
	"net/http"
	"net/textproto"
	"strings"
)

// HeaderLines is a request's header kept as one string of "Name:value\n"
// lines rather than as the request's map, which costs several times the
// bytes: what a long-lived connection or stream keeps of its request for
// the hooks of its operations (RequestInfo.Header).
type HeaderLines string

// NewHeaderLines returns h as lines, leaving out the headers whose
// canonical name skip reports (skip may be nil).
func NewHeaderLines(h http.Header, skip func(name string) bool) HeaderLines {
	n := 0
	for k, vs := range h {
		if skip == nil || !skip(k) {
			for _, v := range vs {
				n += len(k) + len(v) + 2
			}
		}
	}
	var b strings.Builder
	b.Grow(n)
	for k, vs := range h {
		if skip != nil && skip(k) {
			continue
		}
		for _, v := range vs {
			b.WriteString(k)
			b.WriteByte(':')
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	return HeaderLines(b.String())
}

// Get returns the first value of header name (any case), as
// http.Header.Get does. Header names hold no ':' and values no '\n'.
func (h HeaderLines) Get(name string) string {
	name = textproto.CanonicalMIMEHeaderKey(name)
	s := string(h)
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		if k, v, ok := strings.Cut(line, ":"); ok && k == name {
			return v
		}
		s = rest
	}
	return ""
}
