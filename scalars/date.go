package scalars

import (
	"cmp"
	"fmt"
	"time"

	"github.com/graftgql/graft/internal/coerce"
)

// Date is the Go type of the Date scalar: a calendar date without a time
// or zone, written as an RFC 3339 full-date ("2006-01-02", years 0 to
// 9999). Writing a date that does not exist (month 13, February 30) is a
// field error.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate parses an RFC 3339 full-date such as "2006-01-02".
func ParseDate(s string) (Date, error) {
	if len(s) != 10 {
		return Date{}, fmt.Errorf("want YYYY-MM-DD")
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("want an existing date as YYYY-MM-DD")
	}
	return DateOf(t), nil
}

// String returns the date as YYYY-MM-DD.
func (d Date) String() string { return string(d.appendTo(nil)) }

// In returns the time at which the date starts in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// Compare returns -1, 0 or +1 as d is before, the same as or after e.
func (d Date) Compare(e Date) int {
	return cmp.Or(cmp.Compare(d.Year, e.Year), cmp.Compare(d.Month, e.Month), cmp.Compare(d.Day, e.Day))
}

// valid reports whether d is a date the scalar can write.
func (d Date) valid() bool {
	return d.Year >= 0 && d.Year <= 9999 && d.Month >= 1 && d.Month <= 12 && d.Day >= 1 &&
		DateOf(d.In(time.UTC)) == d
}

func (d Date) appendTo(buf []byte) []byte {
	buf = appendDigits(buf, d.Year, 4)
	buf = append(buf, '-')
	buf = appendDigits(buf, int(d.Month), 2)
	buf = append(buf, '-')
	return appendDigits(buf, d.Day, 2)
}

// appendDigits appends a non-negative n zero-padded to width digits.
func appendDigits(buf []byte, n, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for n > 0 || width > 0 {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
		width--
	}
	return append(buf, tmp[i:]...)
}

func appendDate(buf []byte, d *Date) ([]byte, error) {
	if !d.valid() {
		return buf, fmt.Errorf("Date cannot represent %04d-%02d-%02d: not a date", d.Year, int(d.Month), d.Day)
	}
	buf = append(buf, '"')
	buf = d.appendTo(buf)
	return append(buf, '"'), nil
}

func parseDate(v any) (Date, error) {
	s, ok := v.(string)
	if !ok {
		return Date{}, fmt.Errorf("Date cannot represent a non string value: %s", coerce.Describe(v))
	}
	d, err := ParseDate(s)
	if err != nil {
		return d, fmt.Errorf("Date cannot represent %s: %v", coerce.Describe(v), err)
	}
	return d, nil
}

// Time is the Go type of the Time scalar: a time of day in UTC, written
// as an RFC 3339 full-time ("15:04:05Z", fractions of a second when not
// zero). Input carries a zone offset ("10:15:30+01:00"), and is converted
// to UTC. Writing a time outside 00:00:00 to 23:59:59.999999999 is a
// field error.
type Time struct {
	Hour, Minute, Second, Nanosecond int
}

// TimeOf returns the time of day of t in UTC.
func TimeOf(t time.Time) Time {
	t = t.UTC()
	return Time{Hour: t.Hour(), Minute: t.Minute(), Second: t.Second(), Nanosecond: t.Nanosecond()}
}

// String returns the time as an RFC 3339 full-time in UTC.
func (t Time) String() string { return string(t.appendTo(nil)) }

func (t Time) valid() bool {
	return t.Hour >= 0 && t.Hour < 24 && t.Minute >= 0 && t.Minute < 60 && t.Second >= 0 && t.Second < 60 &&
		t.Nanosecond >= 0 && t.Nanosecond < 1e9
}

func (t Time) appendTo(buf []byte) []byte {
	buf = appendDigits(buf, t.Hour, 2)
	buf = append(buf, ':')
	buf = appendDigits(buf, t.Minute, 2)
	buf = append(buf, ':')
	buf = appendDigits(buf, t.Second, 2)
	if ns := t.Nanosecond; ns != 0 {
		width := 9
		for ns%10 == 0 {
			ns /= 10
			width--
		}
		buf = append(buf, '.')
		buf = appendDigits(buf, ns, width)
	}
	return append(buf, 'Z')
}

func appendTime(buf []byte, t *Time) ([]byte, error) {
	if !t.valid() {
		return buf, fmt.Errorf("Time cannot represent %02d:%02d:%02d.%09d: not a time of day", t.Hour, t.Minute, t.Second, t.Nanosecond)
	}
	buf = append(buf, '"')
	buf = t.appendTo(buf)
	return append(buf, '"'), nil
}

func parseTime(v any) (Time, error) {
	s, ok := v.(string)
	if !ok {
		return Time{}, fmt.Errorf("Time cannot represent a non string value: %s", coerce.Describe(v))
	}
	t, err := time.Parse("15:04:05Z07:00", s)
	if err != nil || len(s) < 9 {
		return Time{}, fmt.Errorf("Time cannot represent %s: want an RFC 3339 full-time such as 15:04:05Z", coerce.Describe(v))
	}
	return TimeOf(t), nil
}
