package graft_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// money is a custom scalar: a non-negative whole number of cents.
type money int64

func (m money) MarshalGraphQL() (any, error) { return int64(m), nil }

func (m *money) UnmarshalGraphQL(v any) error {
	n, ok := v.(int64)
	if !ok || n < 0 {
		return errors.New("money is a non-negative whole number of cents")
	}
	*m = money(n)
	return nil
}

type payArgs struct {
	Amount money
	At     time.Time
}

type scalarArgs struct {
	S *string
	I *schema.ID
	N *int32
}

// coercionRouter serves a mutation that counts its runs, and fields whose
// arguments are custom scalars and built-in scalars.
func coercionRouter(t *testing.T, runs *atomic.Int32) *graft.Router {
	t.Helper()
	b := schema.New()
	schema.Scalar[money](b, "Money")
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "world", nil })
	schema.Query(b, "echo", func(ctx context.Context, a scalarArgs) (string, error) {
		var parts []string
		if a.S != nil {
			parts = append(parts, "s="+*a.S)
		}
		if a.I != nil {
			parts = append(parts, "i="+string(*a.I))
		}
		return strings.Join(parts, ","), nil
	})
	schema.MutationNoArgs(b, "bump", func(ctx context.Context) (int, error) { return int(runs.Add(1)), nil })
	schema.Mutation(b, "pay", func(ctx context.Context, a payArgs) (string, error) {
		runs.Add(1)
		return a.At.UTC().Format(time.RFC3339), nil
	})
	r, err := graft.ToRouter(b, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type wireAnswer struct {
	status  int
	code    string
	message string
	body    string
}

func postRaw(t *testing.T, r *graft.Router, body string) wireAnswer {
	t.Helper()
	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	var resp struct {
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatalf("body %s: %v", rec.Body, err)
	}
	a := wireAnswer{status: rec.Code, body: rec.Body.String()}
	if len(resp.Errors) > 0 {
		a.message = resp.Errors[0].Message
		a.code, _ = resp.Errors[0].Extensions["code"].(string)
	}
	return a
}

func TestBadCustomScalarVariableStopsTheRequestBeforeAnythingRuns(t *testing.T) {
	const mutation = `mutation($amount: Money!, $at: DateTime!) { bump pay(amount: $amount, at: $at) }`
	tests := []struct {
		name string
		vars string
		msg  string
	}{
		{"bad DateTime", `{"amount":5,"at":"yesterday"}`,
			`Variable "$at" got invalid value "yesterday"; Expected type "DateTime". DateTime cannot represent "yesterday": not an RFC 3339 date-time`},
		{"bad custom scalar", `{"amount":-5,"at":"2026-01-02T03:04:05Z"}`,
			`Variable "$amount" got invalid value -5; Expected type "Money". money is a non-negative whole number of cents`},
		{"custom scalar of the wrong kind", `{"amount":"five","at":"2026-01-02T03:04:05Z"}`,
			`Variable "$amount" got invalid value "five"; Expected type "Money". money is a non-negative whole number of cents`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var runs atomic.Int32
			r := coercionRouter(t, &runs)
			a := postRaw(t, r, `{"query":`+jsonString(mutation)+`,"variables":`+tc.vars+`}`)
			if a.status != 400 || a.code != graft.CodeBadUserInput || a.message != tc.msg {
				t.Fatalf("got %d %s %q\nwant 400 BAD_USER_INPUT %q", a.status, a.code, a.message, tc.msg)
			}
			if n := runs.Load(); n != 0 {
				t.Fatalf("%d root mutations ran", n)
			}
		})
	}
	t.Run("good values run", func(t *testing.T) {
		var runs atomic.Int32
		r := coercionRouter(t, &runs)
		a := postRaw(t, r, `{"query":`+jsonString(mutation)+`,"variables":{"amount":5,"at":"2026-01-02T03:04:05+01:00"}}`)
		if a.status != 200 || a.body != `{"data":{"bump":1,"pay":"2026-01-02T02:04:05Z"}}` {
			t.Fatalf("%d %s", a.status, a.body)
		}
	})
}

