package schemadef

import "fmt"

// BuildError is one mistake found by Builder.Build. Type and Field name
// the declaration at fault (Field is empty for a type-level mistake). In a
// schema-first builder, File, Line and Column give the position in the
// schema document of what the mistake is about (Line is 0 when it has
// none).
type BuildError struct {
	Type    string
	Field   string
	Message string
	File    string
	Line    int
	Column  int
}

func newBuildError(typeName, field, format string, args ...any) *BuildError {
	return &BuildError{Type: typeName, Field: field, Message: fmt.Sprintf(format, args...)}
}

// Error returns "schema: Type.field: message", with the position
// "file:line:column: " before the type when the mistake has one.
func (e *BuildError) Error() string {
	prefix := "schema: "
	if e.Line > 0 {
		prefix += fmt.Sprintf("%s:%d:%d: ", e.File, e.Line, e.Column)
	}
	switch {
	case e.Type == "":
		return prefix + e.Message
	case e.Field == "":
		return prefix + e.Type + ": " + e.Message
	}
	return prefix + e.Type + "." + e.Field + ": " + e.Message
}
