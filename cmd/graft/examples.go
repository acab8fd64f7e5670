package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/examples/bookstore"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/examples/federationproducts"
	"github.com/graftgql/graft/examples/federationreviews"
	"github.com/graftgql/graft/examples/incremental"
	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

// defaultExample is the example schema served when none is named.
const defaultExample = "blog"

// examples are the schemas graft can serve, by name, one line each.
var examples = map[string]func() (*schema.Schema, error){
	"blog":                blog.Schema,
	"bookstore":           bookstore.Schema,
	"chat":                chat.Schema,
	"federation-products": federationproducts.Schema,
	"federation-reviews":  federationreviews.Schema,
	"incremental":         incremental.Schema,
	"starwars":            starwars.Schema,
}

// publishing are the examples that publish subscription events: they are
// built with the server's PubSub (Redis Pub/Sub when REDIS_URL is set).
var publishing = map[string]func(ps pubsub.PubSub) (*schema.Schema, error){
	"chat": func(ps pubsub.PubSub) (*schema.Schema, error) { return chat.New(ps).Schema() },
}

// exampleNames lists the example names, sorted.
func exampleNames() string {
	names := make([]string, 0, len(examples))
	for n := range examples {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// buildExample builds the named example schema.
func buildExample(name string, ps pubsub.PubSub) (*schema.Schema, error) {
	if build, ok := publishing[name]; ok {
		return build(ps)
	}
	build, ok := examples[name]
	if !ok {
		return nil, fmt.Errorf("GRAFT_EXAMPLE or -example %q: want one of %s", name, exampleNames())
	}
	return build()
}
