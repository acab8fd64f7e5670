package schema

// SDL adds a schema document to the type system of the builder; name
// names it in the positions of Build's errors (a file name, for example).
// A builder given a document is schema-first: the document defines every
// type, field, argument, description and directive, and the declarations
// (Object, FieldFunc, Query, Mutation, Subscription, GroupFieldFunc,
// Interface, Union, Enum, Input, Scalar, DeclareDirective) bind Go types
// and resolvers to it. Struct fields bind by their GraphQL name (the
// lowerCamel form of the Go name, or the graphql tag), take their types
// from the document, and a Go struct met at the place of an object or
// input type of the document becomes its Go type, so a plain model needs
// no declaration. Build checks every binding against the document and
// reports every mismatch at once, each *BuildError carrying the position
// in the document. The schema's SDL is the document as given. See
// docs/schema-first.md.
func (b *Builder) SDL(name, src string) *Builder {
	b.def().SDL(name, src)
	return b
}

// SDLFiles adds, with SDL, the schema documents matching each glob
// pattern (filepath.Glob), in name order within a pattern. A pattern that
// matches no file or a file that cannot be read is reported by Build.
func (b *Builder) SDLFiles(patterns ...string) *Builder {
	b.def().SDLFiles(patterns...)
	return b
}
