package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/graftgql/graft/bench/servers"
)

// isGraftEntry says whether server is one of graft's own entries (graft,
// graft-fasthttp, graft-upstream…), those an earlier tree serves beside
// today's with -base.
func isGraftEntry(server string) bool {
	return server == "graft" || strings.HasPrefix(server, "graft-")
}

// baseProbe lists the entries to look for in the base: graft, which -base
// always measures, and the graft entries among srvs.
func baseProbe(srvs []servers.Server) []string {
	out := []string{"graft"}
	for _, s := range srvs {
		if isGraftEntry(s.Name) && !slices.Contains(out, s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

// baseTree is an earlier commit of this repository checked out into a
// temporary git worktree, with that tree's own bench binary built from its
// own bench module (its servers, its replace of the graft module), so
// nothing of the old API has to compile against the new.
type baseTree struct {
	ref    string // as given to -base
	commit string // full hash
	short  string // abbreviated hash, in server names: graft@<short>
	repo   string // top level of the repository the worktree belongs to
	dir    string // temporary folder holding the worktree and the binary
	tree   string // the worktree
	bin    string // the tree's bench binary
	// serveFlags are the flags the binary's `serve` command accepts;
	// -cpuprofile and -allocprofile came after the first version.
	serveFlags map[string]bool
	// serves are the probed graft entries its `serve` knows; graft's
	// came after the first version of the tool, the upstream ones later.
	serves map[string]bool
	// solo holds, by today's entry name, the binary of that entry built
	// alone from the tree's cmd/benchserve (trees from the solo harness
	// on); an entry without one runs from bin, which links every server.
	solo map[string]string
	// early is set when the tree predates cmd/benchserve and its graft
	// entry was built alone from earlySoloMain.
	early bool
}

// runsAlone says whether the base entry called name (NAME@<short>) runs
// from a binary holding it alone.
func (b *baseTree) runsAlone(name string) bool {
	now, ok := strings.CutSuffix(name, "@"+b.short)
	return ok && b.solo[now] != ""
}

// checkRef refuses what git would read as an option or what no ref holds.
func checkRef(ref string) error {
	if ref == "" {
		return errors.New("-base: empty ref")
	}
	if strings.HasPrefix(ref, "-") || strings.ContainsFunc(ref, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("-base: %q is not a git ref", ref)
	}
	return nil
}

// baseName is the name of server as built from the tree at short.
func baseName(server, short string) string { return server + "@" + short }

// gitOut runs git in dir and returns its trimmed standard output.
func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// prepareBase checks ref out into a temporary detached worktree of the
// repository holding the working directory, builds that tree's bench
// binary and asks it which of the servers named in probe it serves; a
// tree with cmd/benchserve also gets each of those built alone (with the
// tag profile when profile is set). The
// caller removes it with remove, which also runs when preparing fails
// half-way.
func prepareBase(ctx context.Context, log *slog.Logger, ref string, probe []string, profile bool) (*baseTree, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	repo, err := gitOut(ctx, ".", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("-base needs the bench folder inside its git repository: %w", err)
	}
	commit, err := gitOut(ctx, repo, "rev-parse", "--verify", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("-base %s: %w", ref, err)
	}
	short, err := gitOut(ctx, repo, "rev-parse", "--short", commit)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "graft-bench-base-")
	if err != nil {
		return nil, err
	}
	b := &baseTree{ref: ref, commit: commit, short: short, repo: repo, dir: dir,
		tree: filepath.Join(dir, "tree"), bin: filepath.Join(dir, "bench")}
	ok := false
	defer func() {
		if !ok {
			b.remove(log)
		}
	}()
	log.Info("checking the base out", "ref", ref, "commit", short, "worktree", b.tree)
	if _, err := gitOut(ctx, repo, "worktree", "add", "--detach", b.tree, commit); err != nil {
		return nil, err
	}
	benchDir := filepath.Join(b.tree, "bench")
	if _, err := os.Stat(filepath.Join(benchDir, "cmd", "bench")); err != nil {
		return nil, fmt.Errorf("-base %s: that tree has no bench/cmd/bench to build", ref)
	}
	log.Info("building the base's bench binary", "dir", benchDir)
	build := exec.CommandContext(ctx, "go", "build", "-o", b.bin, "./cmd/bench")
	build.Dir = benchDir
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("-base %s: go build ./cmd/bench in its bench module: %w\n%s", ref, err, out)
	}
	// `serve -h` prints the command's flags and exits with an error.
	usage, _ := exec.CommandContext(ctx, b.bin, "serve", "-h").CombinedOutput()
	b.serveFlags = parseFlagNames(string(usage))
	if !b.serveFlags["server"] || !b.serveFlags["port"] {
		return nil, fmt.Errorf("-base %s: its bench binary's serve command lacks -server or -port:\n%s", ref, usage)
	}
	b.serves = map[string]bool{}
	for _, name := range probe {
		// Without a port, `serve` stops at its first check: the name.
		out, _ := exec.CommandContext(ctx, b.bin, "serve", "-server", name, "-port", "0").CombinedOutput()
		b.serves[name] = !bytes.Contains(out, []byte("unknown server"))
	}
	if !b.serves["graft"] {
		return nil, fmt.Errorf("-base %s: its bench tool has no graft server to measure", ref)
	}
	// A tree with cmd/benchserve builds each of its servers alone, as
	// today's are; an earlier one serves them from its all-in-one binary.
	if _, err := os.Stat(filepath.Join(benchDir, "cmd", "benchserve")); err == nil {
		var names []string
		for _, name := range probe {
			if b.serves[name] {
				names = append(names, name)
			}
		}
		if b.solo, err = buildSolo(ctx, log, benchDir, filepath.Join(dir, "solo"), names, profile, []string{"GOWORK=off"}); err != nil {
			return nil, fmt.Errorf("-base %s: %w", ref, err)
		}
	} else if !profile {
		// An earlier tree gets its graft entry built alone from a small
		// program written against the API of that time, so its memory
		// compares with today's; if that does not compile, it runs from
		// the all-in-one binary as before.
		bin, err := buildEarlySolo(ctx, benchDir, filepath.Join(dir, "solo"))
		if err != nil {
			log.Warn("the base's graft runs from its all-in-one binary", "err", err)
		} else {
			b.solo, b.early = map[string]string{"graft": bin}, true
		}
	}
	ok = true
	return b, nil
}

// flagLine matches a flag in the usage text the flag package prints.
var flagLine = regexp.MustCompile(`(?m)^\s+-([A-Za-z0-9][\w-]*)`)

// parseFlagNames returns the flag names of a flag package usage text.
func parseFlagNames(usage string) map[string]bool {
	out := map[string]bool{}
	for _, m := range flagLine.FindAllStringSubmatch(usage, -1) {
		out[m[1]] = true
	}
	return out
}

// remove deletes the worktree and the binary.
func (b *baseTree) remove(log *slog.Logger) {
	if _, err := os.Stat(b.tree); err == nil {
		if _, err := gitOut(context.Background(), b.repo, "worktree", "remove", "--force", b.tree); err != nil {
			log.Warn("removing the base worktree", "err", err)
		}
	}
	_ = os.RemoveAll(b.dir)
}

// withBase returns srvs with the base tree's graft entries added, each
// just before today's entry of the same name: graft@<short> always, and
// NAME@<short> for each other graft entry selected (graft-fasthttp,
// graft-upstream…) that the base serves.
func withBase(srvs []servers.Server, b *baseTree, profileDir string) []servers.Server {
	var out []servers.Server
	added := false
	for _, s := range srvs {
		if isGraftEntry(s.Name) && b.serves[s.Name] {
			out = append(out, b.server(s, profileDir))
			added = added || s.Name == "graft"
		}
		out = append(out, s)
	}
	if !added {
		g, _ := servers.Lookup("graft")
		out = append(out, b.server(g, profileDir))
	}
	return out
}

// server describes today's entry now as served by the base tree: its solo
// binary for that entry when it has one, else its bench binary's `serve`,
// with `-server NAME -port N` (and `-upstream URL` for an upstream
// entry), the protocol every version of the tool speaks, printing "ready"
// when it accepts connections. Profiling flags are passed only when that
// binary knows them.
func (b *baseTree) server(now servers.Server, profileDir string) servers.Server {
	name := baseName(now.Name, b.short)
	return servers.Server{
		Name:     name,
		Check:    now.Check,
		APQ:      now.APQ,
		Upstream: now.Upstream,
		Tailcall: now.Tailcall,
		Command: func(port int, upstreamURL string) (argv, env []string) {
			argv = []string{b.bin, "serve", "-server", now.Name, "-port", strconv.Itoa(port)}
			if bin := b.solo[now.Name]; bin != "" {
				argv = append([]string{bin}, argv[2:]...)
			}
			if now.Upstream {
				argv = append(argv, "-upstream", upstreamURL)
			}
			if profileDir != "" && b.serveFlags["cpuprofile"] && b.serveFlags["allocprofile"] {
				argv = append(argv, "-cpuprofile", filepath.Join(profileDir, name+".cpu.pprof"),
					"-allocprofile", filepath.Join(profileDir, name+".allocs.pprof"))
			}
			return argv, nil
		},
	}
}

// earlySoloMain serves graft as the bench's graft entry did before
// cmd/benchserve existed (bench/servers.serveGraft of that time): the
// blog example, the default configuration with automatic persisted
// queries in memory, graft.Serve. It speaks the serve protocol: -server
// graft -port N, "ready" once listening, SIGTERM to stop. PKG and LAYER
// follow the API of the tree (earlyAPIs).
const earlySoloMain = `package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/PKG"
)

func main() {
	name := flag.String("server", "", "server to run")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 0, "port to listen on")
	flag.Parse()
	if *name != "graft" || *port == 0 {
		fmt.Fprintf(os.Stderr, "unknown server %q or no port\n", *name)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := blog.Schema()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{Path: "/graphql", PersistedQueries: &PKG.Options{Mode: PKG.APQ}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	err = graft.Serve(ctx, r, LAYERgraft.ServeOptions{Host: *host, Port: *port, OnStart: func(string) { fmt.Println("ready") }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`

// earlyAPIs are the APIs earlySoloMain is tried with, newest first: the
// persisted-query package's name (pq before it was renamed persisted) and
// whether graft.Serve took a layer argument.
var earlyAPIs = []struct{ pkg, layer string }{
	{"persisted", ""}, {"persisted", "nil, "}, {"pq", "nil, "}, {"pq", ""},
}

// buildEarlySolo writes earlySoloMain into the base tree's bench module
// (a temporary worktree) and builds it, static as buildSolo builds, into
// dir/graft, with the first of earlyAPIs that compiles.
func buildEarlySolo(ctx context.Context, benchDir, dir string) (string, error) {
	src := filepath.Join(benchDir, "cmd", "graftalone")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "graft")
	var errs []error
	for _, api := range earlyAPIs {
		code := strings.NewReplacer("PKG", api.pkg, "LAYER", api.layer).Replace(earlySoloMain)
		if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(code), 0o644); err != nil {
			return "", err
		}
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/graftalone")
		build.Dir = benchDir
		build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
		out, err := build.CombinedOutput()
		if err == nil {
			return bin, nil
		}
		errs = append(errs, fmt.Errorf("with package %s: %w\n%s", api.pkg, err, out))
	}
	return "", fmt.Errorf("go build of a graft-only program in %s: %w", benchDir, errors.Join(errs...))
}
