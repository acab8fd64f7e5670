package scalars

import (
	"fmt"
	"net/url"

	"github.com/graftgql/graft/internal/coerce"
	"github.com/graftgql/graft/internal/schemadef"
)

// URL is the Go type of the URL scalar: an absolute URL (with a scheme,
// and a host or an opaque part, such as "https://example.com/a" or
// "mailto:a@example.com"). Writing a relative URL is a field error.
type URL struct{ url.URL }

// ParseURL parses an absolute URL as the scalar does.
func ParseURL(s string) (URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return URL{}, fmt.Errorf("not a URL")
	}
	if u.Scheme == "" || u.Host == "" && u.Opaque == "" && u.Path == "" {
		return URL{}, fmt.Errorf("not an absolute URL")
	}
	return URL{*u}, nil
}

func appendURL(buf []byte, v *URL) ([]byte, error) {
	if v.Scheme == "" {
		return buf, fmt.Errorf("URL cannot represent a relative URL %q", v.URL.String())
	}
	return schemadef.AppendJSONString(buf, v.URL.String()), nil
}

func parseURL(v any) (URL, error) {
	s, ok := v.(string)
	if !ok {
		return URL{}, fmt.Errorf("URL cannot represent a non string value: %s", coerce.Describe(v))
	}
	u, err := ParseURL(s)
	if err != nil {
		return u, fmt.Errorf("URL cannot represent %s: %v", coerce.Describe(v), err)
	}
	return u, nil
}
