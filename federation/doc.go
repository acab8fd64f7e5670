// Package federation makes a graft schema an Apollo Federation v2
// subgraph: a service a federation gateway (Apollo Router, Apollo
// Gateway, Hive Gateway, Cosmo) composes with other subgraphs into one
// graph.
//
// Declare entities and fields with the federation directives as schema
// options, register one batched entity resolver per entity type, and
// build the schema with Build instead of Builder.Build:
//
//	b := schema.New()
//	product := schema.Object[Product](b, "Product", federation.Key("id"), federation.Key("sku package"))
//	schema.Query(b, "product", productByID)
//	s, err := federation.Build(b, federation.Options{
//		Entities: []federation.EntityResolver{
//			federation.Entity(product, func(ctx context.Context, reps []federation.Representation) ([]*Product, []error) {
//				// one call for all the Product representations of a request
//			}),
//		},
//	})
//
// Build adds what the subgraph specification asks for: the _Any and
// FieldSet scalars, Query._service { sdl } returning the subgraph's SDL
// with its @link import of the federation spec and every applied
// directive, and, when there are entities, the _Entity union and
// Query._entities(representations: [_Any!]!): [_Entity]!.
//
// _entities groups the representations by __typename and calls each
// type's resolver once with all of them, in request order. A
// representation whose __typename is not an entity type of the subgraph,
// or that does not carry every field of one of the type's resolvable keys
// with a value of the field's type, is null with a BAD_USER_INPUT error
// at its index and reaches no resolver. The resolver
// returns one result per representation (nil for null) and, optionally,
// one error per representation; an error becomes a GraphQL error at the
// path ["_entities", i] of its representation, and the others still
// resolve.
package federation
