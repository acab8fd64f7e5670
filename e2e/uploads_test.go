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

// TestUploadClients runs apollo-upload-client with Apollo Client, and
// urql's multipart uploads, against cmd/graft serving GRAFT_EXAMPLE=uploads
// with its defaults (CSRF prevention on, 16 MiB per file, 10 files).
func TestUploadClients(t *testing.T) {
	t.Parallel()
	requireNode(t)
	url := startGraftProcess(t, "GRAFT_EXAMPLE=uploads")
	runNode(t, "uploads.test.mjs", "GRAFT_GRAPHQL_URL="+url+"/graphql")
}

// startGraftProcess builds cmd/graft, runs it on a free loopback port with
// the given environment, and returns its URL; the process is killed when
// the test ends.
func startGraftProcess(t *testing.T, env ...string) string {
	t.Helper()
	goBin := testenv.LookPath(t, "go")
	bin := filepath.Join(t.TempDir(), "graft")
	build := exec.Command(goBin, "build", "-o", bin, "../cmd/graft")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
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
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	logs := bufio.NewScanner(stderr)
	var seen []string
	for logs.Scan() {
		seen = append(seen, logs.Text())
		var rec struct {
			Msg string `json:"msg"`
			URL string `json:"url"`
		}
		if json.Unmarshal(logs.Bytes(), &rec) == nil && rec.Msg == "graft: serving" {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return rec.URL
		}
	}
	t.Fatalf("cmd/graft exited before its start line; logs:\n%s", strings.Join(seen, "\n"))
	return ""
}
