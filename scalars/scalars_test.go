package scalars_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/scalars"
	"github.com/graftgql/graft/schema"
)

// values holds one value of each scalar's Go type.
type values struct {
	JSON         scalars.JSON         `graphql:"json"`
	JSONObject   scalars.JSONObject   `graphql:"jsonObject"`
	UUID         scalars.UUID         `graphql:"uuid"`
	BigInt       scalars.BigInt       `graphql:"bigInt"`
	Date         scalars.Date         `graphql:"date"`
	Time         scalars.Time         `graphql:"time"`
	Duration     scalars.Duration     `graphql:"duration"`
	URL          scalars.URL          `graphql:"url"`
	EmailAddress scalars.EmailAddress `graphql:"emailAddress"`
	Byte         scalars.Byte         `graphql:"byte"`
}

// echoArgs takes one argument of each scalar, all nullable.
type echoArgs struct {
	JSON         scalars.JSON          `graphql:"json"`
	JSONObject   *scalars.JSONObject   `graphql:"jsonObject"`
	UUID         *scalars.UUID         `graphql:"uuid"`
	BigInt       *scalars.BigInt       `graphql:"bigInt"`
	Date         *scalars.Date         `graphql:"date"`
	Time         *scalars.Time         `graphql:"time"`
	Duration     *scalars.Duration     `graphql:"duration"`
	URL          *scalars.URL          `graphql:"url"`
	EmailAddress *scalars.EmailAddress `graphql:"emailAddress"`
	Byte         *scalars.Byte         `graphql:"byte"`
}

