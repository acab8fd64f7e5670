package scalars

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/schema"
)

// The fuzz targets of this file hold each scalar to its contract on
// arbitrary input, not only to not panicking: an input the scalar
// accepts is written back as JSON that the scalar reads as the same
// value, and a refusal is an error naming the scalar. The seeds are the
// cases of the package's tests.

// wire decodes the JSON a scalar wrote as a client would send it back:
// numbers that are integers as int64, others as float64.
func wire(t *testing.T, out []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(out))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		t.Fatalf("the scalar wrote %q, not one JSON value: %v", out, err)
	}
	return numbers(v)
}

// numbers turns the json.Numbers of v into int64 or float64, as the
// router's request decoding does.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
	}
	return v
}

// roundTrip checks that a value parse accepted from in is written by
// write as JSON that parse reads back as the same value, and that a
// refusal names the scalar.
func roundTrip[T any](t *testing.T, scalar string, in any, parse func(any) (T, error), write func([]byte, *T) ([]byte, error),
	equal func(a, b T) bool) (T, bool) {
	t.Helper()
	v, err := parse(in)
	if err != nil {
		// The message is not checked to be valid UTF-8: see
		// TestRefusalsAreValidUTF8.
		if msg := err.Error(); !strings.HasPrefix(msg, scalar+" cannot represent ") || len(msg) > 400 {
			t.Fatalf("%s refuses %.200q with %.500q", scalar, fmt.Sprint(in), msg)
		}
		return v, false
	}
	if s, ok := in.(string); ok && !utf8.ValidString(s) {
		// No client can send it (JSON text is UTF-8), and writing it
		// replaces the bytes that are not UTF-8.
		return v, true
	}
	out, err := write([]byte("x"), &v)
	if err != nil {
		t.Fatalf("%s accepts %#v as %+v but cannot write it: %v", scalar, in, v, err)
	}
	if out[0] != 'x' {
		t.Fatalf("%s overwrote the buffer it appends to", scalar)
	}
	back, err := parse(wire(t, out[1:]))
	if err != nil || !equal(back, v) {
		t.Fatalf("%s accepts %#v as %+v, writes %s, which reads back as %+v, %v", scalar, in, v, out[1:], back, err)
	}
	return v, true
}

func same[T comparable](a, b T) bool { return a == b }

// FuzzUUID reads arbitrary text as a UUID: what it accepts is one of the
// documented forms of the UUID it writes.
func FuzzUUID(f *testing.F) {
	for _, s := range []string{"123e4567-e89b-12d3-a456-426614174000", "{123E4567-E89B-12D3-A456-426614174000}",
		"urn:uuid:123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-42661417400", "123e4567e89b12d3a456426614174000",
		"00000000-0000-0000-0000--00000000000", "-000000--0000-0000-0000-000000000000", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, ok := roundTrip(t, "UUID", s, parseUUID, appendUUID, same[UUID])
		if !ok {
			return
		}
		c := strings.ToLower(s)
		c = strings.TrimPrefix(c, "urn:uuid:")
		if len(c) == 38 {
			c = c[1:37]
		}
		if u.String() != c {
			t.Fatalf("ParseUUID(%q) = %s", s, u)
		}
	})
}

// FuzzBigInt reads arbitrary strings, integers and floats as a BigInt.
func FuzzBigInt(f *testing.F) {
	f.Add("9223372036854775807", int64(9007199254740993), 1.5)
	f.Add("9223372036854775808", int64(-9223372036854775808), 9007199254740992.0)
	f.Add("12x", int64(7), -0.0)
	f.Add("-0", int64(0), math.Inf(1))
	f.Fuzz(func(t *testing.T, s string, i int64, fl float64) {
		for _, o := range []func([]byte, *BigInt) ([]byte, error){appendBigInt, appendBigIntString} {
			roundTrip(t, "BigInt", s, parseBigInt, o, same[BigInt])
			if v, ok := roundTrip(t, "BigInt", i, parseBigInt, o, same[BigInt]); !ok || int64(v) != i {
				t.Fatalf("parseBigInt(%d) = %d, %v", i, v, ok)
			}
			v, ok := roundTrip(t, "BigInt", fl, parseBigInt, o, same[BigInt])
			if want := fl == math.Trunc(fl) && math.Abs(fl) <= maxSafeInteger; ok != want || ok && float64(v) != fl {
				t.Fatalf("parseBigInt(%v) = %d, %v", fl, v, ok)
			}
		}
	})
}

