package envconf

import (
	"strings"
	"testing"
	"time"
)

type spec struct {
	Path    string        `env:"X_PATH"`
	On      *Bool         `env:"X_ON"`
	Max     Limit         `env:"X_MAX"`
	Timeout time.Duration `env:"X_TIMEOUT"`
}

func lookupMap(m map[string]string) Lookup {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParse(t *testing.T) {
	var s spec
	err := Parse(&s, lookupMap(map[string]string{"X_PATH": "/q", "X_ON": "Yes", "X_MAX": "12", "X_TIMEOUT": "2s"}))
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != "/q" || s.On == nil || !bool(*s.On) || s.Max != 12 || s.Timeout != 2*time.Second {
		t.Fatalf("got %+v", s)
	}
}

func TestParseUnsetLeavesDefaults(t *testing.T) {
	s := spec{Path: "/graphql", Max: 3}
	if err := Parse(&s, lookupMap(nil)); err != nil {
		t.Fatal(err)
	}
	if s.Path != "/graphql" || s.On != nil || s.Max != 3 {
		t.Fatalf("got %+v", s)
	}
}

func TestParseReportsEveryBadVariable(t *testing.T) {
	var s spec
	err := Parse(&s, lookupMap(map[string]string{"X_ON": "maybe", "X_MAX": "-1", "X_TIMEOUT": "soon"}))
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{
		`X_ON="maybe": must be one of true/false`,
		`X_MAX="-1": must be a non-negative integer`,
		`X_TIMEOUT="soon"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestParseBool(t *testing.T) {
	for in, want := range map[string]bool{"TRUE": true, "1": true, "yes": true, "On": true, "false": false, "0": false, "NO": false, "off": false} {
		got, err := ParseBool(in)
		if err != nil || got != want {
			t.Errorf("ParseBool(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseBool("maybe"); err == nil {
		t.Error("ParseBool(maybe) accepted")
	}
}
