package federation

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

// Options configures Build.
type Options struct {
	// Version is the federation specification version linked in the
	// subgraph SDL, such as "v2.3" (DefaultVersion when empty).
	Version string

	// Entities are the entity resolvers, one per entity type (see Entity).
	// Every object type with a resolvable @key needs one.
	Entities []EntityResolver

	// Links are further @link imports printed in the subgraph SDL, such as
	// the spec of a custom directive.
	Links []Link

	// ComposeDirectives names custom directives, such as "@custom", that
	// the supergraph keeps (@composeDirective). Declare them with
	// Builder.DeclareDirective and Printing schema.DirectiveSubgraphOnly,
	// and import them with a Link.
	ComposeDirectives []string

	// ServiceAccess, when set, decides whether a request may read
	// Query._service: the subgraph SDL lists every type and field,
	// @inaccessible ones included, even with introspection off. A request
	// it refuses gets a FORBIDDEN error (and null data) instead of the SDL. Nil
	// serves the SDL to every request, as the subgraph specification
	// expects of a subgraph only its router can reach; AllowHeader
	// restricts it to requests that carry a header only the router sends.
	ServiceAccess func(ctx context.Context) bool
}

// AllowHeader returns a ServiceAccess that admits the requests whose
// header name is value (compared in constant time), such as a secret the
// router sends to its subgraphs (Apollo Router's headers.insert, a
// gateway's buildService). An empty value admits no request.
func AllowHeader(name, value string) func(ctx context.Context) bool {
	want := []byte(value)
	return func(ctx context.Context) bool {
		info := graft.RequestInfoFrom(ctx)
		if info == nil || len(want) == 0 {
			return false
		}
		return subtle.ConstantTimeCompare([]byte(info.Header(name)), want) == 1
	}
}

// Link is a @link(url:, import:) clause of the subgraph SDL.
type Link struct {
	URL    string
	Import []string
}

// federationTypes are the types Build adds, left out of _service.sdl.
var federationTypes = map[string]bool{"_Any": true, "FieldSet": true, "_Service": true, "_Entity": true}

// FieldSet is the Go type of the FieldSet scalar: a selection of fields
// such as "sku variation { id }".
type FieldSet string

// MarshalGraphQL writes the field set as a string.
func (f FieldSet) MarshalGraphQL() (any, error) { return string(f), nil }

// UnmarshalGraphQL reads a field set from a string.
func (f *FieldSet) UnmarshalGraphQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("FieldSet must be a string, got %T", v)
	}
	*f = FieldSet(s)
	return nil
}

type service struct {
	SDL string `graphql:"sdl" type:"String"`
}

type entitiesArgs struct {
	Representations []Representation
}

// Build adds the federation types and fields to b (see the package
// documentation), builds the schema and checks the federation
// declarations: every object type with a resolvable @key has an entity
// resolver, every entity resolver is for a type with a @key, and the field
// set of each resolvable key of an entity names fields of its type (with
// a selection exactly for the object fields).
func Build(b *schema.Builder, opts Options) (*schema.Schema, error) {
	ents, err := newEntities(opts.Entities)
	if err != nil {
		return nil, err
	}
	for _, d := range specDirectives {
		d.Printing = schema.DirectiveLinked
		b.DeclareDirective(d)
	}
	sdl := new(string)
	schema.Scalar[Representation](b, "_Any")
	schema.Scalar[FieldSet](b, "FieldSet")
	schema.Object[service](b, "_Service")
	access := opts.ServiceAccess
	schema.QueryNoArgs(b, "_service", func(ctx context.Context) (service, error) {
		if access != nil && !access(ctx) {
			return service{}, graft.NewError(graft.CodeForbidden, "_service is served to the federation router only")
		}
		return service{SDL: *sdl}, nil
	})
	if len(opts.Entities) > 0 {
		members := make([]string, 0, len(opts.Entities))
		for _, r := range opts.Entities {
			members = append(members, r.typeName)
		}
		schema.Union[any](b, "_Entity", members, schema.ResolveTypeFunc(ents.typeOf))
		schema.Query(b, "_entities", func(ctx context.Context, args entitiesArgs) ([]any, error) {
			return ents.resolve(ctx, args.Representations), nil
		}, schema.OfType("[_Entity]!"))
	}
	s, err := b.Build()
	if err != nil {
		return nil, err
	}
	m := schemadef.Model(s)
	if err := check(m, ents); err != nil {
		return nil, err
	}
	*sdl = subgraphSDL(m, opts)
	return s, nil
}

