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
	"sync"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// graftBinary is cmd/graft, built once for every test of the package that
// runs it as a process.
var graftBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

// TestMain removes the built cmd/graft when the tests are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if graftBinary.dir != "" {
		_ = os.RemoveAll(graftBinary.dir)
	}
	os.Exit(code)
}

// startGraft builds cmd/graft (once), starts it on a free loopback port
// with env beside the defaults, and returns its base URL (no trailing
// slash) once it logs that it serves. The process is killed when the
// test ends.
func startGraft(t *testing.T, env ...string) string {
	t.Helper()
	goBin := testenv.LookPath(t, "go")
	graftBinary.once.Do(func() {
		graftBinary.dir, graftBinary.err = os.MkdirTemp("", "graft-e2e-")
		if graftBinary.err != nil {
			return
		}
		graftBinary.path = filepath.Join(graftBinary.dir, "graft")
		build := exec.Command(goBin, "build", "-o", graftBinary.path, "github.com/graftgql/graft/cmd/graft")
		graftBinary.out, graftBinary.err = build.CombinedOutput()
	})
	if graftBinary.err != nil {
		t.Fatalf("go build cmd/graft: %v\n%s", graftBinary.err, graftBinary.out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(graftBinary.path)
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
		if json.Unmarshal(logs.Bytes(), &rec) == nil && rec.Msg == "graft: serving" && rec.URL != "" {
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
