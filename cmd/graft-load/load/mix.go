// Package load drives a running graft server with a mix of good, persisted
// and bad requests from many concurrent clients, and counts each outcome
// against the answer the wire contract promises. cmd/graft-load and the
// soak test both use it.
package load

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/graftgql/graft/internal/workload"
)

// The benchmark workload's queries (../shared/bench q1 to q3).
var (
	Q1          = strings.TrimSpace(workload.Q1)
	Q2          = strings.TrimSpace(workload.Q2)
	Q3          = strings.TrimSpace(workload.Q3)
	Q3Variables = strings.TrimSpace(string(workload.Q3Variables))
)

// request is one request of the mix and the answer it must get.
type request struct {
	kind        string
	method      string
	target      string // path and query string after the base URL
	body        string
	contentType string
	status      int
	code        string // extensions.code of the first error; "" means none
	altCode     string // another accepted code, when not ""
}

// kinds is the mix, by weight: mostly the workload and APQ, with
// registrations of fresh queries that churn the store past its bound, and
// invalid requests of several sorts.
var kinds = []struct {
	weight int
	make   func(rng *rand.Rand) request
}{
	{20, func(*rand.Rand) request { return post("q1", body(Q1, "", ""), 200, "") }},
	{10, func(*rand.Rand) request { return post("q2", body(Q2, "", ""), 200, "") }},
	{15, func(*rand.Rand) request { return post("q3", body(Q3, Q3Variables, ""), 200, "") }},
	{15, func(rng *rand.Rand) request {
		// Registers q1 or q3 (again once evicted); a hit otherwise.
		if rng.IntN(2) == 0 {
			return post("apq-register-workload", body(Q1, "", ext(Q1)), 200, "")
		}
		return post("apq-register-workload", body(Q3, Q3Variables, ext(Q3)), 200, "")
	}},
	{15, func(*rand.Rand) request {
		// A hit once q1 is registered; a miss before that or after fresh
		// registrations evicted it.
		r := get("apq-hash-only-get", "/graphql?extensions="+urlJSON(ext(Q1)), 200, "")
		r.altCode = "PERSISTED_QUERY_NOT_FOUND"
		return r
	}},
	{8, func(rng *rand.Rand) request {
		q := fmt.Sprintf("{ a%d: hello }", rng.IntN(1_000_000))
		return post("apq-register-fresh", body(q, "", ext(q)), 200, "")
	}},
	{4, func(rng *rand.Rand) request {
		h := fmt.Sprintf("%064x", rng.Uint64())
		return post("apq-miss", `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"`+h+`"}}}`, 200, "PERSISTED_QUERY_NOT_FOUND")
	}},
	{3, func(*rand.Rand) request { return post("bad-json", `{"query":`, 400, "BAD_REQUEST") }},
	{3, func(*rand.Rand) request {
		return post("parse-error", body("{ hello ", "", ""), 400, "GRAPHQL_PARSE_FAILED")
	}},
	{3, func(*rand.Rand) request {
		return post("validation-error", body("{ nope }", "", ""), 400, "GRAPHQL_VALIDATION_FAILED")
	}},
	{2, func(*rand.Rand) request {
		return post("bad-variable", body("query($n: Int) { authors(first: $n) { id } }", `{"n":2147483648}`, ""), 400, "BAD_USER_INPUT")
	}},
	{1, func(*rand.Rand) request {
		return post("validation-budget", body("{"+strings.Repeat("hello ", 2000)+"}", "", ""), 400, "GRAPHQL_VALIDATION_FAILED")
	}},
	{1, func(*rand.Rand) request {
		r := post("wrong-content-type", body(Q1, "", ""), 415, "BAD_REQUEST")
		r.contentType = "text/plain"
		return r
	}},
}

var totalWeight = func() int {
	n := 0
	for _, k := range kinds {
		n += k.weight
	}
	return n
}()

// pick draws one request of the mix.
func pick(rng *rand.Rand) request {
	n := rng.IntN(totalWeight)
	for _, k := range kinds {
		if n < k.weight {
			return k.make(rng)
		}
		n -= k.weight
	}
	return kinds[0].make(rng)
}

func post(kind, b string, status int, code string) request {
	return request{kind: kind, method: http.MethodPost, target: "/graphql", body: b, contentType: "application/json", status: status, code: code}
}

func get(kind, target string, status int, code string) request {
	return request{kind: kind, method: http.MethodGet, target: target, status: status, code: code}
}

// body returns a POST body; variables and extensions are JSON text or "".
func body(query, variables, extensions string) string {
	q, _ := json.Marshal(query)
	b := `{"query":` + string(q)
	if variables != "" {
		b += `,"variables":` + variables
	}
	if extensions != "" {
		b += `,"extensions":` + extensions
	}
	return b + "}"
}

// ext returns the APQ extensions of query.
func ext(query string) string {
	sum := sha256.Sum256([]byte(query))
	return `{"persistedQuery":{"version":1,"sha256Hash":"` + hex.EncodeToString(sum[:]) + `"}}`
}

func urlJSON(s string) string {
	r := strings.NewReplacer("{", "%7B", "}", "%7D", `"`, "%22", ":", "%3A", ",", "%2C")
	return r.Replace(s)
}
