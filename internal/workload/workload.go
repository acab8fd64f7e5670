// Package workload embeds the shared benchmark workload (the schema and
// the six queries of ../shared/bench), so tests, benchmarks, the load
// program and the peer comparison in bench/ all run the same documents
// from one copy. A test keeps the copy equal to ../shared/bench whenever
// that folder is beside the repository.
package workload

import "embed"

// SDL is the benchmark schema, served by examples/blog.
//
//go:embed schema.graphql
var SDL string

// Q1 asks for hello.
//
//go:embed q1.graphql
var Q1 string

// Q2 asks for 50 authors with 10 posts each (about 550 objects).
//
//go:embed q2.graphql
var Q2 string

// Q3 is operation A, with fragments and the variable in Q3Variables.
//
//go:embed q3.graphql
var Q3 string

// Q3Variables holds the JSON variables of Q3.
//
//go:embed q3.variables.json
var Q3Variables []byte

// Q4 is the standard introspection query.
//
//go:embed q4.graphql
var Q4 string

// Q5 asks for 50 authors with their first 10 posts (q2's shape), the
// workload that runs behind an upstream service.
//
//go:embed q5.graphql
var Q5 string

// Q6 asks for 50 authors with the title and likes of their first 20 posts.
//
//go:embed q6.graphql
var Q6 string

//go:embed *.graphql *.json
var files embed.FS

// ReadFile returns the embedded file of the shared workload with the given
// name (schema.graphql, q1.graphql ... q6.graphql, q3.variables.json).
func ReadFile(name string) ([]byte, error) { return files.ReadFile(name) }
