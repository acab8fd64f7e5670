// Package validate declares constraints on GraphQL arguments and input
// fields with struct tags, in the style of go-playground/validator, and
// reports every violation at once as one BAD_USER_INPUT error.
//
// The tags sit on the fields of argument structs and input objects:
//
//	type AddBookInput struct {
//		Title string   `validate:"min=1,max=200"`
//		ISBN  string   `graphql:"isbn" validate:"len=13,number,startswith=978|startswith=979"`
//		Tags  []string `validate:"max=5,dive,min=1,max=20"`
//	}
//
// schema.Builder.Build compiles them (a malformed tag or a rule that does
// not apply to its field's type is a build error), and the executor
// checks a field's arguments after coercing them and before its resolver
// runs. Nothing of the resolver runs when a value breaks a rule: the
// field fails with one error whose extensions hold code BAD_USER_INPUT
// and violations, one entry per broken rule, each with the path of the
// offending value (argument and input field names as in the schema, list
// indexes as numbers), the rule and a message:
//
//	{"message": "Invalid input: input.title: must be at least 1 character long; input.tags[0]: must be at most 20 characters long.",
//	 "path": ["addBook"],
//	 "extensions": {"code": "BAD_USER_INPUT", "violations": [
//	   {"path": ["input", "title"], "constraint": "min", "message": "must be at least 1 character long"},
//	   {"path": ["input", "tags", 0], "constraint": "max", "message": "must be at most 20 characters long"}]}}
//
// # Rules
//
// Rules are separated by commas and all apply; alternatives within a rule
// are separated by | and one must hold (startswith=978|startswith=979).
//
//   - required: not the zero value (a non-empty string, a non-nil list).
//   - min, max, len, gt, gte, lt, lte, eq, ne with a number: the length in
//     characters of a string, the number of items of a list, or the value
//     of a number.
//   - oneof with values separated by spaces: a string or integer among
//     them.
//   - email (the HTML rule graphql-scalars' EmailAddress uses), url (an
//     absolute URL), uuid, numeric (a decimal number), number (digits
//     only), alpha, alphanum, lowercase, uppercase, startswith, endswith,
//     contains, excludes: strings.
//   - pattern=<regexp>: a string the Go regular expression matches; it
//     takes the rest of the tag (commas included), so it comes last
//     (after dive for the items of a list).
//   - omitempty: skip the other rules when the value is the zero value.
//   - dive: the rules after it apply to each item of a list.
//
// A nil pointer (a null or absent argument) and an absent or null
// schema.Optional are not checked. Input objects and lists of them are
// checked field by field wherever they appear.
//
// An input struct with a Validate method (Validator) adds violations the
// tags cannot express, such as an id that must be of a given type; they
// are reported with the others. A resolver that finds a problem later
// returns an *Error of its own, in the same shape.
package validate

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/internal/validate"
	"github.com/graftgql/graft/schema"
)

// Violation is one broken rule: the path of the offending value, the
// rule (Constraint, such as "max") and a message saying what is wanted.
// Field returns the path as text, "input.tags[2]".
type Violation = validate.Violation

// Error is the error of input with violations. As a resolver's error it
// becomes a GraphQL error with extensions code BAD_USER_INPUT and
// violations (see the package documentation); Error lists them all.
type Error = validate.Error

// Validator is implemented by an input struct (or a pointer to it) that
// checks itself beyond its tags, such as a rule between two fields or an
// id that must be of a given type: Validate returns its violations, with
// paths relative to the struct, which are reported with those of the tags
// in the same error.
type Validator = validate.Validator

// PrintConstraints makes b's schema print the validate tags of its
// arguments and input fields as @constraint directives, in the form of
// graphql-constraint-directive, so that clients and schema tools see
// them:
//
//	input AddBookInput {
//	  title: String! @constraint(minLength: 1, maxLength: 200)
//	  isbn: String! @constraint(minLength: 13, maxLength: 13, pattern: "^[0-9]+$")
//	}
//
// It also declares the directive. Rules the directive cannot express
// (alternatives such as startswith=978|startswith=979, the rules after
// dive, oneof, a second pattern) are left out of the SDL; the executor
// checks every rule either way. Off by default, so a schema's SDL stays
// as declared.
func PrintConstraints(b *schema.Builder) { schemadef.BuilderOf(b).PrintConstraints() }

// checkers caches the compiled rules of each struct type Struct meets.
var checkers sync.Map // reflect.Type → *validate.Checker or error

// Struct checks v, a struct or a pointer to one, against the validate
// tags of its fields, as the executor checks arguments: nil, or an *Error
// with every violation, paths named as in the schema. It returns an
// error of another type when v is not a struct or a tag is malformed.
func Struct(v any) error {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return fmt.Errorf("validate: Struct needs a struct, got %T", v)
	}
	c, ok := checkers.Load(rv.Type())
	if !ok {
		checker, err := validate.Compile(rv.Type(), schemadef.FieldName)
		if err != nil {
			c = fmt.Errorf("validate: %s: %w", rv.Type(), err)
		} else {
			c = checker
		}
		c, _ = checkers.LoadOrStore(rv.Type(), c)
	}
	switch x := c.(type) {
	case error:
		return x
	case *validate.Checker:
		if vs := x.CheckValue(rv, nil); len(vs) > 0 {
			return &Error{Violations: vs}
		}
	}
	return nil
}
