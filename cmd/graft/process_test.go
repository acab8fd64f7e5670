package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// buildGraft builds this command into a temporary directory and returns
// the binary's path.
func buildGraft(t *testing.T) string {
	t.Helper()
	goBin := testenv.LookPath(t, "go")
	bin := filepath.Join(t.TempDir(), "graft")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startGraftProcess starts bin on a free loopback port with env beside
// the defaults, stops it with SIGTERM when the test ends, and returns its
// URL once it logs that it serves.
func startGraftProcess(t *testing.T, bin string, env ...string) string {
	t.Helper()
	port := freePort(t)
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
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	logs := bufio.NewScanner(stderr)
	url := waitForStartLine(t, logs)
	go func() {
		for logs.Scan() {
		}
	}()
	return url
}

// TestServerProcess builds cmd/graft, runs it as a process on a free port,
// queries it, opens GraphiQL, and stops it with SIGTERM.
func TestServerProcess(t *testing.T) {
	goBin := testenv.LookPath(t, "go")
	bin := filepath.Join(t.TempDir(), "graft")
	build := exec.Command(goBin, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	tests := []struct {
		name    string
		args    []string
		env     []string
		query   string
		wantIn  string
		graphiQ bool
	}{
		{"blog by default", nil, nil, `{"query":"{ hello authors(first: 1) { name } }"}`, `"hello":"world"`, true},
		{"starwars by flag", []string{"-example", "starwars"}, []string{"GRAPHIQL_ENABLED=false"},
			`{"query":"{ hero { name } }"}`, `"name":"R2-D2"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			port := freePort(t)
			cmd := exec.Command(bin, tt.args...)
			cmd.Env = append(append(os.Environ(), "PORT="+strconv.Itoa(port), "HOST=127.0.0.1", "LOG_FORMAT=json"), tt.env...)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill() }()

			logs := bufio.NewScanner(stderr)
			url := waitForStartLine(t, logs)
			if want := "http://127.0.0.1:" + strconv.Itoa(port); url != want {
				t.Errorf("start line URL = %q, want %q", url, want)
			}
			rest := make(chan string, 1)
			go func() {
				var b strings.Builder
				for logs.Scan() {
					b.WriteString(logs.Text() + "\n")
				}
				rest <- b.String()
			}()

			if status, body := get(t, url+"/health", nil); status != 200 || !strings.Contains(body, `"ok"`) {
				t.Errorf("/health = %d %s", status, body)
			}
			if status, body := get(t, url+"/ready", nil); status != 200 || !strings.Contains(body, `"ready"`) {
				t.Errorf("/ready = %d %s", status, body)
			}
			resp, err := http.Post(url+"/graphql", "application/json", strings.NewReader(tt.query))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), tt.wantIn) {
				t.Errorf("query = %d %s, want 200 with %s", resp.StatusCode, body, tt.wantIn)
			}
			if status, _ := get(t, url+"/graphql?query=%7B__typename%7D", nil); status != 400 {
				t.Errorf("GET without a preflight header = %d, want 400 (CSRF protection on)", status)
			}
			if status, body := get(t, url+"/graphql?query=%7B__typename%7D", map[string]string{"client-require-preflight": "1"}); status != 200 {
				t.Errorf("GET with a preflight header = %d %s, want 200", status, body)
			}
			status, page := get(t, url+"/graphiql", map[string]string{"Accept": "text/html"})
			if tt.graphiQ && (status != 200 || !strings.Contains(page, "graphiql")) {
				t.Errorf("/graphiql = %d, want the GraphiQL page", status)
			}
			if !tt.graphiQ && status != 404 {
				t.Errorf("/graphiql with GRAPHIQL_ENABLED=false = %d, want 404", status)
			}

			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			tail := <-rest
			if err := cmd.Wait(); err != nil {
				t.Errorf("exit after SIGTERM: %v, want a clean exit 0\n%s", err, tail)
			}
			if !strings.Contains(tail, "graft: stopped") {
				t.Errorf("logs after SIGTERM lack the stop line:\n%s", tail)
			}
			// The access log is buffered; its lines are all written by
			// the time the process exits.
			var posts int
			for l := range strings.SplitSeq(tail, "\n") {
				var rec struct {
					Msg, Method, Remote string
					RequestID           string   `json:"request_id"`
					DurationMS          *float64 `json:"duration_ms"`
					Status              int
				}
				if json.Unmarshal([]byte(l), &rec) != nil || rec.Msg != "graphql request" || rec.Method != "POST" {
					continue
				}
				posts++
				if rec.Status != 200 || rec.RequestID == "" || !strings.HasPrefix(rec.Remote, "127.0.0.1:") || rec.DurationMS == nil || *rec.DurationMS <= 0 {
					t.Errorf("access line %s lacks a field", l)
				}
			}
			if posts != 1 {
				t.Errorf("%d access lines for the POST, want 1:\n%s", posts, tail)
			}
		})
	}
}

// waitForStartLine reads JSON log lines until the start line and returns
// its URL.
func waitForStartLine(t *testing.T, logs *bufio.Scanner) string {
	t.Helper()
	var seen []string
	for logs.Scan() {
		seen = append(seen, logs.Text())
		var rec struct {
			Msg string `json:"msg"`
			URL string `json:"url"`
		}
		if json.Unmarshal(logs.Bytes(), &rec) == nil && rec.Msg == "graft: serving" {
			return rec.URL
		}
	}
	t.Fatalf("server exited before its start line; logs:\n%s", strings.Join(seen, "\n"))
	return ""
}

func get(t *testing.T, url string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
