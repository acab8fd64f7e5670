package validate

import (
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rule is one constraint of a tag: its name and parameter ("max", "200").
type rule struct{ name, param string }

// parseTag splits a tag into rules, each a list of alternatives joined by
// "|", up to "dive"; rest is what follows dive (the rules of a list's
// items), nil without dive. A pattern rule takes the rest of the tag,
// commas and bars included, so it comes last.
func parseTag(tag string) (rules [][]rule, rest *string, err error) {
	for tag != "" {
		var part string
		if strings.HasPrefix(tag, "pattern=") {
			part, tag = tag, ""
		} else {
			part, tag, _ = strings.Cut(tag, ",")
		}
		if part == "dive" {
			r := tag
			return rules, &r, nil
		}
		if part == "" {
			return nil, nil, fmt.Errorf("empty rule in validate tag")
		}
		var alts []rule
		if strings.HasPrefix(part, "pattern=") {
			alts = []rule{{name: "pattern", param: part[len("pattern="):]}}
		} else {
			for _, a := range strings.Split(part, "|") {
				name, param, _ := strings.Cut(a, "=")
				alts = append(alts, rule{name: name, param: param})
			}
		}
		rules = append(rules, alts)
	}
	return rules, nil, nil
}

type checkFunc = func(reflect.Value) (string, bool)

// compileRule compiles one rule for values of type t: the check, and the
// message of a value that fails it.
func compileRule(r rule, t reflect.Type) (checkFunc, string, error) {
	k := t.Kind()
	isString := k == reflect.String
	isList := k == reflect.Slice || k == reflect.Array || k == reflect.Map
	isInt := k >= reflect.Int && k <= reflect.Int64
	isUint := k >= reflect.Uint && k <= reflect.Uintptr
	isFloat := k == reflect.Float32 || k == reflect.Float64
	isNumber := isInt || isUint || isFloat
	bad := func(why string) (checkFunc, string, error) {
		return nil, "", fmt.Errorf("rule %q %s", r.name+paramText(r.param), why)
	}
	if r.name == "required" {
		return func(v reflect.Value) (string, bool) { return "", !v.IsZero() }, "is required", nil
	}
	switch r.name {
	case "min", "max", "len", "gt", "gte", "lt", "lte", "eq", "ne":
		if !isString && !isList && !isNumber {
			return bad("applies to strings, lists and numbers")
		}
		n, err := strconv.ParseFloat(r.param, 64)
		if err != nil {
			return bad("needs a number")
		}
		cmp := comparison(r.name, n)
		switch {
		case isString:
			return func(v reflect.Value) (string, bool) { return "", cmp(float64(utf8.RuneCountInString(v.String()))) },
				sizeMessage(r.name, r.param, "character"), nil
		case isList:
			return func(v reflect.Value) (string, bool) { return "", cmp(float64(v.Len())) },
				sizeMessage(r.name, r.param, "item"), nil
		case isInt:
			return func(v reflect.Value) (string, bool) { return "", cmp(float64(v.Int())) }, valueMessage(r.name, r.param), nil
		case isUint:
			return func(v reflect.Value) (string, bool) { return "", cmp(float64(v.Uint())) }, valueMessage(r.name, r.param), nil
		default:
			return func(v reflect.Value) (string, bool) { return "", cmp(v.Float()) }, valueMessage(r.name, r.param), nil
		}
	case "oneof":
		if !isString && !isInt && !isUint {
			return bad("applies to strings and integers")
		}
		opts := strings.Fields(r.param)
		if len(opts) == 0 {
			return bad("needs values")
		}
		msg := "must be one of " + strings.Join(opts, ", ")
		return func(v reflect.Value) (string, bool) {
			var s string
			switch {
			case isString:
				s = v.String()
			case isInt:
				s = strconv.FormatInt(v.Int(), 10)
			default:
				s = strconv.FormatUint(v.Uint(), 10)
			}
			for _, o := range opts {
				if s == o {
					return "", true
				}
			}
			return "", false
		}, msg, nil
	}
	if !isString {
		return bad("applies to strings")
	}
	str := func(fn func(string) bool) checkFunc {
		return func(v reflect.Value) (string, bool) { return "", fn(v.String()) }
	}
	switch r.name {
	case "email":
		return str(Email), "must be an email address", nil
	case "url":
		return str(absoluteURL), "must be an absolute URL", nil
	case "uuid":
		return str(uuidPattern.MatchString), "must be a UUID", nil
	case "numeric":
		return str(numericPattern.MatchString), "must be a number", nil
	case "number":
		return str(func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }), "must contain only digits", nil
	case "alpha":
		return str(func(s string) bool { return s != "" && strings.IndexFunc(s, notLetter) < 0 }), "must contain only letters", nil
	case "alphanum":
		return str(func(s string) bool { return s != "" && strings.IndexFunc(s, notLetterOrDigit) < 0 }), "must contain only letters and digits", nil
	case "lowercase":
		return str(func(s string) bool { return s == strings.ToLower(s) }), "must be lower case", nil
	case "uppercase":
		return str(func(s string) bool { return s == strings.ToUpper(s) }), "must be upper case", nil
	case "startswith":
		p := r.param
		return str(func(s string) bool { return strings.HasPrefix(s, p) }), "must start with " + strconv.Quote(p), nil
	case "endswith":
		p := r.param
		return str(func(s string) bool { return strings.HasSuffix(s, p) }), "must end with " + strconv.Quote(p), nil
	case "contains":
		p := r.param
		return str(func(s string) bool { return strings.Contains(s, p) }), "must contain " + strconv.Quote(p), nil
	case "excludes":
		p := r.param
		return str(func(s string) bool { return !strings.Contains(s, p) }), "must not contain " + strconv.Quote(p), nil
	case "pattern":
		re, err := regexp.Compile(r.param)
		if err != nil {
			return bad("needs a regular expression: " + err.Error())
		}
		return str(re.MatchString), "must match " + r.param, nil
	}
	return nil, "", fmt.Errorf("unknown rule %q", r.name)
}

