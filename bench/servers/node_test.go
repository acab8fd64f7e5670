package servers

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/bench/workload"
	"github.com/graftgql/graft/internal/testenv"
)

// TestNodeAnswers holds the Node peers to the ceiling's answers: every
// in-memory query and its persisted variants on mercurius, yoga and apollo,
// q5 and q6 on their -upstream servers with 2 upstream calls each.
func TestNodeAnswers(t *testing.T) {
	if !NodeInstalled() {
		testenv.Missing(t, "the Node peers are not installed: run npm ci in "+NodeDir())
	}
	d := data.Shared()
	want, err := ceiling.Expected(d)
	if err != nil {
		t.Fatal(err)
	}
	svc := upstream.New(d, 0)
	usrv := httptest.NewServer(svc)
	defer usrv.Close()
	var names []string
	for _, s := range append(nodeServers(false), nodeServers(true)...) {
		names = append(names, s.Name)
	}
	if len(names) != 2*len(nodePeers) {
		t.Fatalf("Node servers %v, want %d", names, 2*len(nodePeers))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			s, ok := Lookup(name)
			if !ok || s.Command == nil {
				t.Fatalf("%s is not listed as a command", name)
			}
			base := startCommand(t, s, usrv.URL)
			var qs []workload.Query
			for _, q := range workload.All() {
				if s.Runs(q) {
					qs = append(qs, q)
				}
			}
			if len(qs) == 0 {
				t.Fatal("runs no query")
			}
			for _, q := range qs {
				bodies := [][]byte{q.Body()}
				if q.Persisted {
					bodies = [][]byte{q.RegisterBody(), q.Body()}
				}
				for _, body := range bodies {
					svc.Reset()
					res, err := http.Post(base+Path, "application/json", bytes.NewReader(body))
					if err != nil {
						t.Fatal(err)
					}
					got, _ := io.ReadAll(res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusOK {
						t.Fatalf("%s: status %d: %s", q.Name, res.StatusCode, got)
					}
					if err := check.Answer(q, got, want[q.Base], s.Check); err != nil {
						t.Error(err)
					}
					if q.Upstream && svc.Calls() != 2 {
						t.Errorf("%s: %d upstream calls, want 2", q.Name, svc.Calls())
					}
				}
			}
		})
	}
}

// startCommand runs s's command on a free port until the test ends and
// returns its base URL once it prints that it is ready.
func startCommand(t *testing.T, s Server, upstreamURL string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	argv, env := s.Command(port, upstreamURL)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "ready" {
				ready <- true
				_, _ = io.Copy(io.Discard, out)
				return
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("%s exited before it was ready", s.Name)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("%s not ready after 60 s", s.Name)
	}
	return "http://127.0.0.1:" + strconv.Itoa(port)
}
