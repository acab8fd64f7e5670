package validate

import (
	"reflect"
	"strconv"
	"strings"
)

// ConstraintDirectiveArgs are the arguments of the @constraint directive,
// as graphql-constraint-directive defines them.
const ConstraintDirectiveArgs = "minLength: Int, maxLength: Int, startsWith: String, endsWith: String, contains: String, notContains: String, " +
	"pattern: String, format: String, min: Float, max: Float, exclusiveMin: Float, exclusiveMax: Float, minItems: Int, maxItems: Int"

// ConstraintArgs returns the arguments of the @constraint directive that
// state the rules of tag for a value of type t, in SDL ("minLength: 1,
// maxLength: 200"), or "" when none can be stated. Rules the directive
// cannot express (alternatives, the rules of list items, oneof) are left
// out: the directive documents, the executor enforces every rule.
func ConstraintArgs(tag string, t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	rules, _, err := parseTag(tag)
	if err != nil {
		return ""
	}
	k := t.Kind()
	isString := k == reflect.String
	isList := k == reflect.Slice || k == reflect.Array
	isNumber := k >= reflect.Int && k <= reflect.Float64
	var parts []string
	add := func(name, value string) { parts = append(parts, name+": "+value) }
	str := func(s string) string { return strconv.Quote(s) }
	for _, alts := range rules {
		if len(alts) != 1 {
			continue
		}
		r := alts[0]
		switch {
		case isString && (r.name == "min" || r.name == "gte"):
			add("minLength", r.param)
		case isString && (r.name == "max" || r.name == "lte"):
			add("maxLength", r.param)
		case isString && r.name == "len":
			add("minLength", r.param)
			add("maxLength", r.param)
		case isList && (r.name == "min" || r.name == "gte"):
			add("minItems", r.param)
		case isList && (r.name == "max" || r.name == "lte"):
			add("maxItems", r.param)
		case isList && r.name == "len":
			add("minItems", r.param)
			add("maxItems", r.param)
		case isNumber && (r.name == "min" || r.name == "gte"):
			add("min", r.param)
		case isNumber && (r.name == "max" || r.name == "lte"):
			add("max", r.param)
		case isNumber && r.name == "gt":
			add("exclusiveMin", r.param)
		case isNumber && r.name == "lt":
			add("exclusiveMax", r.param)
		case isString && r.name == "startswith":
			add("startsWith", str(r.param))
		case isString && r.name == "endswith":
			add("endsWith", str(r.param))
		case isString && r.name == "contains":
			add("contains", str(r.param))
		case isString && r.name == "excludes":
			add("notContains", str(r.param))
		case isString && r.name == "pattern":
			add("pattern", str(r.param))
		case isString && r.name == "number":
			add("pattern", str("^[0-9]+$"))
		case isString && r.name == "email":
			add("format", str("email"))
		case isString && r.name == "url":
			add("format", str("uri"))
		case isString && r.name == "uuid":
			add("format", str("uuid"))
		}
	}
	// One pattern only: a second one (number and pattern) is left out.
	seen := map[string]bool{}
	out := parts[:0]
	for _, p := range parts {
		name, _, _ := strings.Cut(p, ":")
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, p)
	}
	return strings.Join(out, ", ")
}
