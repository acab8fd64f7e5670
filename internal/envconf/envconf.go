// Package envconf reads configuration from environment variables with
// github.com/caarlos0/env, adding the value types graft's variables share
// (booleans in every common spelling, non-negative limits) and error
// messages that name the variable and the bad value. Every bad variable is
// reported at once.
package envconf

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
)

// Bool is a boolean variable: true/false, 1/0, yes/no or on/off, in any
// case. Use *Bool in a spec struct to tell an unset variable from false.
type Bool bool

// Limit is a non-negative integer variable.
type Limit int

// Duration is a non-negative Go duration variable ("30s", "1m30s").
type Duration time.Duration

// Port is a TCP port number variable, 0 to 65535.
type Port int

// Lookup finds an environment variable, like os.LookupEnv.
type Lookup func(name string) (string, bool)

// OSLookup reads the process environment.
var OSLookup Lookup = os.LookupEnv

// ParseBool parses the boolean spellings Bool accepts.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, errors.New("must be one of true/false, 1/0, yes/no, on/off")
}

// ParseLimit parses a non-negative integer.
func ParseLimit(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, errors.New("must be a non-negative integer")
	}
	return n, nil
}

var funcs = map[reflect.Type]env.ParserFunc{
	reflect.TypeFor[Bool](): func(v string) (any, error) {
		b, err := ParseBool(v)
		return Bool(b), err
	},
	reflect.TypeFor[Limit](): func(v string) (any, error) {
		n, err := ParseLimit(v)
		return Limit(n), err
	},
	reflect.TypeFor[Duration](): func(v string) (any, error) {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < 0 {
			return Duration(0), errors.New("must be a non-negative Go duration such as 30s or 1m30s")
		}
		return Duration(d), nil
	},
	reflect.TypeFor[Port](): func(v string) (any, error) {
		n, err := ParseLimit(v)
		if err != nil || n > 65535 {
			return Port(0), errors.New("must be a port number from 0 to 65535")
		}
		return Port(n), nil
	},
}

// Parse fills spec, a pointer to a struct whose fields carry `env:"NAME"`
// tags, from lookup. Unset variables, and variables set to the empty
// string, leave their fields untouched, so a pointer field stays nil
// unless its variable is set. The
// error joins one error per bad variable, each of the form
// `GRAPHQL_MAX_DEPTH="abc": must be a non-negative integer`.
func Parse(spec any, lookup Lookup) error {
	if lookup == nil {
		lookup = OSLookup
	}
	names := map[string]string{} // struct field name -> variable name
	environment := map[string]string{}
	t := reflect.TypeOf(spec).Elem()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if name == "" {
			continue
		}
		names[f.Name] = name
		if v, ok := lookup(name); ok && v != "" {
			environment[name] = v
		}
	}
	err := env.ParseWithOptions(spec, env.Options{Environment: environment, FuncMap: funcs})
	if err == nil {
		return nil
	}
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return err
	}
	var errs []error
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			name := names[pe.Name]
			errs = append(errs, fmt.Errorf("%s=%q: %w", name, environment[name], unwrapParse(pe.Err)))
			continue
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// unwrapParse drops strconv's wrapping so messages stay short.
func unwrapParse(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return ne.Err
	}
	return err
}
