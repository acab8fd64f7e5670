package schemadef

import (
	"strconv"
	"strings"
)

// CacheControlDirective is the name of the cache-hint directive.
const CacheControlDirective = "cacheControl"

// cacheScope is the Go type of the CacheControlScope enum.
type cacheScope string

// CacheControl applies a cache hint to an object type or a field: the
// answer may be cached maxAge seconds, by anyone (scope "PUBLIC" or "")
// or by the client alone ("PRIVATE"). It is @cacheControl in the SDL.
func CacheControl(maxAge int, scope string) Option {
	args := "maxAge: " + strconv.Itoa(max(maxAge, 0))
	if s := strings.ToUpper(scope); s == "PUBLIC" || s == "PRIVATE" {
		args += ", scope: " + s
	}
	return Directive(CacheControlDirective, args)
}

// declareCacheControl declares @cacheControl and its scope enum when a
// declaration uses it and the schema does not declare it already.
func (b *Builder) declareCacheControl() {
	for _, d := range b.directives {
		if d.Name == CacheControlDirective {
			return
		}
	}
	used := func(o options) bool {
		for _, d := range o.directives {
			if d.Name == CacheControlDirective {
				return true
			}
		}
		for _, fopts := range o.onFields {
			for _, d := range collect(fopts).directives {
				if d.Name == CacheControlDirective {
					return true
				}
			}
		}
		return false
	}
	found := false
	for _, o := range b.objects {
		found = found || used(o.opts)
		for _, f := range o.fields {
			found = found || used(f.opts)
		}
	}
	for _, a := range b.interfaces {
		found = found || used(a.opts)
	}
	if !found {
		return
	}
	b.declareCacheControlTypes()
}

// declareCacheControlTypes declares @cacheControl and its scope enum, as
// definitions the builder supplies (Builder.Supplied).
func (b *Builder) declareCacheControlTypes() {
	b.Supplied("CacheControlScope", "@"+CacheControlDirective)
	Enum(b, "CacheControlScope", []EnumValueDef[cacheScope]{{Name: "PUBLIC", Value: "PUBLIC"}, {Name: "PRIVATE", Value: "PRIVATE"}})
	b.DeclareDirective(DirectiveDef{Name: CacheControlDirective,
		Description: "How long, and by whom, an answer selecting this field or type may be cached.",
		Args:        "maxAge: Int, scope: CacheControlScope",
		Locations:   []string{"FIELD_DEFINITION", "OBJECT", "INTERFACE"}})
}
