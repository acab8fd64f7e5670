package servers

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/workload"
)

// NodeDir returns the folder of the Node peers' package (bench/node):
// $GRAFT_BENCH_NODE_DIR when set, else the folder beside this source file.
func NodeDir() string {
	if d := os.Getenv("GRAFT_BENCH_NODE_DIR"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "node"
	}
	return filepath.Join(filepath.Dir(file), "..", "node")
}

// NodeInstalled says whether node and the Node peers' packages (`npm ci`
// in bench/node) are present.
func NodeInstalled() bool {
	if _, err := exec.LookPath("node"); err != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(NodeDir(), "node_modules", "mercurius", "package.json"))
	return err == nil
}

// nodeServers returns Mercurius with graphql-jit on Fastify (in memory, or
// through the upstream), when it is installed.
func nodeServers(up bool) []Server {
	if !NodeInstalled() {
		return nil
	}
	name := "mercurius"
	if up {
		name += "-upstream"
	}
	return []Server{{
		Name: name, Check: check.Normalised, APQ: true, Upstream: up,
		Command: func(port int, upstreamURL string) ([]string, []string) {
			argv := []string{"node", filepath.Join(NodeDir(), "server.js"), "--port", strconv.Itoa(port)}
			if up {
				argv = append(argv, "--upstream", upstreamURL)
			}
			return argv, []string{"BENCH_SDL=" + workload.SDL}
		},
	}}
}