// FuzzDate reads arbitrary text as a Date, and writes arbitrary dates:
// an accepted date is written as it was read; a date is written only
// when it exists.
func FuzzDate(f *testing.F) {
	for _, s := range []string{"2000-01-02", "2024-02-29", "2001-02-29", "2000-1-2", "2000-01-02T00:00:00Z", "0000-01-01", "9999-12-31", "+999-01-01"} {
		f.Add(s, 2000, 1, 2)
	}
	f.Add("", 10000, 1, 1)
	f.Add("", -1, 12, 31)
	f.Add("", 2001, 2, 29)
	f.Fuzz(func(t *testing.T, s string, y, m, d int) {
		if v, ok := roundTrip(t, "Date", s, parseDate, appendDate, same[Date]); ok && v.String() != s {
			t.Fatalf("parseDate(%q) = %s", s, v)
		}
		v := Date{Year: y, Month: time.Month(m), Day: d}
		out, err := appendDate(nil, &v)
		if exists := y >= 0 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m); (err == nil) != exists {
			t.Fatalf("appendDate(%+v) = %s, %v", v, out, err)
		}
		if err == nil {
			if back, err := parseDate(wire(t, out)); err != nil || back != v {
				t.Fatalf("appendDate(%+v) = %s, read back as %+v, %v", v, out, back, err)
			}
		}
	})
}

// daysIn is the number of days of month m of year y (proleptic
// Gregorian).
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// FuzzTime reads arbitrary text as a Time, and writes arbitrary times of
// day.
func FuzzTime(f *testing.F) {
	for _, s := range []string{"10:15:30Z", "10:15:30+01:00", "23:59:59.25Z", "25:00:00Z", "10:15:30", "1:04:05+01:00", "00:00:00-23:59", "10:15:30.123456789123Z"} {
		f.Add(s, 10, 15, 30, 500000000)
	}
	f.Add("", 24, 0, 0, 0)
	f.Add("", 0, 0, 0, 999999999)
	f.Add("", 0, 0, 60, 0)
	f.Fuzz(func(t *testing.T, s string, h, m, sec, ns int) {
		roundTrip(t, "Time", s, parseTime, appendTime, same[Time])
		v := Time{Hour: h, Minute: m, Second: sec, Nanosecond: ns}
		out, err := appendTime(nil, &v)
		if valid := h >= 0 && h < 24 && m >= 0 && m < 60 && sec >= 0 && sec < 60 && ns >= 0 && ns < 1e9; (err == nil) != valid {
			t.Fatalf("appendTime(%+v) = %s, %v", v, out, err)
		}
		if err == nil {
			if back, err := parseTime(wire(t, out)); err != nil || back != v {
				t.Fatalf("appendTime(%+v) = %s, read back as %+v, %v", v, out, back, err)
			}
		}
	})
}

// FuzzDuration reads arbitrary text as a Duration, and writes arbitrary
// durations: every duration is written as text that reads back as it.
func FuzzDuration(f *testing.F) {
	for _, s := range []string{"PT0S", "PT1H30M", "P1W", "P2DT3H", "PT0.5S", "PT1,5S", "-PT2H", "+PT1M", "PT1.5H",
		"", "P", "PT", "1H", "PT1H2", "PT1M1H", "P1DT", "PT1.5H1M", "P1Y", "P1M", "PT-1H", "P200000W", "P1H", "PT1D",
		"PT2562047H47M16.854775807S", "-PT2562047H47M16.854775808S", "PT3000H0.000000001S", "P0.000000000000000000001W"} {
		f.Add(s, int64(0))
	}
	f.Add("", int64(math.MaxInt64))
	f.Add("", int64(math.MinInt64))
	f.Add("", int64(1<<53+1))
	f.Fuzz(func(t *testing.T, s string, d int64) {
		roundTrip(t, "Duration", s, parseDuration, appendDuration, same[Duration])
		v := Duration(d)
		out, _ := appendDuration(nil, &v)
		if back, err := parseDuration(wire(t, out)); err != nil || back != v {
			t.Fatalf("appendDuration(%d) = %s, read back as %d, %v", d, out, back, err)
		}
	})
}

// FuzzURL reads arbitrary text as a URL.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://example.com/a?b=c", "mailto:a@example.com", "https://example.com", "/relative", "example.com",
		"http:///x", "a:b", "http://[::1]:80/", "http://a b", "http://%41/", "x://h/p#f%20g"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		roundTrip(t, "URL", s, parseURL, appendURL, func(a, b URL) bool { return a.String() == b.String() })
	})
}

