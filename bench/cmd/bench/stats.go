package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// pairStats summarises the ratios of the pairs of an alternating load.
type pairStats struct {
	pairs  int
	median float64
	// lo and hi bound the median's 90% interval (one-sided 95% bounds).
	lo, hi float64
	// q1 and q3 are the quartiles.
	q1, q3   float64
	mean, se float64
	// dearer counts the ratios above 1 among the n not equal to 1, and p
	// is the sign test's one-sided p-value.
	dearer, n int
	p         float64
}

// summarizePairs computes the pairStats of ratios.
func summarizePairs(ratios []float64) pairStats {
	s := pairStats{pairs: len(ratios), median: median(ratios), q1: quantile(ratios, 0.25), q3: quantile(ratios, 0.75)}
	s.lo, s.hi = medianInterval(ratios, 0.90)
	s.mean, s.se = meanSE(ratios)
	s.dearer, s.n, s.p = signTest(ratios)
	return s
}

// withInterval formats the median with its 90% interval.
func (s pairStats) withInterval() string {
	return fmt.Sprintf("%.3f (90%% interval %.3f–%.3f)", s.median, s.lo, s.hi)
}

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

// rankSumTest is the one-sided p-value of a Mann–Whitney rank-sum test
// that the values of a tend to be larger than those of b (the normal
// approximation, with ties given their mean rank): small when a's values
// rank above b's more often than chance gives.
func rankSumTest(a, b []float64) float64 {
	n1, n2 := float64(len(a)), float64(len(b))
	if n1 == 0 || n2 == 0 {
		return 1
	}
	type v struct {
		x    float64
		inA  bool
		rank float64
	}
	all := make([]v, 0, len(a)+len(b))
	for _, x := range a {
		all = append(all, v{x: x, inA: true})
	}
	for _, x := range b {
		all = append(all, v{x: x})
	}
	slices.SortFunc(all, func(p, q v) int { return cmp.Compare(p.x, q.x) })
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].x == all[i].x {
			j++
		}
		for k := i; k < j; k++ {
			all[k].rank = float64(i+j+1) / 2 // the mean of ranks i+1..j
		}
		i = j
	}
	var r1 float64
	for _, e := range all {
		if e.inA {
			r1 += e.rank
		}
	}
	u := r1 - n1*(n1+1)/2
	z := (u - n1*n2/2 - 0.5) / math.Sqrt(n1*n2*(n1+n2+1)/12)
	return 0.5 * math.Erfc(z/math.Sqrt2)
}