// check compares the @key declarations with the entity resolvers.
func check(m *schemadef.Schema, ents *entities) error {
	var errs []error
	keyed := map[string]bool{}
	for _, t := range m.Types {
		resolvable := false
		for _, applied := range t.Directives {
			if applied.Name != "key" {
				continue
			}
			keyed[t.Name] = true
			list, err := schemadef.ParseDirectives(applied.Format()) // checked by Build
			if err != nil || len(list) != 1 {
				continue
			}
			if a := list[0].Arguments.ForName("resolvable"); a == nil || a.Value.Raw != "false" {
				resolvable = true
			}
		}
		if resolvable && t.Kind == schemadef.ObjectKind && ents.byName[t.Name] != nil {
			keys, err := resolvableKeys(t)
			if err != nil {
				errs = append(errs, err)
			}
			ents.keys[t.Name] = keys
		}
		if resolvable && t.Kind == schemadef.ObjectKind && ents.byName[t.Name] == nil {
			errs = append(errs, fmt.Errorf("federation: %s has a resolvable @key but no entity resolver in Options.Entities", t.Name))
		}
	}
	for name := range ents.byName {
		if !keyed[name] {
			errs = append(errs, fmt.Errorf("federation: %s has an entity resolver but no @key", name))
		}
	}
	return errors.Join(errs...)
}

// resolvableKeys returns the resolvable keys of t.
func resolvableKeys(t *schemadef.Type) ([]entityKey, error) {
	var keys []entityKey
	for _, applied := range t.Directives {
		if applied.Name != "key" {
			continue
		}
		list, err := schemadef.ParseDirectives(applied.Format())
		if err != nil || len(list) != 1 {
			continue // reported by Build
		}
		if a := list[0].Arguments.ForName("resolvable"); a != nil && a.Value.Raw == "false" {
			continue
		}
		a := list[0].Arguments.ForName("fields")
		if a == nil {
			continue
		}
		set, err := parseKey(t, a.Value.Raw)
		if err != nil {
			return nil, err
		}
		keys = append(keys, entityKey{fields: a.Value.Raw, set: set})
	}
	return keys, nil
}

// subgraphSDL prints the schema for _service: the @link header, the
// directive definitions, the types with their applied directives, and none
// of the federation types and fields.
func subgraphSDL(m *schemadef.Schema, opts Options) string {
	version := opts.Version
	if version == "" {
		version = DefaultVersion
	}
	var h strings.Builder
	h.WriteString("extend schema\n")
	links := append([]Link{{URL: "https://specs.apollo.dev/federation/" + version, Import: specImports}}, opts.Links...)
	for _, l := range links {
		h.WriteString("  @link(url: " + quote(l.URL))
		if len(l.Import) > 0 {
			h.WriteString(", import: [")
			for i, imp := range l.Import {
				if i > 0 {
					h.WriteString(", ")
				}
				h.WriteString(quote(imp))
			}
			h.WriteString("]")
		}
		h.WriteString(")\n")
	}
	for _, name := range opts.ComposeDirectives {
		h.WriteString("  @composeDirective(name: " + quote(name) + ")\n")
	}
	return m.Print(schemadef.PrintOptions{
		Header:     h.String(),
		Directives: true,
		Omit: func(typeName, field string) bool {
			if field == "" {
				return federationTypes[typeName]
			}
			return typeName == "Query" && (field == "_service" || field == "_entities")
		},
	})
}
