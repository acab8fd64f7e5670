package schemadef

import (
	"context"
	"slices"
	"strings"
)

// DirectiveFunc implements an executable directive applied to a field: it
// receives the directive's argument values (as applied in the schema),
// resolves the field by calling next, which returns the field's Go value
// (nil for null), and returns the value to write: next's, or another of
// the field's Go type. It may instead return an error without calling
// next.
type DirectiveFunc func(ctx context.Context, args map[string]any, next func(context.Context) (any, error)) (any, error)

// DirectivePrinting says where a declared directive, its definition and
// its applications, is printed.
type DirectivePrinting uint8

// The places a directive is printed.
const (
	// DirectiveEverywhere prints it in the schema's SDL, so introspection
	// lists it and its Func runs, and in a federation subgraph's SDL.
	DirectiveEverywhere DirectivePrinting = iota
	// DirectiveSubgraphOnly prints it only in a federation subgraph's SDL
	// (see package federation), for the gateway: the schema's own SDL and
	// introspection leave it out, and its Func is not used.
	DirectiveSubgraphOnly
	// DirectiveLinked prints its applications only in a subgraph's SDL and
	// its definition nowhere: it is defined by a specification the
	// subgraph imports with @link (the federation directives).
	DirectiveLinked
)

// DirectiveDef declares a directive of the schema.
type DirectiveDef struct {
	Name        string
	Description string
	// Args are the argument definitions in SDL, e.g. "role: Role!".
	Args string
	// Locations are where it may be applied, e.g.
	// LocationFieldDefinition, LocationObject; Build reports any other
	// value.
	Locations  []DirectiveLocation
	Repeatable bool
	// Func, when set, wraps the resolution of every field it is applied
	// to (and of every field of an object type it is applied to).
	Func DirectiveFunc
	// Printing says where the directive is printed (DirectiveEverywhere
	// by default).
	Printing DirectivePrinting
	// Deprecated, when not empty, deprecates the directive with this
	// reason, as graphql-js 16.15 serves it: __Directive.isDeprecated and
	// deprecationReason, and __Schema.directives lists it only with
	// includeDeprecated: true. SDL has no syntax for it: the printed SDL
	// does not show it.
	Deprecated string
}

// DirectiveLocation is a place in a document or schema where a directive
// may be applied (GraphQL, "Directive Locations").
type DirectiveLocation string

// The directive locations.
const (
	LocationQuery                DirectiveLocation = "QUERY"
	LocationMutation             DirectiveLocation = "MUTATION"
	LocationSubscription         DirectiveLocation = "SUBSCRIPTION"
	LocationField                DirectiveLocation = "FIELD"
	LocationFragmentDefinition   DirectiveLocation = "FRAGMENT_DEFINITION"
	LocationFragmentSpread       DirectiveLocation = "FRAGMENT_SPREAD"
	LocationInlineFragment       DirectiveLocation = "INLINE_FRAGMENT"
	LocationVariableDefinition   DirectiveLocation = "VARIABLE_DEFINITION"
	LocationSchema               DirectiveLocation = "SCHEMA"
	LocationScalar               DirectiveLocation = "SCALAR"
	LocationObject               DirectiveLocation = "OBJECT"
	LocationFieldDefinition      DirectiveLocation = "FIELD_DEFINITION"
	LocationArgumentDefinition   DirectiveLocation = "ARGUMENT_DEFINITION"
	LocationInterface            DirectiveLocation = "INTERFACE"
	LocationUnion                DirectiveLocation = "UNION"
	LocationEnum                 DirectiveLocation = "ENUM"
	LocationEnumValue            DirectiveLocation = "ENUM_VALUE"
	LocationInputObject          DirectiveLocation = "INPUT_OBJECT"
	LocationInputFieldDefinition DirectiveLocation = "INPUT_FIELD_DEFINITION"
)

// valid reports whether l is one of the directive locations.
func (l DirectiveLocation) valid() bool {
	switch l {
	case LocationQuery, LocationMutation, LocationSubscription, LocationField, LocationFragmentDefinition,
		LocationFragmentSpread, LocationInlineFragment, LocationVariableDefinition, LocationSchema, LocationScalar,
		LocationObject, LocationFieldDefinition, LocationArgumentDefinition, LocationInterface, LocationUnion,
		LocationEnum, LocationEnumValue, LocationInputObject, LocationInputFieldDefinition:
		return true
	}
	return false
}