// FuzzEmailAddress reads arbitrary text as an EmailAddress.
func FuzzEmailAddress(f *testing.F) {
	for _, s := range []string{"author1@example.com", "a.b+c@example.co.uk", "x@y.z", "a@", "Name <a@example.com>", "a@b@c", "not an address",
		"a@-b.c", "a@b-.c", "a@" + strings.Repeat("b", 64) + ".c", "\xff@x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := roundTrip(t, "EmailAddress", s, parseEmail, appendEmail, same[EmailAddress]); ok && string(v) != s {
			t.Fatalf("parseEmail(%q) = %q", s, v)
		}
	})
}

// FuzzByte reads arbitrary text as a Byte, and writes arbitrary bytes.
func FuzzByte(f *testing.F) {
	for _, s := range []string{"aGVsbG8=", "aGVsbG8", "", "***", "a", "QR==", "QUJD\n", "=", "===="} {
		f.Add(s, []byte("hello"))
	}
	f.Fuzz(func(t *testing.T, s string, b []byte) {
		eq := func(a, b Byte) bool { return bytes.Equal(a, b) }
		roundTrip(t, "Byte", s, parseByte, appendByte, eq)
		v := Byte(b)
		out, _ := appendByte(nil, &v)
		if back, err := parseByte(wire(t, out)); err != nil || !bytes.Equal(back, b) {
			t.Fatalf("appendByte(%q) = %s, read back as %q, %v", b, out, back, err)
		}
	})
}

// FuzzJSON reads arbitrary JSON text, decoded as the router decodes
// variables, as a JSON and a JSONObject.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`[1,{"k":"v"}]`, `{"a":[1,"x"]}`, `{}`, `null`, `1.5`, `"x"`, `[1]`, `{"pages":101}`,
		`1e400`, `123456789012345678901234567890`, `{"a":{"b":null}}`, strings.Repeat("[", 300) + strings.Repeat("]", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var in any
		if d.Decode(&in) != nil || d.More() {
			return
		}
		in = numbers(in)
		// The same JSON text once read back: a float64 with no fraction
		// is written as an integer ("-0" for -0.0), which reads back as
		// an int64.
		text := func(v JSON) []byte {
			out, _ := appendJSON(nil, &v)
			v = wire(t, out)
			out, _ = appendJSON(nil, &v)
			return out
		}
		eq := func(a, b JSON) bool { return bytes.Equal(text(a), text(b)) }
		roundTrip(t, "JSON", in, parseJSON, appendJSON, eq)
		roundTrip(t, "JSONObject", in, parseJSONObject, appendJSONObject, func(a, b JSONObject) bool {
			return eq(map[string]any(a), map[string]any(b))
		})
	})
}

// The cases below are inputs the fuzz targets found; they run with every
// go test.

// TestUUIDHyphensOutOfPlace checks that a hyphen anywhere but between
// the groups is refused: one in the last group read past the end of the
// text (a panic), others shifted the digits and were accepted.
func TestUUIDHyphensOutOfPlace(t *testing.T) {
	for _, s := range []string{
		"00000000-0000-0000-0000--00000000000",
		"-000000--0000-0000-0000-000000000000",
		"0000000--0000-0000-0000-000000000000",
		"00000000-0000-0000-00-0-000000000000",
		"{00000000-0000-0000-0000--00000000000}",
		"urn:uuid:00000000-0000-0000-0000-0000000000-0",
	} {
		if u, err := ParseUUID(s); err != errUUIDForm {
			t.Errorf("ParseUUID(%q) = %s, %v; want %v", s, u, err, errUUIDForm)
		}
	}
	if u, err := ParseUUID("00000000-0000-0000-0000-00000000000a"); err != nil || u[15] != 0x0a {
		t.Errorf("ParseUUID = %s, %v", u, err)
	}
}

