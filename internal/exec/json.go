package exec

import schema "github.com/graftgql/graft/internal/schemadef"

// appendString appends s as a JSON string, escaped as the schema's leaf
// writers escape strings.
func appendString(buf []byte, s string) []byte {
	return schema.AppendJSONString(buf, s)
}

// jsonKey returns the bytes `,"key":` written before a field's value; the
// first field of an object skips the comma.
func jsonKey(key string) []byte {
	b := appendString([]byte{','}, key)
	return append(b, ':')
}
