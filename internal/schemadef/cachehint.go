package schemadef

import (
	"fmt"
	"strconv"
	"strings"
)

// CacheControlDirective is the name of the cache-hint directive.
const CacheControlDirective = "cacheControl"

// CacheScope says who may cache an answer a cache hint applies to: its
// values are CachePublic and CachePrivate; the empty scope leaves it
// unsaid (public, as Apollo Server reads it).
type CacheScope string

// The cache scopes.
const (
	CachePublic  CacheScope = "PUBLIC"
	CachePrivate CacheScope = "PRIVATE"
)

// CacheControl applies a cache hint to an object type or a field: the
// answer may be cached maxAge seconds, by anyone (CachePublic or "") or
// by the client alone (CachePrivate). It is @cacheControl in the SDL.
// Build reports any other scope, naming the type or field.
func CacheControl(maxAge int, scope CacheScope) Option {
	args := "maxAge: " + strconv.Itoa(max(maxAge, 0))
	switch scope {
	case "":
	case CachePublic, CachePrivate:
		args += ", scope: " + string(scope)
	default:
		// Kept as given (quoted, so it always parses): Build reports it.
		args += ", scope: " + strconv.Quote(string(scope))
	}
	return Directive(CacheControlDirective, args)
}

// checkCacheScope returns the error of an applied @cacheControl whose
// scope is not a CacheScope, or nil.
func checkCacheScope(d AppliedDirective) error {
	if d.Name != CacheControlDirective {
		return nil
	}
	_, rest, found := strings.Cut(d.Args, "scope:")
	if !found {
		return nil
	}
	v := strings.TrimSpace(rest)
	if i := strings.IndexAny(v, ", )"); i >= 0 {
		v = v[:i]
	}
	switch CacheScope(v) {
	case CachePublic, CachePrivate:
		return nil
	}
	return fmt.Errorf("cache scope %s is not one of schema.CachePublic (PUBLIC) and schema.CachePrivate (PRIVATE)", v)
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
	Enum(b, "CacheControlScope", []EnumValueDef[CacheScope]{{Name: "PUBLIC", Value: "PUBLIC"}, {Name: "PRIVATE", Value: "PRIVATE"}})
	b.DeclareDirective(DirectiveDef{Name: CacheControlDirective,
		Description: "How long, and by whom, an answer selecting this field or type may be cached.",
		Args:        "maxAge: Int, scope: CacheControlScope",
		Locations:   []DirectiveLocation{LocationFieldDefinition, LocationObject, LocationInterface}})
}