// TestDurationsReadBackExactly checks that every duration reads back from
// what the scalar writes, the extremes included, and that input is
// counted in exact nanoseconds, not in float64 (exact only to 2^53 ns,
// about 104 days).
func TestDurationsReadBackExactly(t *testing.T) {
	for _, d := range []time.Duration{math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1<<53 + 1, -(1<<53 + 1), 3000*time.Hour + 1} {
		v := Duration(d)
		out, _ := appendDuration(nil, &v)
		s := strings.Trim(string(out), `"`)
		if back, err := ParseDuration(s); err != nil || back != v {
			t.Errorf("%d is written %s, which reads back as %d, %v", d, s, back, err)
		}
	}
	for s, want := range map[string]time.Duration{
		"PT3000H0.000000001S": 3000*time.Hour + 1, "P0.5W": 84 * time.Hour, "PT0.0000000005S": 1, "PT0.00000000049S": 0,
		"-PT0.0000000005S": -1, "PT0.1234567894999999999999S": 123456789, "PT1.000H1M": time.Hour + time.Minute,
		"P106751DT23H47M16.854775807S": math.MaxInt64, "-P106751DT23H47M16.854775808S": math.MinInt64,
		"PT.5S": time.Second / 2, "PT5.S": 5 * time.Second,
	} {
		got, err := ParseDuration(s)
		if err != nil || time.Duration(got) != want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"P106751DT23H47M16.854775808S", "-P106751DT23H47M16.854775809S", "PT18446744073709551616S",
		"PT" + strings.Repeat("9", 40) + "S", "P1.5.5D", "PT1,5.5S", "PT.S", ".5"} {
		if got, err := ParseDuration(s); err == nil {
			t.Errorf("ParseDuration(%q) = %d, want an error", s, got)
		}
	}
}

// TestJSONDepthIn checks that the JSON scalars refuse input nested deeper
// than they write, instead of accepting a value they then cannot write.
func TestJSONDepthIn(t *testing.T) {
	nest := func(n int) any {
		var v any = "x"
		for range n {
			v = []any{v}
		}
		return v
	}
	for _, n := range []int{maxJSONDepth, maxJSONDepth + 1, 1000} {
		v, err := parseJSON(nest(n))
		out, werr := appendJSON(nil, &v)
		if n <= maxJSONDepth && (err != nil || werr != nil) || n > maxJSONDepth && err == nil {
			t.Errorf("nested %d deep: parse %v, write %.20s %v", n, err, out, werr)
		}
		o, err := parseJSONObject(map[string]any{"a": nest(n - 1)})
		_, werr = appendJSONObject(nil, &o)
		if n <= maxJSONDepth && (err != nil || werr != nil) || n > maxJSONDepth && err == nil {
			t.Errorf("an object nested %d deep: parse %v, write %v", n, err, werr)
		}
	}
}

// routerArgs takes one argument of each scalar, all nullable, and is
// echoed back.
type routerArgs struct {
	JSON         JSON          `graphql:"json"`
	JSONObject   *JSONObject   `graphql:"jsonObject"`
	UUID         *UUID         `graphql:"uuid"`
	BigInt       *BigInt       `graphql:"bigInt"`
	Date         *Date         `graphql:"date"`
	Time         *Time         `graphql:"time"`
	Duration     *Duration     `graphql:"duration"`
	URL          *URL          `graphql:"url"`
	EmailAddress *EmailAddress `graphql:"emailAddress"`
	Byte         *Byte         `graphql:"byte"`
}

// argNames are the argument names of routerArgs, in the order of Names.
var argNames = []string{"json", "jsonObject", "uuid", "bigInt", "date", "time", "duration", "url", "emailAddress", "byte"}

