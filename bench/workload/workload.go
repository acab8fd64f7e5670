// Package workload holds the benchmark workload shared by every server in
// the comparison: the schema and the four queries of ../shared/bench,
// embedded so the benchmark runs from any working directory.
package workload

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// SDL is the schema every benchmarked server serves.
//
//go:embed schema.graphql
var SDL string

//go:embed q1.graphql
var q1 string

//go:embed q2.graphql
var q2 string

//go:embed q3.graphql
var q3 string

//go:embed q3.variables.json
var q3Variables []byte

//go:embed q4.graphql
var q4 string

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
}

// Queries returns q1 to q4 in order.
func Queries() []Query {
	var vars map[string]any
	if err := json.Unmarshal(q3Variables, &vars); err != nil {
		// The file is embedded at build time; a bad file is a build defect.
		panic(fmt.Sprintf("workload: q3.variables.json: %v", err))
	}
	return []Query{
		{Name: "q1", Description: "hello", Text: q1},
		{Name: "q2", Description: "50 authors × 10 posts (about 550 objects)", Text: q2},
		{Name: "q3", Description: "fragments and a variable", Text: q3, OperationName: "A", Variables: vars},
		{Name: "q4", Description: "introspection", Text: q4, Introspection: true},
	}
}

// Body returns the JSON body of a GraphQL-over-HTTP POST for q.
func (q Query) Body() []byte {
	req := struct {
		Query         string         `json:"query"`
		OperationName string         `json:"operationName,omitempty"`
		Variables     map[string]any `json:"variables,omitempty"`
	}{q.Text, q.OperationName, q.Variables}
	b, err := json.Marshal(req)
	if err != nil {
		panic(fmt.Sprintf("workload: marshal %s: %v", q.Name, err))
	}
	return b
}
