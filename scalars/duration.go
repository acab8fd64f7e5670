package scalars

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/graftgql/graft/internal/coerce"
)

// Duration is the Go type of the Duration scalar: a time.Duration,
// written as an ISO 8601 duration in hours, minutes and seconds
// ("PT1H30M", "PT0.5S", "-PT2H", "PT0S"). Input may also use weeks and
// days ("P1W", "P2DT3H"), a day being 24 hours; years and months, whose
// length varies, are refused, as are values beyond time.Duration's range
// (about 292 years).
type Duration time.Duration

func appendDuration(buf []byte, v *Duration) ([]byte, error) {
	d := time.Duration(*v)
	buf = append(buf, '"')
	if d < 0 {
		buf = append(buf, '-')
	}
	buf = append(buf, 'P', 'T')
	u := uint64(d)
	if d < 0 {
		u = -u
	}
	h, rest := u/uint64(time.Hour), u%uint64(time.Hour)
	m, rest := rest/uint64(time.Minute), rest%uint64(time.Minute)
	s, ns := rest/uint64(time.Second), rest%uint64(time.Second)
	if h > 0 {
		buf = strconv.AppendUint(buf, h, 10)
		buf = append(buf, 'H')
	}
	if m > 0 {
		buf = strconv.AppendUint(buf, m, 10)
		buf = append(buf, 'M')
	}
	if s > 0 || ns > 0 || h == 0 && m == 0 {
		buf = strconv.AppendUint(buf, s, 10)
		if ns > 0 {
			width := 9
			for ns%10 == 0 {
				ns /= 10
				width--
			}
			buf = append(buf, '.')
			buf = appendDigits(buf, int(ns), width)
		}
		buf = append(buf, 'S')
	}
	return append(buf, '"'), nil
}

// ParseDuration parses an ISO 8601 duration the scalar accepts. A
// fraction (on the last component only) is rounded to the nearest
// nanosecond; every Duration reads back exactly from the text the scalar
// writes for it.
func ParseDuration(s string) (Duration, error) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) < 2 || s[0] != 'P' {
		return 0, errDurationForm
	}
	s = s[1:]
	var total uint64 // nanoseconds, counted exactly
	inTime, seen, lastFraction, overflow := false, false, false, false
	prev := -1
	for s != "" {
		if s[0] == 'T' {
			if inTime || len(s) == 1 {
				return 0, errDurationForm
			}
			inTime, s = true, s[1:]
			continue
		}
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == ',') {
			i++
		}
		if i == 0 || i == len(s) || lastFraction {
			return 0, errDurationForm
		}
		unit := s[i]
		var size time.Duration
		var pos int // the units' order: W, D, then H, M, S
		switch {
		case !inTime && unit == 'Y', !inTime && unit == 'M':
			return 0, fmt.Errorf("years and months have no fixed length; use weeks, days or hours")
		case !inTime && unit == 'W':
			size, pos = 7*24*time.Hour, 0
		case !inTime && unit == 'D':
			size, pos = 24*time.Hour, 1
		case inTime && unit == 'H':
			size, pos = time.Hour, 2
		case inTime && unit == 'M':
			size, pos = time.Minute, 3
		case inTime && unit == 'S':
			size, pos = time.Second, 4
		default:
			return 0, errDurationForm
		}
		if pos <= prev {
			return 0, errDurationForm
		}
		prev = pos
		n, fraction, over, ok := durationPart(s[:i], uint64(size))
		if !ok {
			return 0, errDurationForm
		}
		lastFraction = fraction
		var carry uint64
		total, carry = bits.Add64(total, n, 0)
		overflow = overflow || over || carry != 0
		seen = true
		s = s[i+1:]
	}
	if !seen {
		return 0, errDurationForm
	}
	if limit := uint64(math.MaxInt64) + uint64(b2i(neg)); overflow || total > limit {
		return 0, errors.New("beyond the range of a duration (about 292 years)")
	}
	if neg {
		return Duration(-int64(total)), nil // -(2^63) is math.MinInt64 itself
	}
	return Duration(total), nil
}

var errDurationForm = errors.New("want an ISO 8601 duration such as PT1H30M")

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// durationPart reads the number of one component of a duration (digits
// with at most one decimal point or comma) in nanoseconds, size being
// the nanoseconds of its unit: the whole units exactly, the fraction
// rounded half up (from its first 19 digits). It tells whether the
// fraction is not zero, and whether the value is beyond 64 bits.
func durationPart(num string, size uint64) (n uint64, fraction, overflow, ok bool) {
	whole, frac := num, ""
	if i := strings.IndexAny(num, ".,"); i >= 0 {
		whole, frac = num[:i], num[i+1:]
	}
	if whole == "" && frac == "" || strings.ContainsAny(frac, ".,") {
		return 0, false, false, false
	}
	var w uint64
	for i := 0; i < len(whole); i++ {
		var hi uint64
		if hi, w = bits.Mul64(w, 10); hi != 0 {
			overflow = true
		}
		var c uint64
		if w, c = bits.Add64(w, uint64(whole[i]-'0'), 0); c != 0 {
			overflow = true
		}
	}
	hi, n := bits.Mul64(w, size)
	overflow = overflow || hi != 0
	frac = strings.TrimRight(frac, "0")
	if frac == "" {
		return n, false, overflow, true
	}
	frac = frac[:min(len(frac), 19)]
	var f, pow uint64 = 0, 1
	for i := 0; i < len(frac); i++ {
		f, pow = f*10+uint64(frac[i]-'0'), pow*10
	}
	// f/pow of a unit is f*size/pow nanoseconds; f < pow makes the
	// quotient fit.
	phi, plo := bits.Mul64(f, size)
	q, r := bits.Div64(phi, plo, pow)
	if r >= pow-r {
		q++
	}
	var c uint64
	n, c = bits.Add64(n, q, 0)
	return n, true, overflow || c != 0, true
}

func parseDuration(v any) (Duration, error) {
	s, ok := v.(string)
	if !ok {
		return 0, fmt.Errorf("Duration cannot represent a non string value: %s", coerce.Describe(v))
	}
	d, err := ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("Duration cannot represent %s: %v", coerce.Describe(v), err)
	}
	return d, nil
}
