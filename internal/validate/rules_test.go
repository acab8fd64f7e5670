package validate

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// check runs one tag on one value and returns the violated constraints.
func check(t *testing.T, tag string, v any) string {
	t.Helper()
	st := reflect.StructOf([]reflect.StructField{{Name: "V", Type: reflect.TypeOf(v), Tag: reflect.StructTag(`validate:"` + tag + `"`)}})
	c, err := Compile(st, func(f reflect.StructField) string { return strings.ToLower(f.Name) })
	if err != nil {
		t.Fatalf("%s: %v", tag, err)
	}
	p := reflect.New(st)
	p.Elem().Field(0).Set(reflect.ValueOf(v))
	var names []string
	for _, vi := range c.Check(unsafe.Pointer(p.Pointer()), nil) {
		names = append(names, vi.Constraint)
	}
	return strings.Join(names, ",")
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		tag  string
		v    any
		want string
	}{
		{"required", "", "required"},
		{"required", "x", ""},
		{"required", []int(nil), "required"},
		{"min=2,max=3", "héé", ""},
		{"min=2,max=3", "héééé", "max"},
		{"len=2", []int{1}, "len"},
		{"gt=0,lt=10", 0, "gt"},
		{"gte=0,lte=10", 10.5, "lte"},
		{"eq=3", uint(3), ""},
		{"ne=3", int64(3), "ne"},
		{"oneof=red green", "blue", "oneof"},
		{"oneof=1 2", 2, ""},
		{"email", "a@b", ""},
		{"email", "a b@c", "email"},
		{"url", "https://x.y/z", ""},
		{"url", "x.y/z", "url"},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", ""},
		{"uuid", "123e4567", "uuid"},
		{"numeric", "-1.5", ""},
		{"numeric", "1e3", "numeric"},
		{"number", "0123", ""},
		{"number", "-1", "number"},
		{"alpha", "abcé", ""},
		{"alphanum", "ab1", ""},
		{"alphanum", "a-1", "alphanum"},
		{"lowercase", "Ab", "lowercase"},
		{"uppercase", "AB", ""},
		{"startswith=ab|endswith=yz", "xyz", ""},
		{"startswith=ab|endswith=yz", "xy", "startswith"},
		{"contains=@", "a", "contains"},
		{"excludes=@", "a@", "excludes"},
		{"pattern=^a,b$", "a,b", ""},
		{"pattern=^[0-9]{2,3}$", "1", "pattern"},
		{"omitempty,min=3", "", ""},
		{"omitempty,min=3", "ab", "min"},
		{"max=2,dive,min=1", []string{"a", "", "b"}, "max,min"},
		{"max=5,dive,pattern=^x+$", []string{"x", "y"}, "pattern"},
	} {
		if got := check(t, tc.tag, tc.v); got != tc.want {
			t.Errorf("%q on %#v: violated %q, want %q", tc.tag, tc.v, got, tc.want)
		}
	}
}

func TestMessagesAndPaths(t *testing.T) {
	type inner struct {
		Tags []string `validate:"dive,max=1"`
	}
	type outer struct {
		In   []inner `validate:"min=1"`
		Name *string `validate:"min=2"`
	}
	c, err := Compile(reflect.TypeFor[outer](), func(f reflect.StructField) string { return strings.ToLower(f.Name) })
	if err != nil {
		t.Fatal(err)
	}
	name := "x"
	v := outer{In: []inner{{Tags: []string{"a", "bb"}}}, Name: &name}
	vs := c.Check(unsafe.Pointer(&v), []any{"arg"})
	e := &Error{Violations: vs}
	if want := "Invalid input: arg.in[0].tags[1]: must be at most 1 character long; arg.name: must be at least 2 characters long."; e.Error() != want {
		t.Errorf("Error() = %q\nwant      %q", e.Error(), want)
	}
	if ext := e.Extensions(); ext["code"] != "BAD_USER_INPUT" || len(ext["violations"].([]any)) != 2 {
		t.Errorf("Extensions() = %v", ext)
	}
}

func TestViolationsAreBounded(t *testing.T) {
	type s struct {
		L []string `validate:"dive,min=1"`
	}
	c, _ := Compile(reflect.TypeFor[s](), func(f reflect.StructField) string { return f.Name })
	v := s{L: make([]string, 10000)}
	if n := len(c.Check(unsafe.Pointer(&v), nil)); n != maxViolations {
		t.Errorf("%d violations, want %d", n, maxViolations)
	}
}
