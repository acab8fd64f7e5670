package starwars

import (
	"testing"

	"github.com/graftgql/graft/examples/internal/sdldiff"
)

func TestSchemaMatchesSharedSDL(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	sdldiff.MatchShared(t, s, "../../../shared/examples/starwars.graphql")
}
