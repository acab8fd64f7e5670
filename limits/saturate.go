package limits

import "math"

// satAdd adds non-negative counts, saturating at math.MaxInt instead of
// overflowing.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
