package persisted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"
)

// BuildManifest builds an Apollo persisted query manifest from GraphQL
// documents, given as file name → text (the names are used in errors).
// Each named operation becomes one entry whose body is the operation,
// printed in a canonical form, followed by every fragment it uses
// (directly or through other fragments, from any of the sources) sorted by
// name; its id is the sha256 of that body. Fragments may live in any
// source. Anonymous operations, duplicate names and unknown fragments are
// errors. Entries are sorted by operation name, so the output is
// deterministic.
func BuildManifest(sources map[string]string) ([]byte, error) {
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)

	ops := map[string]*ast.OperationDefinition{}
	opFile := map[string]string{}
	frags := map[string]*ast.FragmentDefinition{}
	fragFile := map[string]string{}
	for _, name := range names {
		doc, err := parser.ParseQuery(&ast.Source{Name: name, Input: sources[name]})
		if err != nil {
			return nil, fmt.Errorf("persisted: build manifest: %s: %w", name, err)
		}
		for _, op := range doc.Operations {
			if op.Name == "" {
				return nil, fmt.Errorf("persisted: build manifest: %s: an anonymous %s; every operation in a manifest needs a name", name, op.Operation)
			}
			if prev, dup := opFile[op.Name]; dup {
				return nil, fmt.Errorf("persisted: build manifest: operation %q is defined in both %s and %s", op.Name, prev, name)
			}
			ops[op.Name], opFile[op.Name] = op, name
		}
		for _, f := range doc.Fragments {
			if prev, dup := fragFile[f.Name]; dup {
				return nil, fmt.Errorf("persisted: build manifest: fragment %q is defined in both %s and %s", f.Name, prev, name)
			}
			frags[f.Name], fragFile[f.Name] = f, name
		}
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("persisted: build manifest: no operations in %d source(s)", len(sources))
	}

	opNames := make([]string, 0, len(ops))
	for name := range ops {
		opNames = append(opNames, name)
	}
	sort.Strings(opNames)
	m := manifest{Format: manifestFormat, Version: 1, Operations: make([]manifestOperation, 0, len(ops))}
	for _, name := range opNames {
		op := ops[name]
		used := map[string]bool{}
		if err := collectFragments(op.SelectionSet, frags, used); err != nil {
			return nil, fmt.Errorf("persisted: build manifest: %s: operation %q: %w", opFile[name], name, err)
		}
		body := printOperation(op, frags, used)
		m.Operations = append(m.Operations, manifestOperation{
			ID:   Hash(SHA256, body),
			Name: name,
			Type: string(op.Operation),
			Body: body,
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("persisted: build manifest: %w", err)
	}
	return buf.Bytes(), nil
}

// collectFragments adds to used the names of every fragment the selection
// set spreads, following fragments into their own selections.
func collectFragments(set ast.SelectionSet, frags map[string]*ast.FragmentDefinition, used map[string]bool) error {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if err := collectFragments(s.SelectionSet, frags, used); err != nil {
				return err
			}
		case *ast.InlineFragment:
			if err := collectFragments(s.SelectionSet, frags, used); err != nil {
				return err
			}
		case *ast.FragmentSpread:
			if used[s.Name] {
				continue
			}
			f, ok := frags[s.Name]
			if !ok {
				return fmt.Errorf("unknown fragment %q", s.Name)
			}
			used[s.Name] = true
			if err := collectFragments(f.SelectionSet, frags, used); err != nil {
				return err
			}
		}
	}
	return nil
}

// printOperation prints the operation and then the used fragments, sorted
// by name, in gqlparser's canonical form with two-space indentation.
func printOperation(op *ast.OperationDefinition, frags map[string]*ast.FragmentDefinition, used map[string]bool) string {
	names := make([]string, 0, len(used))
	for name := range used {
		names = append(names, name)
	}
	sort.Strings(names)
	doc := &ast.QueryDocument{Operations: ast.OperationList{op}}
	for _, name := range names {
		doc.Fragments = append(doc.Fragments, frags[name])
	}
	var sb strings.Builder
	formatter.NewFormatter(&sb, formatter.WithIndent("  ")).FormatQueryDocument(doc)
	return strings.TrimRight(sb.String(), "\n")
}
