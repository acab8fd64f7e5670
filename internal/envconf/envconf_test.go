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

func TestParseDurationPortAndEmpty(t *testing.T) {
	var s struct {
		Grace *Duration `env:"X_GRACE"`
		Port  *Port     `env:"X_PORT"`
		Max   *Limit    `env:"X_MAX"`
	}
	if err := Parse(&s, lookupMap(map[string]string{"X_GRACE": "1m30s", "X_PORT": "8080", "X_MAX": ""})); err != nil {
		t.Fatal(err)
	}
	if s.Grace == nil || time.Duration(*s.Grace) != 90*time.Second || s.Port == nil || *s.Port != 8080 {
		t.Fatalf("got grace %v, port %v", s.Grace, s.Port)
	}
	if s.Max != nil {
		t.Errorf("an empty variable must count as unset, got %v", *s.Max)
	}
	err := Parse(&s, lookupMap(map[string]string{"X_GRACE": "-1s", "X_PORT": "65536"}))
	for _, want := range []string{`X_GRACE="-1s": must be a non-negative Go duration`, `X_PORT="65536": must be a port number`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not contain %q", err, want)
		}
	}
}

func TestDescribe(t *testing.T) {
	vars := Describe(Router{})
	if len(vars) == 0 || vars[0].Name != "GRAPHQL_PATH" || vars[0].Field != "Path" || vars[0].Default != "/graphql" {
		t.Fatalf("Describe(Router{})[0] = %+v", vars[0])
	}
	for _, v := range vars {
		if v.Name == "GRAPHQL_MAX_DEPTH" && (v.Default != "0 (unlimited)" || v.Graft != "10") {
			t.Errorf("GRAPHQL_MAX_DEPTH = %+v", v)
		}
	}
}
