package gqlgentailcall

import (
	"os"
	"testing"

	"github.com/graftgql/graft/bench/tailcall"
)

// TestSchemaIsTailcallSDL keeps schema.graphql, which the generated code
// was made from, equal to tailcall.SDL.
func TestSchemaIsTailcallSDL(t *testing.T) {
	b, err := os.ReadFile("schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != tailcall.SDL {
		t.Error("schema.graphql differs from tailcall.SDL: copy it and run gqlgen generate")
	}
}
