package graft_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

type profile struct {
	Name string
	Bio  *string
	Age  *int32
}

type profilePatch struct {
	Bio schema.Optional[string]
	Age schema.Optional[int32]
}

type updateProfileArgs struct {
	Patch profilePatch
	Name  schema.Optional[string]
}

// TestOptionalTellsAbsentFromNull runs an update mutation whose fields
// are left out (kept), given null (cleared) or given a value (set), as
// literals and as variables.
func TestOptionalTellsAbsentFromNull(t *testing.T) {
	var mu sync.Mutex
	bio, age := "gopher", int32(7)
	p := &profile{Name: "ann", Bio: &bio, Age: &age}
	b := schema.New()
	schema.Object[profile](b, "Profile")
	schema.Input[profilePatch](b, "ProfilePatch")
	schema.QueryNoArgs(b, "profile", func(ctx context.Context) (*profile, error) { return p, nil })
	schema.Mutation(b, "updateProfile", func(ctx context.Context, a updateProfileArgs) (*profile, error) {
		mu.Lock()
		defer mu.Unlock()
		if v, ok := a.Name.Get(); ok {
			p.Name = v
		}
		if a.Patch.Bio.Set {
			if v, ok := a.Patch.Bio.Get(); ok {
				p.Bio = &v
			} else {
				p.Bio = nil
			}
		}
		if a.Patch.Age.Set {
			if v, ok := a.Patch.Age.Get(); ok {
				p.Age = &v
			} else {
				p.Age = nil
			}
		}
		return p, nil
	})
	built, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(built, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name, body, want string
	}{
		{"absent fields are kept",
			`{"query":"mutation { updateProfile(patch: {}) { name bio age } }"}`,
			`{"data":{"updateProfile":{"name":"ann","bio":"gopher","age":7}}}`},
		{"null clears one field",
			`{"query":"mutation { updateProfile(patch: {bio: null}) { name bio age } }"}`,
			`{"data":{"updateProfile":{"name":"ann","bio":null,"age":7}}}`},
		{"a value sets it",
			`{"query":"mutation { updateProfile(patch: {bio: \"back\"}, name: \"bea\") { name bio age } }"}`,
			`{"data":{"updateProfile":{"name":"bea","bio":"back","age":7}}}`},
		{"null from a variable clears, absent keeps",
			`{"query":"mutation($p: ProfilePatch!) { updateProfile(patch: $p) { name bio age } }","variables":{"p":{"age":null}}}`,
			`{"data":{"updateProfile":{"name":"bea","bio":"back","age":null}}}`},
	}
	for _, s := range steps {
		a := postRaw(t, r, s.body)
		if a.status != 200 || a.body != s.want {
			t.Fatalf("%s: %d %s\nwant %s", s.name, a.status, a.body, s.want)
		}
	}
	sdl := built.SDL()
	for _, want := range []string{"bio: String\n", "age: Int\n", "updateProfile(patch: ProfilePatch!, name: String): Profile"} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q:\n%s", want, sdl)
		}
	}
}
