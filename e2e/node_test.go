package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/testenv"
)

// nodeModules returns the absolute path of e2e/node_modules, skipping the
// test (or failing it under GRAFT_REQUIRE_ALL) when `npm ci` has not run.
func nodeModules(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".package-lock.json")); err != nil {
		testenv.Missing(t, "e2e/node_modules is not installed (run `npm ci` in e2e/)")
	}
	return dir
}

// requireNode skips the test (or fails it under GRAFT_REQUIRE_ALL) unless
// node and e2e/node_modules are there, and returns the node binary.
func requireNode(t *testing.T) string {
	t.Helper()
	node := testenv.LookPath(t, "node")
	nodeModules(t)
	return node
}

// runNode runs one Node test script with node's test runner and the given
// extra environment, failing the test with the runner's output when any of
// its tests fail.
func runNode(t *testing.T, script string, env ...string) {
	t.Helper()
	if err := nodeTest(t, script, env...); err != nil {
		t.Fatalf("node --test %s: %v", script, err)
	}
}

// runBrowser is runNode for the scripts that drive headless Chromium. A
// browser run that fails is run once more before the test fails: with
// every e2e test in parallel under -race, Chromium's first paint and
// CodeMirror's autocomplete can miss a 30 s wait on a loaded machine. The
// first failure stays in the test log.
func runBrowser(t *testing.T, script string, env ...string) {
	t.Helper()
	if err := nodeTest(t, script, env...); err != nil {
		t.Logf("node --test %s failed (%v); running it once more", script, err)
		if err := nodeTest(t, script, env...); err != nil {
			t.Fatalf("node --test %s, second run: %v", script, err)
		}
	}
}

// nodeTest runs script with node's test runner and logs its output when
// it fails or the test is verbose.
func nodeTest(t *testing.T, script string, env ...string) error {
	t.Helper()
	node := requireNode(t)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", script)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if testing.Verbose() || err != nil {
		t.Logf("node --test %s:\n%s", script, out.String())
	}
	return err
}
