package federation

import (
	"strconv"

	"github.com/graftgql/graft/schema"
)

// DefaultVersion is the version of the federation specification that Build
// links when Options.Version is empty.
const DefaultVersion = "v2.3"

// specImports are the federation directives imported by the @link of the
// subgraph SDL, unprefixed.
var specImports = []string{
	"@composeDirective", "@extends", "@external", "@key", "@inaccessible", "@interfaceObject",
	"@override", "@provides", "@requires", "@shareable", "@tag",
}

func quote(s string) string { return strconv.Quote(s) }

// specDirectives are the federation directives the options of this file
// apply, declared by Build as linked (printed only in the subgraph SDL,
// defined by the linked specification), with their locations.
var specDirectives = []schema.DirectiveDef{
	{Name: "key", Args: "fields: FieldSet!, resolvable: Boolean = true", Repeatable: true, Locations: []schema.DirectiveLocation{"OBJECT", "INTERFACE"}},
	{Name: "shareable", Repeatable: true, Locations: []schema.DirectiveLocation{"OBJECT", "FIELD_DEFINITION"}},
	{Name: "external", Locations: []schema.DirectiveLocation{"OBJECT", "FIELD_DEFINITION"}},
	{Name: "requires", Args: "fields: FieldSet!", Locations: []schema.DirectiveLocation{"FIELD_DEFINITION"}},
	{Name: "provides", Args: "fields: FieldSet!", Locations: []schema.DirectiveLocation{"FIELD_DEFINITION"}},
	{Name: "override", Args: "from: String!", Locations: []schema.DirectiveLocation{"FIELD_DEFINITION"}},
	{Name: "inaccessible", Locations: []schema.DirectiveLocation{"FIELD_DEFINITION", "OBJECT", "INTERFACE", "UNION", "ARGUMENT_DEFINITION",
		"SCALAR", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION"}},
	{Name: "tag", Args: "name: String!", Repeatable: true, Locations: []schema.DirectiveLocation{"FIELD_DEFINITION", "OBJECT", "INTERFACE", "UNION",
		"ARGUMENT_DEFINITION", "SCALAR", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION"}},
	{Name: "interfaceObject", Locations: []schema.DirectiveLocation{"OBJECT"}},
	{Name: "extends", Locations: []schema.DirectiveLocation{"OBJECT", "INTERFACE"}},
}

// Key declares a resolvable @key of an object type (or an interface with
// @interfaceObject in other subgraphs): a field set such as "id",
// "sku package" or "sku variation { id }". A type may have several keys;
// each representation the gateway sends carries the fields of one of them.
// A type with a resolvable key needs an entity resolver (see Entity).
func Key(fields string) schema.Option {
	return schema.Directive("key", "fields: "+quote(fields))
}

// NonResolvableKey declares a @key with resolvable: false: the subgraph
// references the entity by that key but resolves none of its fields, so no
// entity resolver is needed.
func NonResolvableKey(fields string) schema.Option {
	return schema.Directive("key", "fields: "+quote(fields)+", resolvable: false")
}

// Shareable marks an object type or a field that several subgraphs may
// resolve (@shareable).
func Shareable() schema.Option { return schema.Directive("shareable", "") }

// External marks a field this subgraph declares but another subgraph
// resolves (@external), for use in keys, @requires and @provides.
func External() schema.Option { return schema.Directive("external", "") }

// Requires declares the external fields a field needs (@requires): the
// gateway fetches them from their subgraph and passes them in the
// entity's representation, where the entity resolver reads them.
func Requires(fields string) schema.Option {
	return schema.Directive("requires", "fields: "+quote(fields))
}

// Provides declares the fields of the returned entity this field resolves
// although another subgraph owns them (@provides).
func Provides(fields string) schema.Option {
	return schema.Directive("provides", "fields: "+quote(fields))
}

// Override declares that this subgraph now resolves a field that the
// named subgraph used to resolve (@override(from:)).
func Override(from string) schema.Option {
	return schema.Directive("override", "from: "+quote(from))
}

// Inaccessible hides a type or field from the composed API schema while
// other subgraphs may still use it (@inaccessible).
func Inaccessible() schema.Option { return schema.Directive("inaccessible", "") }

// Tag adds a @tag(name:) label to a type or field, for contracts.
func Tag(name string) schema.Option {
	return schema.Directive("tag", "name: "+quote(name))
}

// InterfaceObject declares an object type that stands for an entity
// interface of other subgraphs (@interfaceObject).
func InterfaceObject() schema.Option { return schema.Directive("interfaceObject", "") }

// Extends marks a type owned by another subgraph with @extends, for
// gateways of federation v1.
func Extends() schema.Option { return schema.Directive("extends", "") }
