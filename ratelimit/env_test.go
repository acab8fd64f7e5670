package ratelimit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/ratelimit"
)

func lookup(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
}

func TestOptionsFromEnv(t *testing.T) {
	o, err := ratelimit.OptionsFromEnv(lookup(map[string]string{}))
	if err != nil || o.Budget != 0 || o.Key == nil {
		t.Fatalf("unset: %+v %v", o, err)
	}
	o, err = ratelimit.OptionsFromEnv(lookup(map[string]string{"RATE_LIMIT_BUDGET": "500", "RATE_LIMIT_WINDOW": "30s",
		"RATE_LIMIT_KEY": "header:X-Api-Key", "RATE_LIMIT_CHARGE_EXECUTED": "yes"}))
	if err != nil || o.Budget != 500 || o.Window != 30*time.Second || !o.ChargeExecuted {
		t.Fatalf("set: %+v %v", o, err)
	}
	for name, v := range map[string]string{"RATE_LIMIT_BUDGET": "-1", "RATE_LIMIT_WINDOW": "soon", "RATE_LIMIT_KEY": "cookie"} {
		if _, err := ratelimit.OptionsFromEnv(lookup(map[string]string{name: v})); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v", name, v, err)
		}
	}
}
