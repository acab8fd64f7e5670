// Package limits measures how much work a GraphQL operation asks for and
// refuses operations that ask for too much.
//
// The router analyses each validated document once, when it enters the
// document cache, and checks the result against its Config before any
// resolver runs:
//
//	res := limits.Analyze(s, doc, op, vars)
//	if err := cfg.Check(res); err != nil {
//		// 400 with err (code COMPLEXITY_LIMIT_EXCEEDED)
//	}
//
// When UsesVariables reports false the result does not depend on the
// variables and may be cached with the document.
//
// The analysis walks the operation with every fragment expanded and every
// inline fragment and fragment spread followed, whatever its type
// condition, so fields hidden in a fragment on an interface or union are
// counted like any other. Fragments are analysed once each (memoised), so
// a document with thousands of fragments is analysed in linear time, and a
// fragment cycle (which validation rejects) ends the walk instead of
// looping. Fields under @skip and @include are counted whatever the
// condition, so the result is an upper bound.
//
// The measures:
//
//   - Depth: a root field has depth 1, each nested field one more;
//     fragments add no depth. The deepest path through any fragment counts.
//   - Complexity: a field costs 1 plus the complexity of its selection set,
//     unless the schema declares a cost for it (schema.Cost, schema.CostFn),
//     in which case the declared CostFunc receives the field's coerced
//     argument values (literals and variables, argument defaults applied)
//     and the complexity of its selection set, so a cost of first*children
//     makes a list argument multiply. A paginated field declared with
//     schema.PageCost (a Relay connection, package relay) costs 1 plus
//     the page size times the cost of its item fields (edges, nodes)
//     plus its other fields (pageInfo, totalCount) once; the page size
//     is the first size argument given, else the declared default, at
//     most the declared maximum. The cost is looked up on the type the
//     field is selected on: the interface for a field selected on an
//     interface, the object in a fragment on an object. A selection set on
//     an interface or union may hold fragments for different object types,
//     of which any one response object matches only some; its complexity is
//     the maximum, over the possible object types, of the fields and
//     fragments that apply to that type, rather than the sum of mutually
//     exclusive branches. Arithmetic saturates instead of overflowing; a
//     CostFunc that panics or returns a negative number counts as the
//     largest cost, so a broken cost declaration refuses the query rather
//     than letting it through.
//   - Fields: every field selection, plus one for every fragment spread
//     (each expansion of a fragment counts its fields again).
//   - Aliases: every field selected under an alias that differs from its
//     name, inside introspection and on __typename too: each alias adds a
//     response key, and keys multiply the response. An aliased __typename
//     also counts as a field; a plain one is free.
//   - Directives: every directive in the operation: on the operation, its
//     variable definitions, fields, inline fragments, fragment spreads and,
//     for each expansion, the fragment definition.
//
// Introspection (the __schema and __type fields and everything below them,
// and unaliased __typename anywhere) is exempt from the depth, complexity,
// fields and directives measures, so tools such as GraphiQL work under
// tight limits; its aliases count toward Aliases (the standard
// introspection query has none). Introspection has bounds of its own,
// on by default with values that the standard introspection query passes
// with room to spare: IntrospectionDepth (counted from the __schema or
// __type field as 1), IntrospectionLists (list-of-object fields such as
// types, fields and args nested on one path, the nesting that multiplies
// the size of the response), IntrospectionRoots (the number of __schema
// and __type selections, so aliases cannot repeat a whole introspection
// query) and IntrospectionFields (field selections inside introspection,
// which bounds the aliased fan-out of lists; see
// DefaultMaxIntrospectionFields). A fragment spread still counts as a
// field where it appears, whatever the fragment holds.
package limits