func newEchoClient(t testing.TB) *grafttest.Client {
	b := schema.New()
	Declare(b, Names...)
	schema.Object[routerArgs](b, "Echo")
	schema.Query(b, "echo", func(_ context.Context, a routerArgs) (*routerArgs, error) { return &a, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

// checkEchoAnswer checks an answer to an echo of one scalar: a refusal is
// a coded error, never an internal one or a recovered panic; an accepted
// value is returned as raw JSON.
func checkEchoAnswer(t *testing.T, resp *grafttest.Response, arg string) (json.RawMessage, bool) {
	t.Helper()
	if resp.Status >= 500 {
		t.Fatalf("status %d: %.300s", resp.Status, resp.Body)
	}
	for _, e := range resp.Errors {
		switch e.Code() {
		case "BAD_USER_INPUT", "GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED":
		default:
			t.Fatalf("error %+v", e)
		}
		if strings.Contains(e.Message, "cannot parse the value") || strings.Contains(e.Message, "cannot represent the value:") {
			t.Fatalf("a scalar panicked: %s", e.Message)
		}
	}
	if len(resp.Errors) > 0 {
		if len(resp.Data) != 0 && string(resp.Data) != "null" {
			t.Fatalf("data with a refusal: %.300s", resp.Body)
		}
		return nil, false
	}
	var data struct{ Echo map[string]json.RawMessage }
	if err := json.Unmarshal(resp.Data, &data); err != nil || data.Echo == nil {
		t.Fatalf("data %.300s: %v", resp.Data, err)
	}
	return data.Echo[arg], true
}

// FuzzRouterScalars sends arbitrary values of each scalar through a
// router, as a variable (a JSON string, or the JSON text itself when it
// is JSON) and as a literal: every refusal is a coded error without a
// panic, and what is accepted is echoed as a value that, sent back,
// echoes the same.
func FuzzRouterScalars(f *testing.F) {
	for i, c := range [][2]string{
		{`{"b":[1,"x",null,true,1.5],"a":{}}`, `{a: [1, "x"]}`}, {`{"pages":101}`, `{k: 1}`},
		{"urn:uuid:123e4567-e89b-12d3-a456-426614174000", `"{123E4567-E89B-12D3-A456-426614174000}"`},
		{"9007199254740993", `"9223372036854775807"`}, {"2000-01-02", `"2024-02-29"`}, {"23:59:59.25Z", `"10:15:30+01:00"`},
		{"-PT1.5S", `"P1DT2H"`}, {"https://example.com", `"mailto:a@example.com"`}, {"x@y.z", `"a.b+c@example.co.uk"`}, {"", `"aGVsbG8"`},
	} {
		f.Add(uint8(i), c[0], c[1])
	}
	f.Add(uint8(2), "00000000-0000-0000-0000--00000000000", `"00000000-0000-0000-0000--00000000000"`)
	f.Add(uint8(6), "PT2562047H47M16.854775807S", `"-PT2562047H47M16.854775808S"`)
	f.Add(uint8(0), strings.Repeat("[", 300)+strings.Repeat("]", 300), strings.Repeat("[", 300)+strings.Repeat("]", 300))
	f.Add(uint8(3), "1e400", "1.0")
	c := newEchoClient(f)
	f.Fuzz(func(t *testing.T, which uint8, variable, literal string) {
		i := int(which) % len(Names)
		scalar, arg := Names[i], argNames[i]
		query := `query($v: ` + scalar + `) { echo(` + arg + `: $v) { ` + arg + ` } }`
		sends := []any{variable}
		if json.Valid([]byte(variable)) {
			sends = append(sends, json.RawMessage(variable))
		}
		answers := []*grafttest.Response{}
		for _, v := range sends {
			answers = append(answers, c.Do(t, query, map[string]any{"v": v}))
		}
		answers = append(answers, c.Do(t, `{ echo(`+arg+`: `+literal+`) { `+arg+` } }`, nil))
		for _, resp := range answers {
			out, ok := checkEchoAnswer(t, resp, arg)
			if !ok {
				continue
			}
			back := c.Do(t, query, map[string]any{"v": out})
			again, ok := checkEchoAnswer(t, back, arg)
			if !ok || !bytes.Equal(again, out) {
				t.Fatalf("%s echoes %s, which sent back echoes %.300s", scalar, out, back.Body)
			}
		}
	})
}

// TestRefusalsAreValidUTF8 checks that a refusal quoting a long input
// does not cut a character in two.
func TestRefusalsAreValidUTF8(t *testing.T) {
	for n := 110; n < 120; n++ {
		_, err := parseUUID(strings.Repeat("a", n) + "χχχχχχχχ")
		if err == nil || !utf8.ValidString(err.Error()) {
			t.Errorf("input of %d bytes: %q", n, err)
		}
	}
}

// TestRefusalsAreBounded checks that a refusal does not repeat a long
// input in full: the Duration range error did.
func TestRefusalsAreBounded(t *testing.T) {
	long := "P" + strings.Repeat("9", 100000) + "W"
	for _, err := range []error{
		func() error { _, err := parseDuration(long); return err }(),
		func() error { _, err := ParseDuration(long); return err }(),
		func() error { _, err := parseUUID(long); return err }(),
		func() error { _, err := parseDate(long); return err }(),
		func() error { _, err := parseTime(long); return err }(),
		func() error { _, err := parseURL("http://" + long + " x"); return err }(),
		func() error { _, err := parseEmail(long); return err }(),
		func() error { _, err := parseByte(long + "*"); return err }(),
		func() error { _, err := parseBigInt(long); return err }(),
	} {
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("error of %d bytes: %.200q", len(fmt.Sprint(err)), fmt.Sprint(err))
		}
	}
}
