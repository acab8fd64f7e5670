package ratelimit

import (
	"fmt"
	"strings"
	"time"

	"github.com/graftgql/graft/internal/envconf"
)

// OptionsFromEnv reads Options from the RATE_LIMIT_* variables of
// README.md's configuration table, found with lookup (os.LookupEnv when
// nil): the budget, the window, the key (address, or header:<Name>) and
// whether the executed cost is charged. A Budget of zero (the default)
// means rate limiting is off; the Store is left to the caller (cmd/graft
// keeps the spending in Redis when REDIS_URL is set). Every bad variable
// is reported at once, each error naming the variable and its value.
func OptionsFromEnv(lookup func(string) (string, bool)) (Options, error) {
	var s envconf.RateLimit
	if err := envconf.Parse(&s, lookup); err != nil {
		return Options{}, err
	}
	var o Options
	if s.Budget != nil {
		o.Budget = int64(*s.Budget)
	}
	if s.Window != nil {
		o.Window = time.Duration(*s.Window)
	}
	if s.ChargeExecuted != nil {
		o.ChargeExecuted = bool(*s.ChargeExecuted)
	}
	switch k := strings.TrimSpace(s.Key); {
	case k == "" || strings.EqualFold(k, "address"):
		o.Key = ByClientAddress
	case len(k) > len("header:") && strings.EqualFold(k[:len("header:")], "header:"):
		o.Key = ByHeader(strings.TrimSpace(k[len("header:"):]))
	default:
		return Options{}, fmt.Errorf("ratelimit: RATE_LIMIT_KEY=%q: want address or header:<Name>", s.Key)
	}
	return o, nil
}
