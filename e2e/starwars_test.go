package e2e

import (
	"testing"

	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/schema"
)

// starwarsSchema builds the example schema the e2e scripts query.
func starwarsSchema(t *testing.T) *schema.Schema {
	t.Helper()
	s, err := starwars.Schema()
	if err != nil {
		t.Fatalf("starwars.Schema: %v", err)
	}
	return s
}
