package scalars

import (
	"encoding/base64"
	"fmt"

	"github.com/graftgql/graft/internal/coerce"
)

// Byte is the Go type of the Byte scalar: bytes, written as standard
// base64 with padding (RFC 4648 section 4). Input is standard base64,
// with or without padding.
type Byte []byte

func appendByte(buf []byte, v *Byte) ([]byte, error) {
	buf = append(buf, '"')
	buf = base64.StdEncoding.AppendEncode(buf, *v)
	return append(buf, '"'), nil
}

func parseByte(v any) (Byte, error) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("Byte cannot represent a non string value: %s", coerce.Describe(v))
	}
	enc := base64.StdEncoding
	if len(s)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("Byte cannot represent %s: not base64", coerce.Describe(v))
	}
	return Byte(b), nil
}
