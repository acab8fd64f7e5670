package graft_test

import (
	"testing"

	"github.com/graftgql/graft"
)

// Router.Config returns the configuration with every default filled in,
// the streaming transports' included.
func TestConfigHasItsDefaults(t *testing.T) {
	c := newTestRouter(t, graft.Config{}).Config()
	s := c.Subscriptions
	if s.KeepAlive != graft.DefaultKeepAlive || s.WriteTimeout != graft.DefaultStreamWriteTimeout ||
		s.MaxConnections != graft.DefaultMaxConnections || s.InitTimeout != graft.DefaultInitTimeout ||
		c.StatusCodes != graft.StatusCodesApollo || c.Timeout != graft.DefaultTimeout {
		t.Fatalf("defaults not filled in: %+v", c)
	}
}

// StatusCodesApollo was called "seed": the old value still configures it.
func TestStatusCodesSeedMeansApollo(t *testing.T) {
	if c := newTestRouter(t, graft.Config{StatusCodes: "seed"}).Config(); c.StatusCodes != graft.StatusCodesApollo {
		t.Fatalf("StatusCodes %q", c.StatusCodes)
	}
	c, err := graft.ConfigFromLookup(func(k string) (string, bool) {
		if k == "GRAPHQL_STATUS_CODES" {
			return "seed", true
		}
		return "", false
	})
	if err != nil || c.StatusCodes != graft.StatusCodesApollo {
		t.Fatalf("GRAPHQL_STATUS_CODES=seed: %q %v", c.StatusCodes, err)
	}
}
