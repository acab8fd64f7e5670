package graftserver

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/pubsub"
)

// Command runs one command line for svc and returns its exit status: 0 on
// success, 1 when the command fails, 2 for a usage error. args are the
// arguments after the program name:
//
//	[serve] [flags]              serve the schema (the default)
//	sdl [flags]                  print the schema's SDL
//	manifest [-o out.json] files build a persisted-query manifest
//	hash [-algorithm a] [-raw] [file|-]
//	                             print each operation's manifest id
//	help                         list the flags and every variable
//
// serve runs until ctx ends or the process receives SIGINT or SIGTERM.
func Command(ctx context.Context, svc Service, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if svc.Stderr == nil {
		svc.Stderr = stderr
	}
	prog := svc.name()
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return runServe(ctx, svc, prog, args, stdout, stderr)
	case "help":
		return runServe(ctx, svc, prog, []string{"-help"}, stdout, stderr)
	case "sdl":
		return runSDL(svc, prog, args, stdout, stderr)
	case "manifest":
		return runManifest(prog, args, stdout, stderr)
	case "hash":
		return runHash(prog, args, stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "%s: unknown command %q; want serve, sdl, manifest or hash (%s --help)\n", prog, cmd, prog)
	return 2
}

// runServe parses the serve flags and serves svc.
func runServe(ctx context.Context, svc Service, prog string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if svc.Flags != nil {
		svc.Flags(fs)
	}
	fs.Usage = func() {
		fs.SetOutput(stdout)
		printUsage(stdout, prog, fs.PrintDefaults)
		fs.SetOutput(stderr)
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q (%s --help)\n", prog, fs.Args(), prog)
		return 2
	}
	srv, err := newServer(ctx, svc, svc.lookup(), svc.stderr())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	if err := srv.run(ctx); err != nil {
		return 1
	}
	return 0
}

// runSDL prints the schema's SDL.
func runSDL(svc Service, prog string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(prog+" sdl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if svc.Flags != nil {
		svc.Flags(fs)
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if svc.Schema == nil {
		fmt.Fprintf(stderr, "%s sdl: no schema\n", prog)
		return 1
	}
	ps := pubsub.NewMemory(pubsub.Options{})
	defer ps.Close()
	s, err := svc.Schema(ps)
	if err != nil {
		fmt.Fprintf(stderr, "%s sdl: %v\n", prog, err)
		return 1
	}
	_, _ = io.WriteString(stdout, s.SDL())
	return 0
}

// runManifest builds an Apollo persisted-query manifest from .graphql
// files and writes it to -o or stdout.
func runManifest(prog string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(prog+" manifest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the manifest to this file instead of stdout")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s manifest [-o out.json] files.graphql...\n", prog)
		fmt.Fprintln(stderr, "Builds an Apollo persisted query manifest: one entry per named operation, with the fragments it uses, printed in canonical form; its id is the SHA-256 of that text.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	manifest, err := buildManifest(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "%s manifest: %v\n", prog, err)
		return 1
	}
	if *out == "" {
		_, _ = stdout.Write(manifest)
		return 0
	}
	if err := os.WriteFile(*out, manifest, 0o644); err != nil {
		fmt.Fprintf(stderr, "%s manifest: %v\n", prog, err)
		return 1
	}
	return 0
}

// buildManifest reads the files and builds their manifest.
func buildManifest(paths []string) ([]byte, error) {
	sources := make(map[string]string, len(paths))
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		sources[path] = string(b)
	}
	return persisted.BuildManifest(sources)
}

// manifestEntries are the entries of a manifest BuildManifest wrote.
type manifestEntries struct {
	Operations []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Body string `json:"body"`
	} `json:"operations"`
}

// runHash prints the id a manifest gives each operation of a file (the
// same normalisation as manifest), or with -raw the hash of the file's
// exact bytes.
func runHash(prog string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(prog+" hash", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alg := fs.String("algorithm", persisted.SHA256, "hash algorithm: sha256 or sha512")
	raw := fs.Bool("raw", false, "hash the exact bytes instead of each operation's canonical text (what an automatic-persisted-query client hashes when it sends the file as is)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s hash [-algorithm sha256|sha512] [-raw] [file|-]\n", prog)
		fmt.Fprintln(stderr, "Prints the persisted-query id of each named operation of the file (stdin when no file or -), as the manifest command writes it: the hash of the operation and the fragments it uses, printed in canonical form. One operation: its id alone; several: \"id name\" lines.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if *alg != persisted.SHA256 && *alg != persisted.SHA512 {
		fmt.Fprintf(stderr, "%s hash: unknown algorithm %q; want sha256 or sha512\n", prog, *alg)
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	var (
		query []byte
		err   error
		name  = "stdin"
	)
	if fs.NArg() == 0 || fs.Arg(0) == "-" {
		query, err = io.ReadAll(stdin)
	} else {
		name = filepath.Base(fs.Arg(0))
		query, err = os.ReadFile(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s hash: %v\n", prog, err)
		return 1
	}
	if *raw {
		fmt.Fprintln(stdout, persisted.Hash(*alg, string(query)))
		return 0
	}
	b, err := persisted.BuildManifest(map[string]string{name: string(query)})
	var m manifestEntries
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err == nil && len(m.Operations) == 0 {
		err = errors.New("no operations")
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s hash: %v\n", prog, err)
		return 1
	}
	for _, op := range m.Operations {
		id := persisted.Hash(*alg, op.Body)
		if len(m.Operations) == 1 {
			fmt.Fprintln(stdout, id)
		} else {
			fmt.Fprintln(stdout, id, op.Name)
		}
	}
	return 0
}

// usageCode maps a flag parse error to an exit code: 0 for -help.
func usageCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
