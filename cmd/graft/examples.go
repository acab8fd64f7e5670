package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/examples/federationproducts"
	"github.com/graftgql/graft/examples/federationreviews"
	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/examples/uploads"
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
	"starwars":            starwars.Schema,
	"uploads":             uploads.Schema,
}

// exampleDefaults are the environment defaults of examples where they
// differ from cmd/graft's own; a variable that is set wins.
var exampleDefaults = map[string]map[string]string{
	// 16 MiB per file, 10 files per request, HTTP batching on (CSRF
	// prevention is on in cmd/graft already).
	"uploads": {"GRAPHQL_UPLOAD_MAX_FILE_BYTES": "16777216", "GRAPHQL_UPLOAD_MAX_FILES": "10", "GRAPHQL_BATCH_MAX": "10"},
}

// withExampleDefaults returns lookup with the defaults of the example
// GRAFT_EXAMPLE names.
func withExampleDefaults(lookup env) env {
	name, _ := lookup("GRAFT_EXAMPLE")
	defaults := exampleDefaults[strings.ToLower(name)]
	if defaults == nil {
		return lookup
	}
	return func(key string) (string, bool) {
		if v, ok := lookup(key); ok && v != "" {
			return v, true
		}
		v, ok := defaults[key]
		return v, ok
	}
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
