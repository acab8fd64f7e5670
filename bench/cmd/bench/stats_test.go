package main

import (
	"math"
	"testing"
)

func TestSignTest(t *testing.T) {
	tests := []struct {
		name      string
		ratios    []float64
		above, n  int
		p         float64
		tolerance float64
	}{
		{"all ten dearer", []float64{1.1, 1.2, 1.01, 1.3, 1.02, 1.05, 1.1, 1.2, 1.01, 1.4}, 10, 10, 1.0 / 1024, 1e-12},
		{"none dearer", []float64{0.9, 0.8, 0.99}, 0, 3, 1, 1e-12},
		// P(X >= 7 of 10) = (120+45+10+1)/1024.
		{"seven of ten", []float64{1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 0.9, 0.9, 0.9}, 7, 10, 176.0 / 1024, 1e-12},
		{"ties are left out", []float64{1, 1, 1.1, 0.9}, 1, 2, 0.75, 1e-12},
		// 140 of 240 dearer: p ≈ 0.0057 (normal approximation with
		// continuity correction: z = (139.5-120)/sqrt(60) = 2.517).
		{"140 of 240", append(repeat(1.01, 140), repeat(0.99, 100)...), 140, 240, 0.0059, 0.0006},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			above, n, p := signTest(tt.ratios)
			if above != tt.above || n != tt.n || math.Abs(p-tt.p) > tt.tolerance {
				t.Errorf("signTest = %d of %d, p %.6f; want %d of %d, p %.6f", above, n, p, tt.above, tt.n, tt.p)
			}
		})
	}
}

func TestMedianInterval(t *testing.T) {
	xs := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5}
	// n = 10 at 90%: P(X <= 1) = 11/1024 ≤ 0.05 < P(X <= 2) = 56/1024, so
	// the ranks are 2 and 9.
	if lo, hi := medianInterval(xs, 0.90); lo != 2 || hi != 9 {
		t.Errorf("medianInterval(1..10, 90%%) = %v–%v, want 2–9", lo, hi)
	}
	// At 99.9% ten values are too few: their whole range.
	if lo, hi := medianInterval(xs, 0.999); lo != 1 || hi != 10 {
		t.Errorf("medianInterval(1..10, 99.9%%) = %v–%v, want 1–10", lo, hi)
	}
	if lo, hi := medianInterval(nil, 0.9); lo != 0 || hi != 0 {
		t.Errorf("medianInterval(nil) = %v–%v", lo, hi)
	}
	// 240 values 1..240: the interval narrows to ranks 108 and 133 (the
	// normal approximation: 120.5 ± 1.645·√60 ≈ 107.8–133.2).
	var many []float64
	for i := 1; i <= 240; i++ {
		many = append(many, float64(i))
	}
	if lo, hi := medianInterval(many, 0.90); lo < 106 || lo > 109 || hi != 241-lo {
		t.Errorf("medianInterval(1..240, 90%%) = %v–%v, want about 108–133, symmetric", lo, hi)
	}
}

func TestMeanSE(t *testing.T) {
	mean, se := meanSE([]float64{1, 2, 3, 4})
	// Sample standard deviation √(5/3), over √4.
	if mean != 2.5 || math.Abs(se-math.Sqrt(5.0/3)/2) > 1e-12 {
		t.Errorf("meanSE = %v ± %v", mean, se)
	}
}

func repeat(x float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}

func TestRankSumTest(t *testing.T) {
	low := []float64{0.97, 0.98, 0.99, 1.00, 1.01}
	high := []float64{1.02, 1.03, 1.04, 1.05, 1.06}
	// Every value of high above every one of low: U = 25, z = (25 - 12.5
	// - 0.5)/√(25·11/12) = 2.507, p = 0.0061.
	if p := rankSumTest(high, low); math.Abs(p-0.0061) > 0.0002 {
		t.Errorf("rankSumTest(high, low) = %.4f, want 0.0061", p)
	}
	if p := rankSumTest(low, high); p < 0.99 {
		t.Errorf("rankSumTest(low, high) = %.4f, want near 1", p)
	}
	// The same values: U is half of n1·n2, p just above one half.
	if p := rankSumTest(low, low); p < 0.5 || p > 0.6 {
		t.Errorf("rankSumTest(low, low) = %.4f, want just above 0.5", p)
	}
	if p := rankSumTest(nil, low); p != 1 {
		t.Errorf("rankSumTest(nil, …) = %v, want 1", p)
	}
}
