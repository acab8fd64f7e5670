package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	query := "query Hello { hello }\n"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	qfile := write("hello.graphql", query)
	ffile := write("authors.graphql", "query Authors { authors { ...A } }\nfragment A on Author { name }\n")
	anon := write("anon.graphql", "{ hello }")
	sum256 := sha256.Sum256([]byte(query))
	sum512 := sha512.Sum512([]byte(query))
	// hash prints the id manifest gives the operation: the hash of its
	// canonical text.
	canonical := "query Hello {\n  hello\n}"
	id256 := sha256.Sum256([]byte(canonical))
	id512 := sha512.Sum512([]byte(canonical))

	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		stdin      string
		wantCode   int
		wantOut    []string
		wantErr    []string
		notWantOut []string
	}{
		{name: "hash of stdin", args: []string{"hash"}, stdin: query, wantOut: []string{hex.EncodeToString(id256[:]) + "\n"}},
		{name: "hash of a file with sha512", args: []string{"hash", "-algorithm", "sha512", qfile},
			wantOut: []string{hex.EncodeToString(id512[:])}},
		{name: "hash of - reads stdin", args: []string{"hash", "-"}, stdin: query, wantOut: []string{hex.EncodeToString(id256[:])}},
		{name: "hash -raw hashes the bytes", args: []string{"hash", "-raw", qfile}, wantOut: []string{hex.EncodeToString(sum256[:]) + "\n"}},
		{name: "hash -raw with sha512", args: []string{"hash", "-raw", "-algorithm", "sha512", "-"}, stdin: query, wantOut: []string{hex.EncodeToString(sum512[:])}},
		{name: "hash of two operations names each", args: []string{"hash"}, stdin: query + "query Bye { hello }\n",
			wantOut: []string{hex.EncodeToString(id256[:]) + " Hello\n", " Bye\n"}},
		{name: "hash of an anonymous operation", args: []string{"hash", anon}, wantCode: 1, wantErr: []string{"anonymous"}},
		{name: "hash with an unknown algorithm", args: []string{"hash", "-algorithm", "md5"}, wantCode: 2, wantErr: []string{"md5"}},
		{name: "hash of a missing file", args: []string{"hash", filepath.Join(dir, "nope")}, wantCode: 1, wantErr: []string{"nope"}},
		{name: "manifest to stdout", args: []string{"manifest", qfile, ffile},
			wantOut: []string{`"format": "apollo-persisted-query-manifest"`, `"name": "Hello"`, `"name": "Authors"`, hex.EncodeToString(sum256[:0])}},
		{name: "manifest needs files", args: []string{"manifest"}, wantCode: 2, wantErr: []string{"usage: graft manifest"}},
		{name: "manifest refuses anonymous operations", args: []string{"manifest", anon}, wantCode: 1, wantErr: []string{"graft manifest:"}},
		{name: "sdl of blog by default", args: []string{"sdl"}, wantOut: []string{"type Query", "authors"}, notWantOut: []string{"hero"}},
		{name: "sdl of starwars by flag", args: []string{"sdl", "-example", "starwars"}, wantOut: []string{"hero", "Droid"}},
		{name: "sdl of starwars by environment", args: []string{"sdl"}, env: map[string]string{"GRAFT_EXAMPLE": "starwars"}, wantOut: []string{"Droid"}},
		{name: "sdl of an unknown example", args: []string{"sdl", "-example", "shop"}, wantCode: 1, wantErr: []string{`"shop"`, "blog, bookstore, chat, federation-products, federation-reviews, incremental, starwars"}},
		{name: "unknown command", args: []string{"deploy"}, wantCode: 2, wantErr: []string{`"deploy"`}},
		{name: "help lists every variable", args: []string{"--help"},
			wantOut: []string{"PORT", "HOST", "REDIS_URL", "CORS_ORIGINS", "CSRF_PROTECTION", "LOG_LEVEL", "LOG_FORMAT",
				"GRAPHQL_PATH", "GRAPHIQL_ENABLED", "GRAPHQL_MAX_DEPTH", "GRAPHQL_MAX_ALIASES",
				"PERSISTED_QUERIES_MODE", "PERSISTED_QUERIES_MANIFEST", "PERSISTED_QUERIES_ENABLE_GET", "-example",
				"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS",
				"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_TRACES_EXPORTER", "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES",
				"OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG", "OTEL_BSP_SCHEDULE_DELAY", "METRICS_ENABLED", "METRICS_PATH"}},
		{name: "bad environment names every variable", args: nil,
			env: map[string]string{"PORT": "abc", "LOG_FORMAT": "xml", "GRAPHQL_MAX_DEPTH": "-1",
				"PERSISTED_QUERIES_MODE": "sometimes", "CSRF_PROTECTION": "maybe"},
			wantCode: 1,
			wantErr: []string{`PORT="abc"`, `LOG_FORMAT="xml"`, `GRAPHQL_MAX_DEPTH="-1"`, `PERSISTED_QUERIES_MODE="sometimes"`,
				`CSRF_PROTECTION="maybe"`}},
		{name: "unknown GRAFT_EXAMPLE", env: map[string]string{"GRAFT_EXAMPLE": "shop"}, wantCode: 1,
			wantErr: []string{`"shop"`, "want one of", "blog", "chat", "starwars"}},
		{name: "bad REDIS_URL", env: map[string]string{"REDIS_URL": "http://nope"}, wantCode: 1, wantErr: []string{"REDIS_URL"}},
		{name: "stray arguments", args: []string{"serve", "extra"}, wantCode: 2, wantErr: []string{"extra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(name string) (string, bool) {
				v, ok := tt.env[name]
				return v, ok
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, lookup, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("exit code = %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, &stdout, &stderr)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, &stdout)
				}
			}
			for _, w := range tt.notWantOut {
				if strings.Contains(stdout.String(), w) {
					t.Errorf("stdout has %q:\n%s", w, &stdout)
				}
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, &stderr)
				}
			}
		})
	}
}

func TestManifestFileIsValidJSON(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q.graphql")
	out := filepath.Join(dir, "manifest.json")
	if err := os.WriteFile(q, []byte("query Hello { hello }"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"manifest", "-o", out, q}, func(string) (string, bool) { return "", false }, nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, &stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Operations []struct{ ID, Name, Body string } `json:"operations"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("manifest %s: %v", raw, err)
	}
	if len(m.Operations) != 1 || m.Operations[0].Name != "Hello" {
		t.Fatalf("operations = %+v, want one named Hello", m.Operations)
	}
	sum := sha256.Sum256([]byte(m.Operations[0].Body))
	if m.Operations[0].ID != hex.EncodeToString(sum[:]) {
		t.Errorf("id %s is not the sha256 of the body", m.Operations[0].ID)
	}
}
