package check

import (
	"testing"

	"github.com/graftgql/graft/bench/workload"
)

func TestAnswer(t *testing.T) {
	q1 := workload.Queries()[0]
	q4 := workload.Queries()[3]
	want := []byte(`{"data":{"a":1,"b":[{"c":"x","d":2}]}}`)
	tests := []struct {
		name string
		q    workload.Query
		got  string
		mode Mode
		ok   bool
	}{
		{"exact bytes pass exact", q1, `{"data":{"a":1,"b":[{"c":"x","d":2}]}}`, Exact, true},
		{"a trailing newline passes exact", q1, `{"data":{"a":1,"b":[{"c":"x","d":2}]}}` + "\n", Exact, true},
		{"reordered keys fail exact", q1, `{"data":{"b":[{"d":2,"c":"x"}],"a":1}}`, Exact, false},
		{"reordered keys pass normalised", q1, `{"data":{"b":[{"d":2,"c":"x"}],"a":1}}`, Normalised, true},
		{"a wrong value fails normalised", q1, `{"data":{"a":2,"b":[{"c":"x","d":2}]}}`, Normalised, false},
		{"reordered list fails normalised", q1, `{"data":{"a":1,"b":[{"c":"x","d":2},{"c":"y"}]}}`, Normalised, false},
		{"an extra errors key fails", q1, `{"data":{"a":1,"b":[{"c":"x","d":2}]},"errors":[]}`, Normalised, false},
		{"not JSON fails", q1, `{"data":`, Normalised, false},
		{"introspection with types passes", q4, `{"data":{"__schema":{"types":[]}}}`, Exact, true},
		{"introspection with errors fails", q4, `{"errors":[{"message":"no"}],"data":{"__schema":{"types":[]}}}`, Exact, false},
		{"introspection without schema fails", q4, `{"data":{}}`, Exact, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Answer(tt.q, []byte(tt.got), want, tt.mode)
			if (err == nil) != tt.ok {
				t.Errorf("Answer() = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}
