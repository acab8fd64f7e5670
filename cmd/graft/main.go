// Command graft is the ready-to-run graft server and its tools.
//
//	graft [serve] [-example blog|chat|starwars]   serve an example schema (default)
//	graft manifest [-o out.json] files...    build an Apollo persisted-query manifest
//	graft hash [-algorithm sha256|sha512] [file|-]
//	                                         print the persisted-query hash of a query
//	graft sdl [-example blog|chat|starwars]       print an example schema's SDL
//
// The server is configured from the environment; `graft --help` lists every
// variable with its default.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.LookupEnv, os.Stdin, os.Stdout, os.Stderr))
}

// env finds an environment variable, like os.LookupEnv.
type env func(name string) (string, bool)

// run runs the command line args and returns the exit code: 0 on success,
// 1 when the command fails, 2 for a usage error.
func run(ctx context.Context, args []string, lookup env, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return runServe(ctx, args, lookup, stdout, stderr)
	case "manifest":
		return runManifest(args, stdout, stderr)
	case "hash":
		return runHash(args, stdin, stdout, stderr)
	case "sdl":
		return runSDL(args, lookup, stdout, stderr)
	case "help":
		return runServe(ctx, []string{"-help"}, lookup, stdout, stderr)
	}
	fmt.Fprintf(stderr, "graft: unknown command %q; want serve, manifest, hash or sdl (graft --help)\n", cmd)
	return 2
}