// TestBadCustomScalarLiteralIsBadUserInput checks that a literal the
// scalar's parser refuses fails before anything runs, with 400 and
// BAD_USER_INPUT as a bad variable of the scalar does.
func TestBadCustomScalarLiteralIsBadUserInput(t *testing.T) {
	var runs atomic.Int32
	r := coercionRouter(t, &runs)
	for _, q := range []string{
		`mutation { bump pay(amount: 5, at: "soon") }`,
		`mutation { bump pay(amount: -1, at: "2026-01-02T03:04:05Z") }`,
	} {
		a := postRaw(t, r, `{"query":`+jsonString(q)+`}`)
		if a.status != 400 || a.code != graft.CodeBadUserInput || !strings.HasPrefix(a.message, `Expected value of type "`) {
			t.Fatalf("%s: %d %s %q", q, a.status, a.code, a.message)
		}
	}
	if runs.Load() != 0 {
		t.Fatal("a mutation ran")
	}
}

func TestVariableErrorsSpeakGraphQL(t *testing.T) {
	var runs atomic.Int32
	r := coercionRouter(t, &runs)
	tests := []struct {
		query, vars, msg string
	}{
		{`query($n: Int) { echo(n: $n) }`, `{"n":1.5}`, `Variable "$n" got invalid value 1.5; Int cannot represent non-integer value: 1.5`},
		{`query($n: Int) { echo(n: $n) }`, `{"n":[1]}`, `Variable "$n" got invalid value [1]; Int cannot represent non-integer value: [1]`},
		{`query($n: Int) { echo(n: $n) }`, `{"n":{"a":1}}`, `Variable "$n" got invalid value { a: 1 }; Int cannot represent non-integer value: { a: 1 }`},
		{`query($n: Int) { echo(n: $n) }`, `{"n":4294967296}`, `Variable "$n" got invalid value 4294967296; Int cannot represent non 32-bit signed integer value: 4294967296`},
		{`query($s: String) { echo(s: $s) }`, `{"s":true}`, `Variable "$s" got invalid value true; String cannot represent a non string value: true`},
		{`query($s: String!) { echo(s: $s) }`, `{}`, `Variable "$s" of required type "String!" was not provided.`},
		{`query($s: String!) { echo(s: $s) }`, `{"s":null}`, `Variable "$s" of non-null type "String!" must not be null.`},
	}
	for _, tc := range tests {
		a := postRaw(t, r, `{"query":`+jsonString(tc.query)+`,"variables":`+tc.vars+`}`)
		if a.status != 400 || a.code != graft.CodeBadUserInput || a.message != tc.msg {
			t.Errorf("%s %s:\n got %d %s %q\nwant 400 BAD_USER_INPUT %q", tc.query, tc.vars, a.status, a.code, a.message, tc.msg)
		}
		for _, goWord := range []string{"float64", "int64", "slice", "map[", "<"} {
			if strings.Contains(a.message, goWord) {
				t.Errorf("message %q names a Go type", a.message)
			}
		}
	}
}

func TestJSONNumberIsNotAStringAndIDTakesOnlyIntegers(t *testing.T) {
	var runs atomic.Int32
	r := coercionRouter(t, &runs)
	refused := []struct{ query, vars string }{
		{`query($s: String!) { echo(s: $s) }`, `{"s":1e309}`},
		{`query($s: String!) { echo(s: $s) }`, `{"s":12}`},
		{`query($i: ID!) { echo(i: $i) }`, `{"i":1e309}`},
		{`query($i: ID!) { echo(i: $i) }`, `{"i":1.5}`},
		{`query($i: ID!) { echo(i: $i) }`, `{"i":true}`},
	}
	for _, tc := range refused {
		a := postRaw(t, r, `{"query":`+jsonString(tc.query)+`,"variables":`+tc.vars+`}`)
		if a.status != 400 || a.code != graft.CodeBadUserInput {
			t.Errorf("%s %s: %d %s", tc.query, tc.vars, a.status, a.body)
		}
	}
	accepted := []struct{ vars, want string }{
		{`{"i":12}`, `{"data":{"echo":"i=12"}}`},
		{`{"i":"abc"}`, `{"data":{"echo":"i=abc"}}`},
		{`{"i":123456789012345678901234567890}`, `{"data":{"echo":"i=123456789012345678901234567890"}}`},
	}
	for _, tc := range accepted {
		a := postRaw(t, r, `{"query":"query($i: ID!) { echo(i: $i) }","variables":`+tc.vars+`}`)
		if a.status != 200 || a.body != tc.want {
			t.Errorf("%s: %d %s", tc.vars, a.status, a.body)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
