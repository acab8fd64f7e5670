package scalars

import (
	"fmt"
	"math"
	"strconv"
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

// ParseDuration parses an ISO 8601 duration the scalar accepts.
func ParseDuration(s string) (Duration, error) {
	in := s
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) < 2 || s[0] != 'P' {
		return 0, fmt.Errorf("want an ISO 8601 duration such as PT1H30M")
	}
	s = s[1:]
	var total float64
	inTime, seen, lastFraction := false, false, false
	prev := -1
	for s != "" {
		if s[0] == 'T' {
			if inTime || len(s) == 1 {
				return 0, fmt.Errorf("want an ISO 8601 duration such as PT1H30M")
			}
			inTime, s = true, s[1:]
			continue
		}
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == ',') {
			i++
		}
		if i == 0 || i == len(s) || lastFraction {
			return 0, fmt.Errorf("want an ISO 8601 duration such as PT1H30M")
		}
		num := []byte(s[:i])
		for j := range num {
			if num[j] == ',' {
				num[j] = '.'
			}
		}
		n, err := strconv.ParseFloat(string(num), 64)
		if err != nil {
			return 0, fmt.Errorf("want an ISO 8601 duration such as PT1H30M")
		}
		lastFraction = n != math.Trunc(n)
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
			return 0, fmt.Errorf("want an ISO 8601 duration such as PT1H30M")
		}
		if pos <= prev {
			return 0, fmt.Errorf("want an ISO 8601 duration such as PT1H30M")
		}
		prev = pos
		total += n * float64(size)
		seen = true
		s = s[i+1:]
	}
	if !seen {
		return 0, fmt.Errorf("want an ISO 8601 duration such as PT1H30M")
	}
	if total >= math.MaxInt64 {
		return 0, fmt.Errorf("%s is beyond the range of a duration", in)
	}
	d := Duration(math.Round(total))
	if neg {
		d = -d
	}
	return d, nil
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
