package schemadef

import "fmt"

// BuildError is one mistake found by Builder.Build. Type and Field name
// the declaration at fault (Field is empty for a type-level mistake).
type BuildError struct {
	Type    string
	Field   string
	Message string
}

func newBuildError(typeName, field, format string, args ...any) *BuildError {
	return &BuildError{Type: typeName, Field: field, Message: fmt.Sprintf(format, args...)}
}

// Error returns "schema: Type.field: message".
func (e *BuildError) Error() string {
	switch {
	case e.Type == "":
		return "schema: " + e.Message
	case e.Field == "":
		return "schema: " + e.Type + ": " + e.Message
	}
	return "schema: " + e.Type + "." + e.Field + ": " + e.Message
}
