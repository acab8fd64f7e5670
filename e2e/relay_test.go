package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// TestRelayRuntime runs relay-runtime (relay.test.mjs) against cmd/graft
// serving the bookstore example, GRAFT_EXAMPLE=bookstore: a connection
// paginated forward and backward through Relay's connection handler, and
// a node refetched by its global id.
func TestRelayRuntime(t *testing.T) {
	t.Parallel()
	requireNode(t)
	url := startGraft(t, "GRAFT_EXAMPLE=bookstore")
	runNode(t, "relay.test.mjs", "GRAFT_GRAPHQL_URL="+url+"/graphql")
}

// startGraft builds cmd/graft, runs it on a free loopback port with the
// given environment, and returns its base URL once it logs that it
// serves. The process is killed when the test ends.
func startGraft(t *testing.T, env ...string) string {
	t.Helper()
	goBin := testenv.LookPath(t, "go")
	bin := filepath.Join(t.TempDir(), "graft")
	build := exec.Command(goBin, "build", "-o", bin, "../cmd/graft")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ../cmd/graft: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(), "PORT="+strconv.Itoa(port), "HOST=127.0.0.1", "LOG_FORMAT=json"), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	logs := bufio.NewScanner(stderr)
	var seen []string
	for logs.Scan() {
		seen = append(seen, logs.Text())
		var rec struct {
			Msg string `json:"msg"`
			URL string `json:"url"`
		}
		if json.Unmarshal(logs.Bytes(), &rec) == nil && strings.Contains(rec.Msg, "serving") && rec.URL != "" {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return rec.URL
		}
	}
	t.Fatalf("cmd/graft exited before serving; logs:\n%s", strings.Join(seen, "\n"))
	return ""
}
