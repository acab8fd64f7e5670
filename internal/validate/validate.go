// Package validate checks Go values against declarative constraints
// written in struct tags, in the style of go-playground/validator:
// `validate:"min=1,max=200"`. Package schema compiles the tags of argument
// structs and input objects when the schema is built and checks the
// arguments of a field before its resolver runs; the public package
// validate offers the same checks for any struct.
package validate

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// Violation is one value that breaks a constraint: the path of the value
// from the checked root (argument names, input field names, list
// indexes), the constraint (the tag's rule, such as "max") and a message
// that says what is wanted.
type Violation struct {
	Path       []any  `json:"path"`
	Constraint string `json:"constraint"`
	Message    string `json:"message"`
}

// Field returns the path as text, "input.tags[2]".
func (v Violation) Field() string {
	var b strings.Builder
	for i, p := range v.Path {
		switch x := p.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		case string:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(x)
		}
	}
	return b.String()
}

// Error is the error of a value with violations: every violation found,
// in the order of the fields. Its Extensions are code BAD_USER_INPUT and
// violations, the list, so that a GraphQL error carries them.
type Error struct {
	Violations []Violation
}

// Error lists the violations: "input.title: must be at least 1 character
// long; input.isbn: must be 13 characters long".
func (e *Error) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.Field() + ": " + v.Message
	}
	return "Invalid input: " + strings.Join(parts, "; ") + "."
}

// Extensions returns the GraphQL error extensions: code BAD_USER_INPUT
// and the violations.
func (e *Error) Extensions() map[string]any {
	list := make([]any, len(e.Violations))
	for i, v := range e.Violations {
		path := make([]any, len(v.Path))
		copy(path, v.Path)
		list[i] = map[string]any{"path": path, "constraint": v.Constraint, "message": v.Message}
	}
	return map[string]any{"code": "BAD_USER_INPUT", "violations": list}
}

// NameFunc returns the name a struct field has in violation paths.
type NameFunc func(f reflect.StructField) string

// Checker checks values of one Go type. A nil *Checker checks nothing.
type Checker struct {
	t     reflect.Type
	check func(v reflect.Value, path []any, out *[]Violation)
}

// maxViolations bounds the violations of one value, so a list of a
// million bad items does not make a million errors.
const maxViolations = 100

// Check returns the violations of the value of the checker's type at p,
// with paths starting with prefix, or nil.
func (c *Checker) Check(p unsafe.Pointer, prefix []any) []Violation {
	if c == nil {
		return nil
	}
	var out []Violation
	c.check(reflect.NewAt(c.t, p).Elem(), prefix, &out)
	return out
}

// CheckValue is Check for a reflect.Value of the checker's type.
func (c *Checker) CheckValue(v reflect.Value, prefix []any) []Violation {
	if c == nil {
		return nil
	}
	var out []Violation
	c.check(v, prefix, &out)
	return out
}

// Compile returns the checker of struct type t from the `validate` tags
// of its fields and of the structs they hold (input objects, lists of
// them), or nil when no field of t has a constraint. name gives the
// field names of paths. It reports malformed tags and rules that do not
// apply to a field's type.
func Compile(t reflect.Type, name NameFunc) (*Checker, error) {
	c := &compiler{name: name, seen: map[reflect.Type]*structCheck{}}
	sc, err := c.structOf(t)
	if err != nil {
		return nil, err
	}
	if sc == nil {
		return nil, nil
	}
	return &Checker{t: t, check: sc.run}, nil
}

// Validator is implemented by a struct (or a pointer to it) that checks
// itself beyond its tags, such as a rule between two fields: Validate
// returns its violations, with paths relative to the struct. It runs
// after the tags' rules of its fields, and its violations are reported
// with theirs.
type Validator interface {
	Validate() []Violation
}

var validatorType = reflect.TypeFor[Validator]()

// structCheck checks the fields of one struct type; it may be referred to
// before it is complete (recursive input objects).
type structCheck struct {
	fields []fieldCheck
	self   bool // the struct implements Validator (through a pointer)
	empty  bool // no field has a constraint, here or below
}

type fieldCheck struct {
	index int
	name  string
	check func(v reflect.Value, path []any, out *[]Violation)
}

func (sc *structCheck) run(v reflect.Value, path []any, out *[]Violation) {
	for _, f := range sc.fields {
		if len(*out) >= maxViolations {
			return
		}
		f.check(v.Field(f.index), append(path[:len(path):len(path)], f.name), out)
	}
	if sc.self && len(*out) < maxViolations {
		var val Validator
		if v.CanAddr() {
			val, _ = v.Addr().Interface().(Validator)
		} else {
			val, _ = v.Interface().(Validator)
		}
		if val == nil {
			return
		}
		for _, vi := range val.Validate() {
			if len(*out) >= maxViolations {
				return
			}
			vi.Path = append(append([]any(nil), path...), vi.Path...)
			*out = append(*out, vi)
		}
	}
}

