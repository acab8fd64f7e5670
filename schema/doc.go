// Package schema builds GraphQL schemas from Go code.
//
// A Builder collects declarations: object types derived from Go structs
// (Object), resolver fields with typed argument structs (FieldFunc, Query,
// Mutation and their NoArgs forms; Subscription, whose resolver returns a
// channel of events), enums, interfaces, unions, input objects and custom
// scalars. Build checks them all, reporting every
// mistake as a *BuildError that names the type and field, and returns an
// immutable *Schema, ready for graft.NewRouter. Its SDL method prints it.
//
// Go types map to GraphQL types as follows: string String, integer kinds
// Int (values outside 32 bits are a field error when written), floats
// Float, bool Boolean, ID ID, time.Time DateTime (RFC 3339), pointers and
// Go interfaces nullable, other values non-null, slices and arrays lists,
// structs objects (registered under their Go type name when not declared
// with Object). A struct tag `type:"..."` or the OfType option states the
// GraphQL type explicitly, for example to make a slice nullable.
//
// Reflection runs only in Build. At request time graft reads plain struct
// fields at their offsets, calls resolvers through closures built by the
// generic functions, and writes scalars with typed writers that do not
// allocate.
package schema
