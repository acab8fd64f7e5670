package servers

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

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

// nodePeer is a Node server: its name, its file in NodeDir and the npm
// package it serves with.
type nodePeer struct{ name, file, pkg string }

// nodePeers are the Node servers.
var nodePeers = []nodePeer{
	{"mercurius", "mercurius.js", "mercurius"},                  // Mercurius with graphql-jit on Fastify
	{"yoga", "yoga.js", "graphql-yoga"},                         // GraphQL Yoga on node:http
	{"apollo", "apollo.js", filepath.Join("@apollo", "server")}, // Apollo Server's standalone server
}

// isNode says whether name is one of the Node peers (in memory or through
// the upstream).
func isNode(name string) bool {
	name = strings.TrimSuffix(name, "-upstream")
	return slices.ContainsFunc(nodePeers, func(p nodePeer) bool { return p.name == name })
}

// NodeInstalled says whether node and the Node peers' packages (`npm ci`
// in bench/node) are present.
func NodeInstalled() bool {
	if _, err := exec.LookPath("node"); err != nil {
		return false
	}
	for _, p := range nodePeers {
		if _, err := os.Stat(filepath.Join(NodeDir(), "node_modules", p.pkg, "package.json")); err != nil {
			return false
		}
	}
	return true
}

// nodeServers returns the Node peers (in memory, or through the upstream)
// when they are installed. Each runs in production mode with automatic
// persisted queries.
func nodeServers(up bool) []Server {
	if !NodeInstalled() {
		return nil
	}
	var out []Server
	for _, p := range nodePeers {
		name, file := p.name, p.file
		if up {
			name += "-upstream"
		}
		out = append(out, Server{
			Name: name, Check: check.Normalised, APQ: true, Upstream: up,
			Command: func(port int, upstreamURL string) ([]string, []string) {
				argv := []string{"node", filepath.Join(NodeDir(), file), "--port", strconv.Itoa(port)}
				if up {
					argv = append(argv, "--upstream", upstreamURL)
				}
				return argv, []string{"BENCH_SDL=" + workload.SDL, "NODE_ENV=production"}
			},
		})
	}
	return out
}
