// Package workload holds the benchmark workload shared by every server in
// the comparison: the schema and the queries of ../shared/bench (q1 to q4
// from graft's internal/workload; q5 and q6, the upstream queries, from
// this folder's own copy), with the persisted-query variants the load
// generator sends.
package workload

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/graftgql/graft/bench/tailcall"
	"github.com/graftgql/graft/internal/workload"
)

// q5 and q6 are answered through the upstream service.
var (
	//go:embed q5.graphql
	q5 string
	//go:embed q6.graphql
	q6 string
)

// SDL is the schema every benchmarked server serves.
var SDL = workload.SDL

var (
	q1          = workload.Q1
	q2          = workload.Q2
	q3          = workload.Q3
	q3Variables = workload.Q3Variables
	q4          = workload.Q4
)

// Query is one benchmark query with the variables and operation name a
// client sends with it.
type Query struct {
	// Name is the short name used in reports: q1, q2, q3 or q4.
	Name string
	// Description says what the query exercises.
	Description string
	// Text is the GraphQL document.
	Text string
	// OperationName is empty when the document has one anonymous operation.
	OperationName string
	// Variables is nil when the query takes none.
	Variables map[string]any
	// Introspection marks the query whose answer depends on how a server
	// prints its schema, so answers are only checked for shape.
	Introspection bool
	// Persisted marks an automatic-persisted-query variant: Body sends only
	// the hash, RegisterBody the hash and the query.
	Persisted bool
	// Base is the name of the query whose answer this one expects: Name,
	// or q1 for q1-apq.
	Base string
	// Upstream marks a query that the upstream servers answer by calling
	// the upstream service (q5, q6); the in-memory servers do not run it.
	Upstream bool
	// Tailcall marks q7, the Tailcall replica's query over its own schema
	// (package tailcall): only the servers of that schema run it.
	Tailcall bool
}

// Queries returns q1 to q4 in order.
func Queries() []Query {
	var vars map[string]any
	if err := json.Unmarshal(q3Variables, &vars); err != nil {
		// The file is embedded at build time; a bad file is a build defect.
		panic(fmt.Sprintf("workload: q3.variables.json: %v", err))
	}
	return []Query{
		{Name: "q1", Base: "q1", Description: "hello", Text: q1},
		{Name: "q2", Base: "q2", Description: "50 authors × 10 posts (about 550 objects)", Text: q2},
		{Name: "q3", Base: "q3", Description: "fragments and a variable", Text: q3, OperationName: "A", Variables: vars},
		{Name: "q4", Base: "q4", Description: "introspection", Text: q4, Introspection: true},
	}
}

// UpstreamQueries returns q5, q6 and q7, the queries answered through the
// upstream service (q7 over the Tailcall replica's schema).
func UpstreamQueries() []Query {
	return []Query{
		{Name: "q5", Base: "q5", Description: "50 authors × 10 posts through the upstream", Text: q5, Upstream: true},
		{Name: "q6", Base: "q6", Description: "50 authors × 20 posts (title, likes) through the upstream: a large upstream answer, a small selection", Text: q6, Upstream: true},
		{Name: "q7", Base: "q7", Description: "the Tailcall replica: 100 posts, each with its user (10 users), through the upstream", Text: tailcall.Query, Upstream: true, Tailcall: true},
	}
}

// All returns every query: q1 to q4, q5 and q6, then the persisted
// variants.
func All() []Query {
	return append(append(Queries(), UpstreamQueries()...), PersistedQueries()...)
}

// PersistedQueries returns the automatic-persisted-query variants of q1 and
// q3, named q1-apq and q3-apq: the same operations sent as a hash only.
func PersistedQueries() []Query {
	qs := Queries()
	var out []Query
	for _, q := range []Query{qs[0], qs[2]} {
		q.Name += "-apq"
		q.Description += ", as a persisted-query hash only"
		q.Persisted = true
		out = append(out, q)
	}
	return out
}

// Hash is the lowercase hex SHA-256 of the query text, as APQ clients send it.
func (q Query) Hash() string {
	sum := sha256.Sum256([]byte(q.Text))
	return hex.EncodeToString(sum[:])
}

// Body returns the JSON body of a GraphQL-over-HTTP POST for q: for a
// persisted variant, the hash without the query.
func (q Query) Body() []byte {
	if q.Persisted {
		return q.body("")
	}
	return q.body(q.Text)
}

// RegisterBody returns the body an APQ client sends after a miss: the
// query and its hash. For other queries it is Body.
func (q Query) RegisterBody() []byte {
	return q.body(q.Text)
}

type persistedQuery struct {
	Version    int    `json:"version"`
	Sha256Hash string `json:"sha256Hash"`
}

type extensions struct {
	PersistedQuery persistedQuery `json:"persistedQuery"`
}

func (q Query) body(text string) []byte {
	req := struct {
		Query         string         `json:"query,omitempty"`
		OperationName string         `json:"operationName,omitempty"`
		Variables     map[string]any `json:"variables,omitempty"`
		Extensions    *extensions    `json:"extensions,omitempty"`
	}{Query: text, OperationName: q.OperationName, Variables: q.Variables}
	if q.Persisted {
		req.Extensions = &extensions{persistedQuery{Version: 1, Sha256Hash: q.Hash()}}
	}
	b, err := json.Marshal(req)
	if err != nil {
		panic(fmt.Sprintf("workload: marshal %s: %v", q.Name, err))
	}
	return b
}