type compiler struct {
	name NameFunc
	seen map[reflect.Type]*structCheck
}

// structOf compiles a struct type, or returns nil when nothing in it has
// a constraint.
func (c *compiler) structOf(t reflect.Type) (*structCheck, error) {
	if sc, ok := c.seen[t]; ok {
		if sc.empty {
			return nil, nil
		}
		return sc, nil
	}
	sc := &structCheck{}
	c.seen[t] = sc
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("graphql") == "-" {
			continue
		}
		tag := f.Tag.Get("validate")
		check, err := c.value(f.Type, tag)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		if check == nil {
			continue
		}
		name := c.name(f)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("graphql") == "" {
			name = "" // promoted fields keep their own names
		}
		sc.fields = append(sc.fields, fieldCheck{index: i, name: name, check: check})
	}
	for i, f := range sc.fields {
		if f.name == "" {
			inner := f.check
			sc.fields[i].check = func(v reflect.Value, path []any, out *[]Violation) {
				inner(v, path[:len(path)-1], out)
			}
		}
	}
	sc.self = reflect.PointerTo(t).Implements(validatorType)
	sc.empty = len(sc.fields) == 0 && !sc.self
	if sc.empty {
		return nil, nil
	}
	return sc, nil
}

// value compiles the check of a value of type t with the rules of tag,
// followed by the checks of what it holds. It returns nil when there is
// nothing to check.
func (c *compiler) value(t reflect.Type, tag string) (func(reflect.Value, []any, *[]Violation), error) {
	rules, rest, err := parseTag(tag)
	if err != nil {
		return nil, err
	}
	// Pointers: nil is not checked (a null or absent value).
	if t.Kind() == reflect.Pointer {
		inner, err := c.value(t.Elem(), tag)
		if err != nil || inner == nil {
			return nil, err
		}
		return func(v reflect.Value, path []any, out *[]Violation) {
			if !v.IsNil() {
				inner(v.Elem(), path, out)
			}
		}, nil
	}
	if isOptional(t) {
		inner, err := c.value(t.Field(0).Type, tag)
		if err != nil || inner == nil {
			return nil, err
		}
		return func(v reflect.Value, path []any, out *[]Violation) {
			if v.Field(1).Bool() && !v.Field(2).Bool() {
				inner(v.Field(0), path, out)
			}
		}, nil
	}
	checks := make([]func(reflect.Value) (string, bool), 0, len(rules))
	var names []string
	omitEmpty := false
	for _, alts := range rules {
		if len(alts) == 1 && alts[0].name == "omitempty" {
			omitEmpty = true
			continue
		}
		var fns []func(reflect.Value) (string, bool)
		var msgs []string
		for _, r := range alts {
			fn, msg, err := compileRule(r, t)
			if err != nil {
				return nil, err
			}
			fns = append(fns, fn)
			msgs = append(msgs, msg)
		}
		names = append(names, alts[0].name)
		msg := strings.Join(msgs, " or ")
		checks = append(checks, func(v reflect.Value) (string, bool) {
			for _, fn := range fns {
				if _, ok := fn(v); ok {
					return "", true
				}
			}
			return msg, false
		})
	}
	var below func(reflect.Value, []any, *[]Violation)
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		elemTag := ""
		if rest != nil {
			elemTag = *rest
		}
		elem, err := c.value(t.Elem(), elemTag)
		if err != nil {
			return nil, err
		}
		if elem != nil {
			below = func(v reflect.Value, path []any, out *[]Violation) {
				for i := 0; i < v.Len() && len(*out) < maxViolations; i++ {
					elem(v.Index(i), append(path[:len(path):len(path)], i), out)
				}
			}
		}
	case reflect.Struct:
		if rest != nil {
			return nil, fmt.Errorf("dive applies to lists only")
		}
		sc, err := c.structOf(t)
		if err != nil {
			return nil, err
		}
		if sc != nil {
			below = sc.run
		}
	default:
		if rest != nil {
			return nil, fmt.Errorf("dive applies to lists only")
		}
	}
	if len(checks) == 0 && below == nil {
		return nil, nil
	}
	return func(v reflect.Value, path []any, out *[]Violation) {
		if omitEmpty && v.IsZero() {
			return
		}
		for i, check := range checks {
			if msg, ok := check(v); !ok {
				if len(*out) >= maxViolations {
					return
				}
				*out = append(*out, Violation{Path: append([]any(nil), path...), Constraint: names[i], Message: msg})
			}
		}
		if below != nil {
			below(v, path, out)
		}
	}, nil
}

// isOptional reports whether t is schema.Optional[T]: a struct of Value,
// Set and Null.
func isOptional(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 3 && t.Field(0).Name == "Value" &&
		t.Field(1).Name == "Set" && t.Field(2).Name == "Null" && strings.HasPrefix(t.Name(), "Optional[")
}
