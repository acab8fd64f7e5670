// Package native is the Star Wars gqlgen project with the executor gqlgen
// generates for it (generated.go), to compare the answers of native
// gqlgen with those of the same resolvers served by graft.
package native

//go:generate go run github.com/99designs/gqlgen@v0.17.98 generate
