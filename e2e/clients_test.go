package e2e

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// TestClientMatrix runs the clients people use against the ready-to-run
// server, cmd/graft, built and started as a process with its default
// settings (CSRF prevention, automatic persisted queries, masking) and
// the chat example: Apollo Client 3 and 4, urql with its persisted-query
// exchange over GET and POST, graphql-request, relay-runtime's fetch
// network layer, graphql-ws and graphql-sse, each with queries,
// mutations, variables, errors, persisted queries and subscriptions
// where the client has them (clients.test.mjs).
func TestClientMatrix(t *testing.T) {
	t.Parallel()
	requireNode(t)
	url := startGraftProcess(t, "GRAFT_EXAMPLE=chat")
	runNode(t, "clients.test.mjs", "GRAFT_GRAPHQL_URL="+url+"/graphql",
		"NODE_OPTIONS=--experimental-websocket") // Node 20 has WebSocket behind a flag
}

// startGraftProcess builds cmd/graft, starts it on a free loopback port
// with env beside the defaults, and returns its base URL once it serves.
func startGraftProcess(t *testing.T, env ...string) string {
	t.Helper()
	goBin := testenv.LookPath(t, "go")
	bin := filepath.Join(t.TempDir(), "graft")
	build := exec.Command(goBin, "build", "-o", bin, "github.com/graftgql/graft/cmd/graft")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/graft: %v\n%s", err, out)
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
		if json.Unmarshal(logs.Bytes(), &rec) == nil && rec.Msg == "graft: serving" {
			go func() { // keep reading, so the server never blocks on its log
				for logs.Scan() {
				}
			}()
			return strings.TrimSuffix(rec.URL, "/")
		}
	}
	t.Fatalf("cmd/graft exited before serving; logs:\n%s", strings.Join(seen, "\n"))
	return ""
}

// TestGraphiQLAgainstCmdGraft opens the GraphiQL page of cmd/graft (the
// Star Wars example, assets embedded in the binary) in headless Chromium
// with no network, and runs a query from it.
func TestGraphiQLAgainstCmdGraft(t *testing.T) {
	t.Parallel()
	chromium := testenv.LookPath(t, "chromium")
	requireNode(t)
	url := startGraftProcess(t, "GRAFT_EXAMPLE=starwars", "GRAPHIQL_ENABLED=true", "GRAPHIQL_ASSETS=embedded")
	runBrowser(t, "graphiql.test.mjs",
		"GRAFT_GRAPHIQL_URL="+url+"/graphiql",
		"GRAFT_CHROMIUM="+chromium,
		"GRAFT_OFFLINE=1",
		"GRAFT_SCREENSHOT="+filepath.Join(t.TempDir(), "graphiql-cmd-graft.png"))
}