func newClient(t *testing.T, good, bad values, opts scalars.Options) *grafttest.Client {
	t.Helper()
	b := schema.New()
	opts.Declare(b, scalars.Names...)
	schema.Object[values](b, "Values")
	schema.QueryNoArgs(b, "good", func(context.Context) (values, error) { return good, nil })
	schema.QueryNoArgs(b, "bad", func(context.Context) (*values, error) { return &bad, nil })
	schema.Query(b, "echo", func(_ context.Context, a echoArgs) (*echoArgs, error) { return &a, nil })
	schema.Object[echoArgs](b, "Echo")
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

func goodValues() values {
	u, _ := scalars.ParseURL("https://example.com/a?b=c")
	return values{
		JSON:         map[string]any{"b": []any{1, "x", nil, true, 1.5}, "a": map[string]any{}},
		JSONObject:   scalars.JSONObject{"pages": 101},
		UUID:         scalars.UUID{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00},
		BigInt:       9007199254740993,
		Date:         scalars.Date{Year: 2000, Month: time.January, Day: 2},
		Time:         scalars.Time{Hour: 10, Minute: 15, Second: 30, Nanosecond: 500000000},
		Duration:     scalars.Duration(90*time.Minute + 500*time.Millisecond),
		URL:          u,
		EmailAddress: "author1@example.com",
		Byte:         scalars.Byte("hello"),
	}
}

const allFields = `{ JSON JSONObject UUID BigInt Date Time Duration URL EmailAddress Byte }`

func TestScalarsWriteTheirValues(t *testing.T) {
	c := newClient(t, goodValues(), values{}, scalars.Options{})
	resp := c.Do(t, `{ good { json jsonObject uuid bigInt date time duration url emailAddress byte } }`, nil)
	resp.NoErrors(t)
	want := `{"good":{"json":{"a":{},"b":[1,"x",null,true,1.5]},"jsonObject":{"pages":101},` +
		`"uuid":"123e4567-e89b-12d3-a456-426614174000","bigInt":"9007199254740993","date":"2000-01-02",` +
		`"time":"10:15:30.5Z","duration":"PT1H30M0.5S","url":"https://example.com/a?b=c",` +
		`"emailAddress":"author1@example.com","byte":"aGVsbG8="}}`
	if string(resp.Data) != want {
		t.Errorf("data = %s\nwant   %s", resp.Data, want)
	}
}

func TestBigIntIsANumberWithinTwoToThe53(t *testing.T) {
	for _, tc := range []struct {
		opts scalars.Options
		v    scalars.BigInt
		want string
	}{
		{scalars.Options{}, 9007199254740991, `9007199254740991`},
		{scalars.Options{}, -9007199254740991, `-9007199254740991`},
		{scalars.Options{}, 9007199254740992, `"9007199254740992"`},
		{scalars.Options{}, -9223372036854775808, `"-9223372036854775808"`},
		{scalars.Options{BigIntStrings: true}, 7, `"7"`},
	} {
		v := goodValues()
		v.BigInt = tc.v
		c := newClient(t, v, values{}, tc.opts)
		resp := c.Do(t, `{ good { bigInt } }`, nil)
		resp.NoErrors(t)
		if want := `{"good":{"bigInt":` + tc.want + `}}`; string(resp.Data) != want {
			t.Errorf("%d (%+v): %s, want %s", tc.v, tc.opts, resp.Data, want)
		}
	}
}

// TestBadGoValuesAreFieldErrors checks that a Go value a scalar cannot
// represent is an error at its own field, and the other fields are
// written, without a panic.
func TestBadGoValuesAreFieldErrors(t *testing.T) {
	bad := goodValues()
	bad.JSON = map[string]any{"ch": make(chan int)}
	bad.JSONObject = nil
	bad.Date = scalars.Date{Year: 2001, Month: 2, Day: 29}
	bad.Time = scalars.Time{Hour: 24}
	bad.URL = scalars.URL{URL: url.URL{Path: "relative"}}
	bad.EmailAddress = "not an address"
	c := newClient(t, goodValues(), bad, scalars.Options{})
	fields := []string{"json", "jsonObject", "date", "time", "url", "emailAddress"}
	q := "{ good { uuid }"
	for _, f := range fields {
		q += " " + f + ": bad { " + f + " }"
	}
	resp := c.Do(t, q+" }", nil)
	if resp.Status != 200 || !strings.HasPrefix(string(resp.Data), `{"good":{"uuid":"123e4567-e89b-12d3-a456-426614174000"},"json":{"json":null},"jsonObject":null,`) {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	msgs := map[string]string{}
	for _, e := range resp.Errors {
		msgs[e.Path[0].(string)] = e.Message
	}
	for field, want := range map[string]string{
		"json":         "JSON cannot represent a chan int",
		"jsonObject":   "JSONObject cannot represent a nil map",
		"date":         "Date cannot represent 2001-02-29: not a date",
		"time":         "Time cannot represent 24:00:00.000000000: not a time of day",
		"url":          `URL cannot represent a relative URL "relative"`,
		"emailAddress": `EmailAddress cannot represent "not an address": not an email address`,
	} {
		if !strings.HasPrefix(msgs[field], want) {
			t.Errorf("%s: error %q, want %q", field, msgs[field], want)
		}
	}
}

func TestGoodInputsRoundTrip(t *testing.T) {
	c := newClient(t, goodValues(), values{}, scalars.Options{})
	q := `query($j: JSON, $u: UUID, $b: BigInt, $d: Date, $t: Time, $du: Duration, $url: URL, $e: EmailAddress, $by: Byte, $o: JSONObject) {
		vars: echo(json: $j, uuid: $u, bigInt: $b, date: $d, time: $t, duration: $du, url: $url, emailAddress: $e, byte: $by, jsonObject: $o) { json uuid bigInt date time duration url emailAddress byte jsonObject }
		lits: echo(json: {a: [1, "x"]}, uuid: "{123E4567-E89B-12D3-A456-426614174000}", bigInt: "9223372036854775807", date: "2024-02-29",
			time: "10:15:30+01:00", duration: "P1DT2H", url: "mailto:a@example.com", emailAddress: "a.b+c@example.co.uk", byte: "aGVsbG8", jsonObject: {k: 1}) { json uuid bigInt date time duration url emailAddress byte jsonObject }
	}`
	resp := c.Do(t, q, map[string]any{
		"j": []any{1, map[string]any{"k": "v"}}, "u": "urn:uuid:123e4567-e89b-12d3-a456-426614174000", "b": int64(9007199254740993),
		"d": "2000-01-02", "t": "23:59:59.25Z", "du": "-PT1.5S", "url": "https://example.com", "e": "x@y.z", "by": "", "o": map[string]any{},
	})
	resp.NoErrors(t)
	want := `{"vars":{"json":[1,{"k":"v"}],"uuid":"123e4567-e89b-12d3-a456-426614174000","bigInt":"9007199254740993","date":"2000-01-02",` +
		`"time":"23:59:59.25Z","duration":"-PT1.5S","url":"https://example.com","emailAddress":"x@y.z","byte":"","jsonObject":{}},` +
		`"lits":{"json":{"a":[1,"x"]},"uuid":"123e4567-e89b-12d3-a456-426614174000","bigInt":"9223372036854775807","date":"2024-02-29",` +
		`"time":"09:15:30Z","duration":"PT26H","url":"mailto:a@example.com","emailAddress":"a.b+c@example.co.uk","byte":"aGVsbG8=","jsonObject":{"k":1}}}`
	if string(resp.Data) != want {
		t.Errorf("data = %s\nwant   %s", resp.Data, want)
	}
}

// TestBadInputsAreBadUserInput checks each scalar's refusals, as a
// literal and as a variable: 400, BAD_USER_INPUT, a message naming the
// scalar, and nothing run.
func TestBadInputsAreBadUserInput(t *testing.T) {
	c := newClient(t, goodValues(), values{}, scalars.Options{})
	for _, tc := range []struct {
		scalar, arg string
		literal     string
		variable    any
	}{
		{"UUID", "uuid", `"123e4567-e89b-12d3-a456-42661417400"`, "123e4567e89b12d3a456426614174000"},
		{"UUID", "uuid", `5`, 5},
		{"BigInt", "bigInt", `"9223372036854775808"`, "12x"},
		{"BigInt", "bigInt", `1.5`, 1.5},
		{"Date", "date", `"2001-02-29"`, "2000-1-2"},
		{"Date", "date", `"2000-01-02T00:00:00Z"`, 20000102},
		{"Time", "time", `"25:00:00Z"`, "10:15:30"},
		{"Duration", "duration", `"P1Y"`, "P1M"},
		{"Duration", "duration", `"PT"`, "1h"},
		{"URL", "url", `"/relative"`, "example.com"},
		{"EmailAddress", "emailAddress", `"a@"`, "Name <a@example.com>"},
		{"EmailAddress", "emailAddress", `true`, "a@b@c"},
		{"Byte", "byte", `"***"`, "a"},
		{"JSONObject", "jsonObject", `[1]`, "x"},
	} {
		lit := c.Do(t, `{ echo(`+tc.arg+`: `+tc.literal+`) { json } }`, nil)
		e := lit.WantError(t, 400, graft.CodeBadUserInput)
		if !strings.Contains(e.Message, `"`+tc.scalar+`"`) || !strings.Contains(e.Message, tc.scalar+" cannot represent") {
			t.Errorf("%s literal %s: message %q does not name the scalar", tc.scalar, tc.literal, e.Message)
		}
		v := c.Do(t, `query($v: `+tc.scalar+`) { echo(`+tc.arg+`: $v) { json } }`, map[string]any{"v": tc.variable})
		e = v.WantError(t, 400, graft.CodeBadUserInput)
		if !strings.Contains(e.Message, `Expected type "`+tc.scalar+`"`) || !strings.Contains(e.Message, tc.scalar+" cannot represent") {
			t.Errorf("%s variable %v: message %q does not name the scalar", tc.scalar, tc.variable, e.Message)
		}
	}
}

func TestDeclarePrintsSpecifiedBy(t *testing.T) {
	b := schema.New()
	scalars.Declare(b, "Date", "EmailAddress")
	schema.QueryNoArgs(b, "today", func(context.Context) (scalars.Date, error) { return scalars.Date{}, nil })
	schema.QueryNoArgs(b, "me", func(context.Context) (*scalars.EmailAddress, error) { return nil, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`scalar Date @specifiedBy(url: "https://the-guild.dev/graphql/scalars/docs/scalars/date")`,
		`scalar EmailAddress @specifiedBy(url: "https://the-guild.dev/graphql/scalars/docs/scalars/email-address")`,
		"today: Date!", "me: EmailAddress\n",
	} {
		if !strings.Contains(s.SDL(), want) {
			t.Errorf("SDL lacks %q:\n%s", want, s.SDL())
		}
	}
	if strings.Contains(s.SDL(), "scalar UUID") {
		t.Error("an undeclared scalar is printed")
	}
}

func TestDeclareRefusesAnUnknownName(t *testing.T) {
	b := schema.New()
	scalars.Declare(b, "Decimal")
	schema.QueryNoArgs(b, "x", func(context.Context) (bool, error) { return true, nil })
	if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), `unknown scalar "Decimal"`) {
		t.Fatalf("Build = %v", err)
	}
}

type panicky struct{}

func (panicky) MarshalGraphQL() (any, error)  { panic("boom") }
func (*panicky) UnmarshalGraphQL(v any) error { panic("boom") }

// TestAPanickingCustomScalarIsAFieldError checks that a custom scalar
// declared with schema.Scalar whose methods panic fails its own field
// (output) or the request as bad input, without ending the execution.
func TestAPanickingCustomScalarIsAFieldError(t *testing.T) {
	b := schema.New()
	schema.Scalar[panicky](b, "Panicky")
	schema.QueryNoArgs(b, "p", func(context.Context) (*panicky, error) { return &panicky{}, nil })
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	schema.Query(b, "in", func(context.Context, struct{ P *panicky }) (bool, error) { return true, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := grafttest.New(r)
	resp := c.Do(t, `{ p ok }`, nil)
	if resp.Status != 200 || string(resp.Data) != `{"p":null,"ok":true}` || len(resp.Errors) != 1 ||
		!strings.Contains(resp.Errors[0].Message, "Panicky cannot represent the value: boom") {
		t.Fatalf("%d %s", resp.Status, resp.Body)
	}
	c.Do(t, `query($p: Panicky) { in(p: $p) }`, map[string]any{"p": 1}).WantError(t, 400, graft.CodeBadUserInput)
	c.Do(t, `{ in(p: 1) }`, nil).WantError(t, 400, graft.CodeBadUserInput)
}
