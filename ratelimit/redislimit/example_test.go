package redislimit_test

import (
	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/ratelimit"
	"github.com/graftgql/graft/ratelimit/redislimit"
)

// Every instance configured alike charges one budget per client address.
func Example() {
	client := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer client.Close()
	limiter, err := ratelimit.New(ratelimit.Options{
		Budget: 1000,
		Store:  redislimit.New(client, redislimit.Options{}),
	})
	if err != nil {
		panic(err)
	}
	var cfg graft.Config
	limiter.Install(&cfg)
	// graft.NewRouter(s, layer, cfg) ...
}