func paramText(p string) string {
	if p == "" {
		return ""
	}
	return "=" + p
}

func notLetter(r rune) bool        { return !unicode.IsLetter(r) }
func notLetterOrDigit(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

func comparison(name string, n float64) func(float64) bool {
	switch name {
	case "min", "gte":
		return func(x float64) bool { return x >= n }
	case "max", "lte":
		return func(x float64) bool { return x <= n }
	case "gt":
		return func(x float64) bool { return x > n }
	case "lt":
		return func(x float64) bool { return x < n }
	case "ne":
		return func(x float64) bool { return x != n }
	}
	return func(x float64) bool { return x == n } // len, eq
}

// sizeMessage is the message of a size rule of strings or lists.
func sizeMessage(name, param, unit string) string {
	units := unit + "s"
	if param == "1" {
		units = unit
	}
	verb := "be"
	tail := " long"
	if unit == "item" {
		verb, tail = "have", ""
	}
	switch name {
	case "min", "gte":
		return "must " + verb + " at least " + param + " " + units + tail
	case "max", "lte":
		return "must " + verb + " at most " + param + " " + units + tail
	case "gt":
		return "must " + verb + " more than " + param + " " + units + tail
	case "lt":
		return "must " + verb + " fewer than " + param + " " + units + tail
	case "ne":
		return "must not " + verb + " " + param + " " + units + tail
	}
	return "must " + verb + " " + param + " " + units + tail
}

// valueMessage is the message of a comparison of numbers.
func valueMessage(name, param string) string {
	switch name {
	case "min", "gte":
		return "must be at least " + param
	case "max", "lte":
		return "must be at most " + param
	case "gt":
		return "must be greater than " + param
	case "lt":
		return "must be less than " + param
	case "ne":
		return "must not be " + param
	}
	return "must be " + param
}

var (
	uuidPattern    = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	numericPattern = regexp.MustCompile(`^[-+]?[0-9]+(?:\.[0-9]+)?$`)
	// emailPattern is the WHATWG HTML rule for a valid email address.
	emailPattern = regexp.MustCompile("^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$")
)

// Email reports whether s is an email address by the WHATWG HTML rule
// for input type=email (what graphql-scalars' EmailAddress checks).
func Email(s string) bool { return len(s) <= 320 && emailPattern.MatchString(s) }

func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "" || u.Path != "")
}