// AppliedDirective is a directive applied to a type or field: its name and
// its arguments in SDL, e.g. `role: ADMIN`.
type AppliedDirective struct {
	Name string
	Args string
}

// Directive applies the declared directive name with the given SDL
// arguments ("" for none) to an object type, an interface or a field (use
// OnField for plain struct fields). Where it is printed follows its
// declaration (DirectiveDef.Printing); Build reports a directive that is
// not declared and arguments that do not parse.
func Directive(name, args string) Option {
	return func(o *options) { o.directives = append(o.directives, AppliedDirective{Name: name, Args: args}) }
}

// DeclareDirective adds a directive definition to the schema. A later
// definition of the same name replaces an earlier one.
func (b *Builder) DeclareDirective(d DirectiveDef) {
	if !validName(d.Name) {
		b.errorf("", "", "%q is not a valid directive name", d.Name)
		return
	}
	if len(d.Locations) == 0 {
		b.errorf("", "", "directive @%s has no Locations", d.Name)
		return
	}
	for _, l := range d.Locations {
		if !l.valid() {
			b.errorf("", "", "directive @%s: %q is not a directive location (schema.Location...)", d.Name, string(l))
			return
		}
	}
	for i, old := range b.directives {
		if old.Name == d.Name {
			b.directives[i] = &d
			return
		}
	}
	b.directives = append(b.directives, &d)
}

// directiveDefs returns the declared directives sorted by name.
func (b *Builder) directiveDefs() []*DirectiveDef {
	ds := slices.Clone(b.directives)
	slices.SortFunc(ds, func(a, b *DirectiveDef) int { return strings.Compare(a.Name, b.Name) })
	return ds
}

// Directive returns the declared directive name, or nil.
func (s *Schema) Directive(name string) *DirectiveDef {
	for _, d := range s.Directives {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// printApplied prints the applied directives ds, each preceded by a
// space, leaving out those show rejects.
func printApplied(w *strings.Builder, ds []AppliedDirective, show func(name string) bool) {
	for _, d := range ds {
		if !show(d.Name) {
			continue
		}
		w.WriteString(" @" + d.Name)
		if d.Args != "" {
			w.WriteString("(" + d.Args + ")")
		}
	}
}

// printDirectiveDefs prints the definitions of ds printed in the given
// place; none says nothing was printed before.
func printDirectiveDefs(w *strings.Builder, ds []*DirectiveDef, none bool, subgraph bool) {
	for _, d := range ds {
		if d.Printing == DirectiveLinked || !subgraph && d.Printing != DirectiveEverywhere {
			continue
		}
		if !none {
			w.WriteByte('\n')
		}
		none = false
		printDescription(w, d.Description, "")
		w.WriteString("directive @" + d.Name)
		if d.Args != "" {
			w.WriteString("(" + d.Args + ")")
		}
		if d.Repeatable {
			w.WriteString(" repeatable")
		}
		w.WriteString(" on ")
		for i, l := range d.Locations {
			if i > 0 {
				w.WriteString(" | ")
			}
			w.WriteString(string(l))
		}
		w.WriteString("\n")
	}
}

// inSchemaSDL reports whether the applied directive name is printed in the
// schema's own SDL.
func (s *Schema) inSchemaSDL(name string) bool {
	d := s.Directive(name)
	return d != nil && d.Printing == DirectiveEverywhere
}

// EnableIncrementalDelivery declares @defer and @stream as graphql-js 17
// defines them, so that documents may use them: the executor then
// delivers deferred fragments and streamed list items in later payloads
// to clients that accept incremental delivery.
func (b *Builder) EnableIncrementalDelivery() {
	b.Supplied("@defer", "@stream")
	b.DeclareDirective(DirectiveDef{
		Name:        "defer",
		Description: "Directs the executor to defer this fragment when the `if` argument is true or undefined.",
		Args:        "if: Boolean! = true, label: String",
		Locations:   []DirectiveLocation{LocationFragmentSpread, LocationInlineFragment},
	})
	b.DeclareDirective(DirectiveDef{
		Name:        "stream",
		Description: "Directs the executor to stream plural fields when the `if` argument is true or undefined.",
		Args:        "if: Boolean! = true, label: String, initialCount: Int! = 0",
		Locations:   []DirectiveLocation{LocationField},
	})
}
