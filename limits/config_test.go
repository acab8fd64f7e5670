package limits

import (
	"encoding/json"
	"math"
	"testing"
)

func TestCheck(t *testing.T) {
	full := Config{MaxDepth: 10, MaxComplexity: 100, MaxFields: 50, MaxAliases: 5, MaxDirectives: 3}
	within := Result{Depth: 10, Complexity: 100, Fields: 50, Aliases: 5, Directives: 3, IntrospectionDepth: 20, IntrospectionLists: 3, IntrospectionRoots: 5}
	tests := []struct {
		name        string
		cfg         Config
		res         Result
		wantType    string // "" for no error
		wantLimit   int
		wantActual  int
		wantMessage string
	}{
		{name: "every measure at its limit passes", cfg: full, res: within},
		{name: "zero config leaves ordinary fields unlimited", cfg: Config{}, res: Result{Depth: math.MaxInt, Complexity: math.MaxInt, Fields: math.MaxInt, Aliases: math.MaxInt, Directives: math.MaxInt}},
		{name: "depth just under passes", cfg: Config{MaxDepth: 10}, res: Result{Depth: 9}},
		{name: "depth at the limit passes", cfg: Config{MaxDepth: 10}, res: Result{Depth: 10}},
		{
			name: "depth just over fails", cfg: Config{MaxDepth: 10}, res: Result{Depth: 11},
			wantType: "depth", wantLimit: 10, wantActual: 11,
			wantMessage: "Query depth of 11 exceeds maximum allowed depth of 10",
		},
		{name: "complexity just under passes", cfg: Config{MaxComplexity: 100}, res: Result{Complexity: 99}},
		{name: "complexity at the limit passes", cfg: Config{MaxComplexity: 100}, res: Result{Complexity: 100}},
		{
			name: "complexity just over fails", cfg: Config{MaxComplexity: 100}, res: Result{Complexity: 101},
			wantType: "complexity", wantLimit: 100, wantActual: 101,
			wantMessage: "Query complexity of 101 exceeds maximum allowed complexity of 100",
		},
		{name: "aliases just under passes", cfg: Config{MaxAliases: 5}, res: Result{Aliases: 4}},
		{name: "aliases at the limit passes", cfg: Config{MaxAliases: 5}, res: Result{Aliases: 5}},
		{
			name: "aliases just over fails", cfg: Config{MaxAliases: 5}, res: Result{Aliases: 6},
			wantType: "aliases", wantLimit: 5, wantActual: 6,
			wantMessage: "Query aliases of 6 exceeds maximum allowed aliases of 5",
		},
		{name: "fields just under passes", cfg: Config{MaxFields: 50}, res: Result{Fields: 49}},
		{name: "fields at the limit passes", cfg: Config{MaxFields: 50}, res: Result{Fields: 50}},
		{
			name: "fields just over fails", cfg: Config{MaxFields: 50}, res: Result{Fields: 51},
			wantType: "fields", wantLimit: 50, wantActual: 51,
			wantMessage: "Query fields of 51 exceeds maximum allowed fields of 50",
		},
		{name: "directives just under passes", cfg: Config{MaxDirectives: 3}, res: Result{Directives: 2}},
		{name: "directives at the limit passes", cfg: Config{MaxDirectives: 3}, res: Result{Directives: 3}},
		{
			name: "directives just over fails", cfg: Config{MaxDirectives: 3}, res: Result{Directives: 4},
			wantType: "directives", wantLimit: 3, wantActual: 4,
			wantMessage: "Query directives of 4 exceeds maximum allowed directives of 3",
		},
		{name: "default introspection depth at the limit passes", cfg: Config{}, res: Result{IntrospectionDepth: DefaultMaxIntrospectionDepth}},
		{
			name: "default introspection depth just over fails", cfg: Config{}, res: Result{IntrospectionDepth: DefaultMaxIntrospectionDepth + 1},
			wantType: "introspectionDepth", wantLimit: DefaultMaxIntrospectionDepth, wantActual: DefaultMaxIntrospectionDepth + 1,
			wantMessage: "Query introspection depth of 21 exceeds maximum allowed introspection depth of 20",
		},
		{name: "default introspection lists at the limit pass", cfg: Config{}, res: Result{IntrospectionLists: DefaultMaxIntrospectionLists}},
		{
			name: "default introspection lists just over fail", cfg: Config{}, res: Result{IntrospectionLists: DefaultMaxIntrospectionLists + 1},
			wantType: "introspectionLists", wantLimit: DefaultMaxIntrospectionLists, wantActual: DefaultMaxIntrospectionLists + 1,
			wantMessage: "Query introspection lists of 4 exceeds maximum allowed introspection lists of 3",
		},
		{name: "default introspection roots at the limit pass", cfg: Config{}, res: Result{IntrospectionRoots: DefaultMaxIntrospectionRoots}},
		{
			name: "configured introspection roots just over fail", cfg: Config{MaxIntrospectionRoots: 1}, res: Result{IntrospectionRoots: 2},
			wantType: "introspectionRoots", wantLimit: 1, wantActual: 2,
			wantMessage: "Query introspection roots of 2 exceeds maximum allowed introspection roots of 1",
		},
		{
			name: "introspection depth is reported before lists and roots", cfg: Config{}, res: Result{IntrospectionDepth: 21, IntrospectionLists: 9, IntrospectionRoots: 9},
			wantType: "introspectionDepth", wantLimit: DefaultMaxIntrospectionDepth, wantActual: 21,
			wantMessage: "Query introspection depth of 21 exceeds maximum allowed introspection depth of 20",
		},
		{
			name: "configured introspection depth just over fails", cfg: Config{MaxIntrospectionDepth: 3}, res: Result{IntrospectionDepth: 4},
			wantType: "introspectionDepth", wantLimit: 3, wantActual: 4,
			wantMessage: "Query introspection depth of 4 exceeds maximum allowed introspection depth of 3",
		},
		{
			name: "negative introspection limits are unlimited", cfg: Config{MaxIntrospectionDepth: -1, MaxIntrospectionLists: -1, MaxIntrospectionRoots: -1, MaxIntrospectionFields: -1},
			res: Result{IntrospectionDepth: 1000, IntrospectionLists: 1000, IntrospectionRoots: 1000, IntrospectionFields: math.MaxInt},
		},
		{name: "default introspection fields at the limit pass", cfg: Config{}, res: Result{IntrospectionFields: DefaultMaxIntrospectionFields}},
		{
			name: "default introspection fields just over fail", cfg: Config{}, res: Result{IntrospectionFields: DefaultMaxIntrospectionFields + 1},
			wantType: "introspectionFields", wantLimit: DefaultMaxIntrospectionFields, wantActual: DefaultMaxIntrospectionFields + 1,
			wantMessage: "Query introspection fields of 1001 exceeds maximum allowed introspection fields of 1000",
		},
		{
			name: "depth is reported before complexity", cfg: full, res: Result{Depth: 11, Complexity: 101, Aliases: 6, Fields: 51, Directives: 4},
			wantType: "depth", wantLimit: 10, wantActual: 11,
			wantMessage: "Query depth of 11 exceeds maximum allowed depth of 10",
		},
		{
			name: "complexity is reported before aliases", cfg: full, res: Result{Complexity: 101, Aliases: 6, Fields: 51, Directives: 4},
			wantType: "complexity", wantLimit: 100, wantActual: 101,
			wantMessage: "Query complexity of 101 exceeds maximum allowed complexity of 100",
		},
		{
			name: "aliases are reported before fields", cfg: full, res: Result{Aliases: 6, Fields: 51, Directives: 4},
			wantType: "aliases", wantLimit: 5, wantActual: 6,
			wantMessage: "Query aliases of 6 exceeds maximum allowed aliases of 5",
		},
		{
			name: "fields are reported before directives", cfg: full, res: Result{Fields: 51, Directives: 4},
			wantType: "fields", wantLimit: 50, wantActual: 51,
			wantMessage: "Query fields of 51 exceeds maximum allowed fields of 50",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Check(tt.res)
			if tt.wantType == "" {
				if err != nil {
					t.Fatalf("got error %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("got no error, want %s", tt.wantType)
			}
			if err.Message != tt.wantMessage {
				t.Errorf("message %q, want %q", err.Message, tt.wantMessage)
			}
			// The extensions as a client sees them, after JSON encoding.
			body, mErr := json.Marshal(err)
			if mErr != nil {
				t.Fatal(mErr)
			}
			var wire struct {
				Message    string `json:"message"`
				Extensions struct {
					Code      string `json:"code"`
					LimitType string `json:"limitType"`
					Limit     int    `json:"limit"`
					Actual    int    `json:"actual"`
				} `json:"extensions"`
			}
			if uErr := json.Unmarshal(body, &wire); uErr != nil {
				t.Fatal(uErr)
			}
			ext := wire.Extensions
			if ext.Code != "COMPLEXITY_LIMIT_EXCEEDED" || ext.LimitType != tt.wantType ||
				ext.Limit != tt.wantLimit || ext.Actual != tt.wantActual || wire.Message != tt.wantMessage {
				t.Errorf("wire form %s, want code COMPLEXITY_LIMIT_EXCEEDED, limitType %s, limit %d, actual %d",
					body, tt.wantType, tt.wantLimit, tt.wantActual)
			}
		})
	}
}

func TestResultAppendJSON(t *testing.T) {
	r := Result{Depth: 3, Complexity: 1101, Fields: 5, Aliases: 2, Directives: 1, IntrospectionDepth: 4}
	got := string(r.AppendJSON([]byte("x")))
	want := `x{"depth":3,"complexity":1101,"fields":5,"aliases":2}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if !json.Valid([]byte(got[1:])) {
		t.Errorf("not valid JSON: %s", got[1:])
	}
}
