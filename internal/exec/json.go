package exec

import (
	"strconv"

	schema "github.com/graftgql/graft/internal/schemadef"
)

// appendString appends s as a JSON string, as the schema's leaf writers
// write strings.
func appendString(buf []byte, s string) []byte {
	return schema.AppendJSONString(buf, s)
}

// appendInt appends v in decimal, with no call for values under 1000.
func appendInt(buf []byte, v int) []byte {
	if uint(v) >= 1000 {
		return strconv.AppendInt(buf, int64(v), 10)
	}
	switch {
	case v < 10:
		return append(buf, byte('0'+v))
	case v < 100:
		return append(buf, byte('0'+v/10), byte('0'+v%10))
	}
	return append(buf, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
}

// jsonKey returns the bytes `,"key":` written before a field's value; the
// first field of an object skips the comma.
func jsonKey(key string) []byte {
	b := appendString([]byte{','}, key)
	return append(b, ':')
}
