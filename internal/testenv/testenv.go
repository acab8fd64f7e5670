// Package testenv lets tests that need an outside program (redis-server,
// node, chromium) skip with a clear message when it is absent, and fail
// instead when GRAFT_REQUIRE_ALL is set, as CI does, so that a green run
// always means those tests ran.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// RequireAllVar is the environment variable that turns skips into failures.
const RequireAllVar = "GRAFT_REQUIRE_ALL"

// RequireAll reports whether missing tools must fail tests instead of
// skipping them.
func RequireAll() bool {
	v := os.Getenv(RequireAllVar)
	return v != "" && v != "0" && v != "false"
}

// LookPath returns the path of the named program. When it is not on PATH
// the test is skipped, or failed when RequireAll is set.
func LookPath(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" is not on PATH")
	}
	return p
}

// Missing skips the test with the reason, or fails it when RequireAll is
// set.
func Missing(t testing.TB, reason string) {
	t.Helper()
	if RequireAll() {
		t.Fatalf("%s (and %s is set, so this test may not skip)", reason, RequireAllVar)
	}
	t.Skipf("skipping: %s (set %s=1 to make this a failure)", reason, RequireAllVar)
}
