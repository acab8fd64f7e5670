package scalars

import (
	"fmt"
	"math"
	"strconv"

	"github.com/graftgql/graft/internal/coerce"
)

// BigInt is the Go type of the BigInt scalar: a 64-bit signed integer.
// JavaScript reads JSON numbers as float64, exact only within ±(2^53-1),
// so a BigInt beyond that is written as a JSON string of its digits
// ("9007199254740993"), and every BigInt with Options.BigIntStrings. As
// input it accepts an integer, a float with no fraction within ±2^53, or
// a string of decimal digits within the int64 range.
type BigInt int64

// maxSafeInteger is 2^53-1, JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

func appendBigInt(buf []byte, v *BigInt) ([]byte, error) {
	if n := int64(*v); n >= -maxSafeInteger && n <= maxSafeInteger {
		return strconv.AppendInt(buf, n, 10), nil
	}
	return appendBigIntString(buf, v)
}

func appendBigIntString(buf []byte, v *BigInt) ([]byte, error) {
	buf = append(buf, '"')
	buf = strconv.AppendInt(buf, int64(*v), 10)
	return append(buf, '"'), nil
}

func parseBigInt(v any) (BigInt, error) {
	switch x := v.(type) {
	case int64:
		return BigInt(x), nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= maxSafeInteger {
			return BigInt(x), nil
		}
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		if err == nil {
			return BigInt(n), nil
		}
		return 0, fmt.Errorf("BigInt cannot represent %s: not a 64-bit integer", coerce.Describe(v))
	}
	return 0, fmt.Errorf("BigInt cannot represent %s: not a 64-bit integer", coerce.Describe(v))
}
