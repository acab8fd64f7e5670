package limits

import (
	"github.com/graftgql/graft/internal/gqlerr"
	"strconv"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// DefaultMaxIntrospectionDepth is the introspection depth allowed when
// Config.MaxIntrospectionDepth is zero. The standard introspection query
// (graphql-js's getIntrospectionQuery, which GraphiQL sends) has depth 15,
// most of it the chain of ofType fields that unwraps list and non-null
// types; the margin leaves room for clients that unwrap deeper. The
// nesting that multiplies the response is bounded by
// DefaultMaxIntrospectionLists instead.
const DefaultMaxIntrospectionDepth = 20

// DefaultMaxIntrospectionLists is the nesting of introspection lists
// allowed when Config.MaxIntrospectionLists is zero. The standard
// introspection query nests three (types, fields, args); a fourth level
// (types { fields { type { fields ... } } }) multiplies the response by the
// number of fields again.
const DefaultMaxIntrospectionLists = 3

// DefaultMaxIntrospectionRoots is the number of __schema and __type
// selections allowed when Config.MaxIntrospectionRoots is zero, so that
// aliases cannot repeat a whole introspection query.
const DefaultMaxIntrospectionRoots = 5

// DefaultMaxIntrospectionFields is the number of introspection field
// selections allowed when Config.MaxIntrospectionFields is zero. graphql-js
// 16's getIntrospectionQuery, which GraphiQL and Apollo's tools send,
// selects 230 fields with every option on (fragments expanded where they
// are spread), so 1,000 leaves room for clients that ask a little more.
// What multiplies an introspection response is selecting a list under
// several aliases at each level: 30 aliased types each with 30 aliased
// fields selects 1,800 fields and answers megabytes, a third level
// gigabytes. That family exceeds this budget at two levels whatever the
// alias limit; the aliases it uses also count toward MaxAliases, and the
// response budget and timeout bound what is written whatever the limits.
//
// Introspection fields count here and not toward MaxFields so that a
// MaxFields chosen for the application's own queries does not refuse
// GraphiQL; the standard query uses no alias, so counting introspection
// aliases toward MaxAliases costs it nothing.
const DefaultMaxIntrospectionFields = 1000

// The limitType values of the errors Check returns.
const (
	LimitDepth               = "depth"
	LimitComplexity          = "complexity"
	LimitAliases             = "aliases"
	LimitFields              = "fields"
	LimitDirectives          = "directives"
	LimitIntrospectionDepth  = "introspectionDepth"
	LimitIntrospectionLists  = "introspectionLists"
	LimitIntrospectionRoots  = "introspectionRoots"
	LimitIntrospectionFields = "introspectionFields"
)

// Config holds the maximum accepted value of each measure of a Result. Zero
// means unlimited for the measures of ordinary fields, and the safe
// default for the introspection measures, so the zero Config bounds
// introspection only.
type Config struct {
	MaxDepth      int
	MaxComplexity int
	MaxFields     int
	MaxAliases    int
	MaxDirectives int

	// MaxIntrospectionDepth bounds the depth of introspection sub-trees,
	// which the other limits exempt. Zero means
	// DefaultMaxIntrospectionDepth; a negative value means unlimited.
	MaxIntrospectionDepth int
	// MaxIntrospectionLists bounds Result.IntrospectionLists. Zero means
	// DefaultMaxIntrospectionLists; a negative value means unlimited.
	MaxIntrospectionLists int
	// MaxIntrospectionRoots bounds Result.IntrospectionRoots. Zero means
	// DefaultMaxIntrospectionRoots; a negative value means unlimited.
	MaxIntrospectionRoots int
	// MaxIntrospectionFields bounds Result.IntrospectionFields. Zero means
	// DefaultMaxIntrospectionFields; a negative value means unlimited.
	MaxIntrospectionFields int
}

// Check returns nil when every measure of r is within its limit (a value
// equal to the limit passes). Otherwise it returns an error for the first
// limit exceeded, in the order depth, complexity, aliases, fields,
// directives, then the introspection depth, lists, roots and fields, with
// extensions code
// COMPLEXITY_LIMIT_EXCEEDED, limitType, limit and actual, and a message
// such as "Query depth of 12 exceeds maximum allowed depth of 10".
func (c Config) Check(r Result) *gqlerror.Error {
	switch {
	case exceeds(r.Depth, c.MaxDepth):
		return limitError(LimitDepth, "depth", c.MaxDepth, r.Depth)
	case exceeds(r.Complexity, c.MaxComplexity):
		return limitError(LimitComplexity, "complexity", c.MaxComplexity, r.Complexity)
	case exceeds(r.Aliases, c.MaxAliases):
		return limitError(LimitAliases, "aliases", c.MaxAliases, r.Aliases)
	case exceeds(r.Fields, c.MaxFields):
		return limitError(LimitFields, "fields", c.MaxFields, r.Fields)
	case exceeds(r.Directives, c.MaxDirectives):
		return limitError(LimitDirectives, "directives", c.MaxDirectives, r.Directives)
	}
	if limit := orDefault(c.MaxIntrospectionDepth, DefaultMaxIntrospectionDepth); exceeds(r.IntrospectionDepth, limit) {
		return limitError(LimitIntrospectionDepth, "introspection depth", limit, r.IntrospectionDepth)
	}
	if limit := orDefault(c.MaxIntrospectionLists, DefaultMaxIntrospectionLists); exceeds(r.IntrospectionLists, limit) {
		return limitError(LimitIntrospectionLists, "introspection lists", limit, r.IntrospectionLists)
	}
	if limit := orDefault(c.MaxIntrospectionRoots, DefaultMaxIntrospectionRoots); exceeds(r.IntrospectionRoots, limit) {
		return limitError(LimitIntrospectionRoots, "introspection roots", limit, r.IntrospectionRoots)
	}
	if limit := orDefault(c.MaxIntrospectionFields, DefaultMaxIntrospectionFields); exceeds(r.IntrospectionFields, limit) {
		return limitError(LimitIntrospectionFields, "introspection fields", limit, r.IntrospectionFields)
	}
	return nil
}

// orDefault returns limit, or def when limit is zero.
func orDefault(limit, def int) int {
	if limit == 0 {
		return def
	}
	return limit
}

func exceeds(actual, limit int) bool {
	return limit > 0 && actual > limit
}

func limitError(limitType, noun string, limit, actual int) *gqlerror.Error {
	return &gqlerror.Error{
		Message: "Query " + noun + " of " + strconv.Itoa(actual) +
			" exceeds maximum allowed " + noun + " of " + strconv.Itoa(limit),
		Extensions: map[string]any{
			"code":      gqlerr.ComplexityLimit,
			"limitType": limitType,
			"limit":     limit,
			"actual":    actual,
		},
	}
}
