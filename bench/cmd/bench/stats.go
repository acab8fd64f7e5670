package main

import (
	"math"
	"slices"
)

// meanSE is the mean of xs and its standard error.
func meanSE(xs []float64) (mean, se float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
}

// quantile is the p-quantile (0..1) of xs, the nearest rank below.
func quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p)]
}

// signTest counts the ratios above 1 (the hash-only query dearer) among
// those not equal to 1, and returns the one-sided p-value of a sign test:
// the chance of at least that many above 1 of n if either side were as
// likely.
func signTest(ratios []float64) (above, n int, p float64) {
	for _, r := range ratios {
		switch {
		case r > 1:
			above++
			n++
		case r < 1:
			n++
		}
	}
	return above, n, 1 - binomialCDF(above-1, n)
}

// medianInterval is a distribution-free confidence interval of the median
// of xs at level conf (0..1): the order statistics of ranks l and n+1-l,
// with l the largest rank whose chance of the median lying below it is at
// most (1-conf)/2. Too few values for that give their whole range.
func medianInterval(xs []float64, conf float64) (lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n, l := len(s), 1
	for j := 2; j <= (n+1)/2 && binomialCDF(j-1, n) <= (1-conf)/2; j++ {
		l = j
	}
	return s[l-1], s[n-l]
}

// binomialCDF is the chance of at most k successes in n fair trials.
func binomialCDF(k, n int) float64 {
	if k < 0 {
		return 0
	}
	if k >= n {
		return 1
	}
	lgN, _ := math.Lgamma(float64(n + 1))
	var sum float64
	for i := 0; i <= k; i++ {
		a, _ := math.Lgamma(float64(i + 1))
		b, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lgN - a - b - float64(n)*math.Ln2)
	}
	return min(sum, 1)
}
