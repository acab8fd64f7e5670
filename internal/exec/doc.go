// Package exec prepares and executes GraphQL documents against a built
// schema: it parses and validates a query with gqlparser, plans every
// operation once, and writes the JSON response straight into a byte buffer.
//
// # Preparing
//
// Engine.Prepare parses (bounded by Options.MaxTokens), validates with all
// of gqlparser's rules and plans each operation of the document. A plan
// holds, for every selection set and every concrete object type that can
// appear there, the collected fields in response order: fragments are
// expanded, type conditions applied, fields with the same response key
// merged, constant @skip and @include folded, constant arguments converted
// into the resolver's argument struct and the JSON key bytes precomputed.
// A Document is immutable, so a router may cache it and share it between
// concurrent requests.
//
// # Executing
//
// Engine.Execute walks the plan and the Go values the resolvers return,
// guided by the schema's Output descriptions, and appends the response to
// the caller's buffer in selection order. No result maps are built and no
// reflection runs. A non-null violation is handled by truncating the buffer
// back to the start of the nearest nullable parent and writing null there.
// Plain data below a field (struct fields, leaves, lists, objects with no
// resolver) is first written by a fast writer that keeps no response path
// and gives up, for the general writer to write the field again, on
// anything that would be an error or a null at a non-null position
// (fast.go).
//
// Sibling fields and list items run sequentially, in selection order, in
// the request's goroutine. Resolvers marked schema.Field.Concurrent are
// the exception: before an object is written, the concurrent resolvers of
// its selected fields are started together, each in its own goroutine, and
// awaited; for a list of objects, those of all items are started together
// (at most 64 goroutines at a time). Their values are then written in
// order like the others. Root fields of a mutation always run one after
// the other.
//
// # Batching
//
// An operation whose plan reaches a batch field (schema.Field.Batch) or a
// concurrent resolver is marked batched at plan time and runs in two
// phases (batch.go). The first resolves ahead, breadth-first: per level of
// the response it calls the resolvers that lead to such fields, groups
// the parents of each batch field by field and arguments (one call for
// every parent of the level, across lists and intermediate objects), and
// runs the batches and concurrent resolvers of the level as tasks of a
// batchsched.Scheduler, bounded by Options.MaxConcurrency. Loader batches
// (package loader) are sent when every task is finished or blocked in a
// Load, never on a timer. The second phase is the ordinary depth-first
// writer, which takes the values resolved ahead (request.resolved, keyed
// by object plan and address). Other operations skip the first phase and
// pay nothing for it. In a batched mutation the root fields run one after
// the other at the first level, and their sub-selections are resolved
// after all of them. Resolvers whose field has a sub-selection see it
// through schema.SelectionFrom.
//
// A resolver that panics yields a field error with the generic message
// "Internal server error" and code INTERNAL_SERVER_ERROR; the panic value and
// stack are logged (at most ten per request, then one line with the count
// of the others). Once the request context is done, every field that
// still needs a resolver becomes a field error instead of running it, and
// introspection stops writing.
//
// # Bounds
//
// Every request is bounded before it can cost much: the parser stops at
// Options.MaxTokens and a fixed nesting depth; CheckValidationBudget
// refuses documents whose field merging would cost validation too much;
// planning stops at a fixed number of field selections and fragment
// expansions (plans of selection sets shared by the possible types of an
// interface or union are made once); execution stops writing fields once
// the response passes Options.MaxResponseBytes (DefaultMaxResponseBytes),
// introspection included; at most Options.MaxErrors
// errors are reported; and request error messages, which quote names and
// values from the request, are cut to a bounded length.
//
// Operations whose selections are only introspection (__schema, __type,
// __typename) depend on the schema and the document alone; when they take
// no variables, a response without error of at most 256 KiB is kept with
// the operation and reused (8 MiB for all operations of an engine).
//
// # Errors as graphql-js gives them
//
// Syntax errors are reworded by internal/gqlsyntax, and validation errors
// placed and filtered by jsValidationErrors, so that messages, locations
// and order are those of graphql-js 16; with DisableIntrospection no
// message suggests a name of the schema.
package exec
