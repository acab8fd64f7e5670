package limits

import "strconv"

// Result is the measure of one operation, as Analyze computes it. The
// application may read it for logging or metrics, and report it in the
// response extensions with AppendJSON.
type Result struct {
	Depth      int
	Complexity int
	Fields     int
	Aliases    int
	Directives int

	// IntrospectionDepth is the depth of the deepest introspection
	// sub-tree, counted from its __schema or __type field as 1; zero when
	// the operation does not introspect.
	IntrospectionDepth int
	// IntrospectionLists is the largest number of list-of-object
	// introspection fields (types, fields, args, interfaces, ...) nested
	// on one path: each such level multiplies the size of the response.
	IntrospectionLists int
	// IntrospectionRoots is the number of __schema and __type selections,
	// each expansion of a fragment counted.
	IntrospectionRoots int
	// IntrospectionFields is the number of field selections in
	// introspection sub-trees, __schema and __type included, each
	// expansion of a fragment counted. Aliases there count toward Aliases
	// as anywhere else.
	IntrospectionFields int
}

// AppendJSON appends the result as the JSON object
// {"depth":..,"complexity":..,"fields":..,"aliases":..} to buf, for a
// response's extensions.
func (r Result) AppendJSON(buf []byte) []byte {
	buf = append(buf, `{"depth":`...)
	buf = strconv.AppendInt(buf, int64(r.Depth), 10)
	buf = append(buf, `,"complexity":`...)
	buf = strconv.AppendInt(buf, int64(r.Complexity), 10)
	buf = append(buf, `,"fields":`...)
	buf = strconv.AppendInt(buf, int64(r.Fields), 10)
	buf = append(buf, `,"aliases":`...)
	buf = strconv.AppendInt(buf, int64(r.Aliases), 10)
	return append(buf, '}')
}
