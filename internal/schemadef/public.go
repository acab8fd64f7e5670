package schemadef

import "reflect"

// Model returns the built schema behind a public *schema.Schema handle.
// Package schema installs it when it is initialised, so every holder of a
// *schema.Schema can reach the model; internal packages (the router, the
// executor's callers, the limits analysis) call it. It panics on a value
// that is not a *schema.Schema.
var Model func(public any) *Schema

// BuilderOf returns the declarations behind a public *schema.Builder, so
// that packages of this module that declare types for the application
// (scalars, relay) can use declarations the public API does not offer.
// Package schema installs it when it is initialised.
var BuilderOf func(public any) *Builder

// FieldName returns the GraphQL name of a struct field: its graphql tag,
// else the lowerCamel form of its Go name.
func FieldName(f reflect.StructField) string { return fieldName(f) }
