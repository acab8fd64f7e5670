package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/graftgql/graft/bench/servers"
)

// benchservePkg is the command each Go server is built from alone.
const benchservePkg = "github.com/graftgql/graft/bench/cmd/benchserve"

// soloDir is where the solo binaries of the bench module in moduleDir are
// kept between runs: go build relinks one only when its inputs changed,
// so a second run starts at once. Each module folder (worktree) has its
// own, so runs in two trees do not overwrite each other's binaries.
func soloDir(moduleDir string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	sum := sha256.Sum256([]byte(moduleDir))
	return filepath.Join(base, "graft-bench", "solo-"+hex.EncodeToString(sum[:6])), nil
}

// buildSolo builds cmd/benchserve of the bench module in moduleDir once
// for each Go server named, with the tags solo and the server's own
// (servers.SoloTag), into dir, and returns each binary's path by server
// name. With profile, the tag profile is added: the binary can write
// profiles (-cpuprofile, -allocprofile), and links runtime/pprof, which
// keeps the runtime's memory profiling on; without it, it is off, as in a
// server built without pprof. The binaries are static (CGO_ENABLED=0), as
// servers are usually built for container images, so no server's resident
// set carries the C library's pages. env is added to this process's
// environment for the builds.
func buildSolo(ctx context.Context, log *slog.Logger, moduleDir, dir string, names []string, profile bool, env []string) (map[string]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, name := range names {
		bin, tags := filepath.Join(dir, name), "solo,"+servers.SoloTag(name)
		if profile {
			bin, tags = bin+"-profile", tags+",profile"
		}
		log.Info("building a solo server binary", "server", name, "tags", tags, "module", moduleDir)
		build := exec.CommandContext(ctx, "go", "build", "-tags", tags, "-o", bin, "./cmd/benchserve")
		build.Dir = moduleDir
		build.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
		if b, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building %s alone (go build -tags %s ./cmd/benchserve in %s): %w\n%s", name, tags, moduleDir, err, b)
		}
		out[name] = bin
	}
	return out, nil
}

// buildShipped builds cmd/graft, the server the graft-shipped entries
// run, into the per-tree cache folder.
func buildShipped(ctx context.Context, log *slog.Logger) error {
	dir, err := benchModuleDir(ctx)
	if err != nil {
		return err
	}
	cache, err := soloDir(dir)
	if err != nil {
		return err
	}
	log.Info("building cmd/graft as shipped")
	_, err = servers.BuildShipped(ctx, cache, nil)
	return err
}

// benchModuleDir is the folder of the bench module the working directory
// belongs to, found by asking go where cmd/benchserve is.
func benchModuleDir(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.Module.Dir}}", benchservePkg)
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("solo servers: go list %s from the working directory: %w (run from the bench folder, or pass -solo=false)", benchservePkg, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// goServers names the servers of srvs that are Go programs of this tree
// (those run by `serve`, not by a Command).
func goServers(srvs []servers.Server) []string {
	var out []string
	for _, s := range srvs {
		if s.Command == nil && s.Serve != nil {
			out = append(out, s.Name)
		}
	}
	return out
}
