package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/examples/federationproducts"
	"github.com/graftgql/graft/examples/federationreviews"
	"github.com/graftgql/graft/examples/incremental"
	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/schema"
)

// defaultExample is the example schema served when none is named.
const defaultExample = "blog"

// examples are the schemas graft can serve, by name.
var examples = map[string]func() (*schema.Schema, error){
	"blog":                blog.Schema,
	"chat":                chat.Schema,
	"federation-products": federationproducts.Schema,
	"federation-reviews":  federationreviews.Schema,
	"incremental":         incremental.Schema,
	"starwars":            starwars.Schema,
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
func buildExample(name string) (*schema.Schema, error) {
	build, ok := examples[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown example %q; want one of %s", name, exampleNames())
	}
	return build()
}
