package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/graftgql/graft/persisted"
)

// runManifest builds an Apollo persisted-query manifest from .graphql
// files and writes it to -o or stdout.
func runManifest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("graft manifest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the manifest to this file instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: graft manifest [-o out.json] files.graphql...")
		fmt.Fprintln(stderr, "Builds an Apollo persisted query manifest: one entry per named operation, with the fragments it uses.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	sources := make(map[string]string, fs.NArg())
	for _, path := range fs.Args() {
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "graft manifest: %v\n", err)
			return 1
		}
		sources[path] = string(b)
	}
	manifest, err := persisted.BuildManifest(sources)
	if err != nil {
		fmt.Fprintf(stderr, "graft manifest: %v\n", err)
		return 1
	}
	if *out == "" {
		_, _ = stdout.Write(manifest)
		return 0
	}
	if err := os.WriteFile(*out, manifest, 0o644); err != nil {
		fmt.Fprintf(stderr, "graft manifest: %v\n", err)
		return 1
	}
	return 0
}

// runHash prints the persisted-query hash of the exact bytes of a file or
// of stdin.
func runHash(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("graft hash", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alg := fs.String("algorithm", persisted.SHA256, "hash algorithm: sha256 or sha512")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: graft hash [-algorithm sha256|sha512] [file|-]")
		fmt.Fprintln(stderr, "Prints the lowercase hex hash of the exact bytes of the query (stdin when no file or -).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if *alg != persisted.SHA256 && *alg != persisted.SHA512 {
		fmt.Fprintf(stderr, "graft hash: unknown algorithm %q; want sha256 or sha512\n", *alg)
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	var (
		query []byte
		err   error
	)
	if fs.NArg() == 0 || fs.Arg(0) == "-" {
		query, err = io.ReadAll(stdin)
	} else {
		query, err = os.ReadFile(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "graft hash: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, persisted.Hash(*alg, string(query)))
	return 0
}

// runSDL prints the SDL of an example schema.
func runSDL(args []string, lookup env, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("graft sdl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := defaultExample
	if v, ok := lookup("GRAFT_EXAMPLE"); ok && v != "" {
		def = v
	}
	name := fs.String("example", def, "example schema: "+exampleNames())
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	s, err := buildExample(*name)
	if err != nil {
		fmt.Fprintf(stderr, "graft sdl: %v\n", err)
		return 1
	}
	_, _ = io.WriteString(stdout, s.SDL())
	return 0
}
