package servers

import (
	"go/build"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestSoloBuildsHoldOneServer checks the build constraints of the files
// that register the Go servers: built with the tags solo and SoloTag(name),
// the package holds the file registering name and no file registering
// another server.
func TestSoloBuildsHoldOneServer(t *testing.T) {
	if len(registered) < 10 {
		t.Fatalf("only %d servers registered in the ordinary build", len(registered))
	}
	for _, s := range registered {
		ctx := build.Default
		ctx.BuildTags = []string{"solo", SoloTag(s.Name)}
		for other, file := range registeredIn {
			match, err := ctx.MatchFile(".", file)
			if err != nil {
				t.Fatal(err)
			}
			if other == s.Name && !match {
				t.Errorf("%s: its file %s is left out of its solo build (tags solo,%s)", s.Name, file, SoloTag(s.Name))
			}
			if other != s.Name && match {
				t.Errorf("%s: the solo build (tags solo,%s) also registers %s (%s)", s.Name, SoloTag(s.Name), other, file)
			}
		}
	}
	for _, name := range order {
		if _, ok := registeredIn[name]; !ok && !isNode(name) && !IsShipped(name) {
			t.Errorf("%s is in order but no file registers it", name)
		}
	}
}

// TestSoloGraftLinksNoPeer checks that graft's solo binary links none of
// the peers or their libraries.
func TestSoloGraftLinksNoPeer(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "solo,"+SoloTag("graft"), "github.com/graftgql/graft/bench/cmd/benchserve").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/graftgql/graft/examples/blog") {
		t.Fatalf("graft's solo build lacks examples/blog: %v", deps)
	}
	for _, dep := range deps {
		for _, peer := range []string{"/bench/peers/", "99designs/gqlgen", "graph-gophers/", "graphql-go/graphql", "valyala/fasthttp", "go.opentelemetry.io/", "vikstrous/dataloadgen", "adapter/fasthttpadapter"} {
			if strings.Contains(dep, peer) {
				t.Errorf("graft's solo build links %s", dep)
			}
		}
	}
}

func TestSoloTag(t *testing.T) {
	if got := SoloTag("graft-upstream-raw"); got != "solo_graft_upstream_raw" {
		t.Errorf("SoloTag = %q", got)
	}
}
