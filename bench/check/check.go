// Package check decides whether a server's answer to a workload query is
// correct, by comparison with the ceiling's precomputed answer.
package check

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/graftgql/graft/bench/workload"
)

// Mode says how strictly an answer is compared.
type Mode int

const (
	// Normalised compares the JSON values, ignoring object key order, for
	// peers that print keys in their own order.
	Normalised Mode = iota
	// Exact compares bytes: graft must print keys in selection order.
	Exact
)

// Answer returns nil when got is a correct answer to q, given the expected
// body want. The introspection query is only checked for shape: a JSON
// object with data.__schema and no errors.
func Answer(q workload.Query, got, want []byte, mode Mode) error {
	if q.Introspection {
		return introspection(got)
	}
	if mode == Exact {
		if bytes.Equal(bytes.TrimRight(got, "\n"), want) {
			return nil
		}
		return fmt.Errorf("%s: answer differs from the expected bytes:\n got: %s\nwant: %s", q.Name, clip(got), clip(want))
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Errorf("%s: answer is not JSON: %v: %s", q.Name, err, clip(got))
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("%s: expected answer is not JSON: %v", q.Name, err)
	}
	gn, _ := json.Marshal(g) // encoding/json sorts map keys
	wn, _ := json.Marshal(w)
	if !bytes.Equal(gn, wn) {
		return fmt.Errorf("%s: answer differs from the expected one:\n got: %s\nwant: %s", q.Name, clip(gn), clip(wn))
	}
	return nil
}

func introspection(got []byte) error {
	var r struct {
		Data *struct {
			Schema map[string]any `json:"__schema"`
		} `json:"data"`
		Errors []any `json:"errors"`
	}
	if err := json.Unmarshal(got, &r); err != nil {
		return fmt.Errorf("q4: answer is not JSON: %v: %s", err, clip(got))
	}
	if len(r.Errors) > 0 {
		return fmt.Errorf("q4: answer has errors: %s", clip(got))
	}
	if r.Data == nil || r.Data.Schema == nil {
		return fmt.Errorf("q4: answer has no data.__schema: %s", clip(got))
	}
	if _, ok := r.Data.Schema["types"].([]any); !ok {
		return fmt.Errorf("q4: data.__schema.types is not a list: %s", clip(got))
	}
	return nil
}

// clip shortens a body for an error message.
func clip(b []byte) string {
	const max = 400
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + fmt.Sprintf("... (%d bytes)", len(b))
}
