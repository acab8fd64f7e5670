package limits

import (
	"math"

	"github.com/graftgql/graft/schema"
)

// ListCost returns a cost for a paginated list field, for schema.CostFn:
// 1 plus the integer argument named arg times the cost of one item (the
// children's cost), so that first: 50 costs fifty items. The argument is
// clamped to 0..limit, as the resolver should clamp it; a missing, null or
// non-integer argument counts as limit. The product saturates instead of
// overflowing, so a huge argument cannot wrap round to a small cost.
//
//	schema.Query(b, "authors", listAuthors, schema.CostFn(limits.ListCost("first", 100)))
func ListCost(arg string, limit int) schema.CostFunc {
	return func(args map[string]any, children int) int {
		n := int64(limit)
		switch v := args[arg].(type) {
		case int64:
			n = v
		case int:
			n = int64(v)
		case float64:
			if v == math.Trunc(v) && math.Abs(v) < 1<<62 {
				n = int64(v)
			}
		}
		n = min(n, int64(limit))
		if n < 0 {
			n = 0
		}
		return satAdd(1, satMul(int(n), children))
	}
}

// satMul multiplies non-negative counts, saturating at math.MaxInt.
func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}
