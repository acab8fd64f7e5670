package persisted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
)

// manifestFormat is the format field of Apollo's persisted query manifest.
const manifestFormat = "apollo-persisted-query-manifest"

// manifest is Apollo's persisted query manifest, as BuildManifest writes it
// and LoadManifest reads it.
type manifest struct {
	Format     string              `json:"format"`
	Version    int                 `json:"version"`
	Operations []manifestOperation `json:"operations"`
}

// manifestOperation is one operation of a manifest.
type manifestOperation struct {
	// ID is the lowercase hex sha256 (or sha512) of Body.
	ID string `json:"id"`
	// Name is the operation's name.
	Name string `json:"name"`
	// Type is "query", "mutation" or "subscription".
	Type string `json:"type"`
	// Body is the exact query text clients send.
	Body string `json:"body"`
}

// LoadManifest reads a persisted query manifest file: Apollo's format
// ({"format":"apollo-persisted-query-manifest","version":1,"operations":[...]})
// or a flat map of id to document ({"<hash>": "<query>", ...}), which is
// Relay's format and the persisted-documents.json GraphQL Code Generator's
// client preset writes. Every hash id (bare hex, or prefixed sha256: or
// sha512:) is verified to be the hash of its body; other prefixed ids
// (prefix:id) are custom document ids, kept as they are. The result maps
// lowercase hashes to queries, ready for NewSafelistStore. Errors name the
// file and the operation.
func LoadManifest(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("persisted: load manifest %q: %w", path, err)
	}
	m, err := parseManifest(data)
	if err != nil {
		return nil, fmt.Errorf("persisted: load manifest %q: %w", path, err)
	}
	return m, nil
}

// ParseManifest is LoadManifest for a manifest already in memory.
func ParseManifest(data []byte) (map[string]string, error) {
	m, err := parseManifest(data)
	if err != nil {
		return nil, fmt.Errorf("persisted: parse manifest: %w", err)
	}
	return m, nil
}

func parseManifest(data []byte) (map[string]string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if _, ok := top["format"]; ok {
		return parseApollo(data)
	}
	return parseRelay(top)
}

func parseApollo(data []byte) (map[string]string, error) {
	var m struct {
		Format     *string `json:"format"`
		Version    *int    `json:"version"`
		Operations []struct {
			ID   *string `json:"id"`
			Name string  `json:"name"`
			Type string  `json:"type"`
			Body *string `json:"body"`
		} `json:"operations"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not an Apollo persisted query manifest: %w", err)
	}
	if m.Format == nil || *m.Format != manifestFormat {
		f := "<not a string>"
		if m.Format != nil {
			f = *m.Format
		}
		return nil, fmt.Errorf("unknown manifest format %q (want %q, or a Relay map of hash to query)", f, manifestFormat)
	}
	if m.Version == nil || *m.Version != 1 {
		return nil, errors.New("unsupported Apollo manifest version (want 1)")
	}
	if len(m.Operations) == 0 {
		return nil, errors.New("the manifest has no operations")
	}
	out := make(map[string]string, len(m.Operations))
	for i, op := range m.Operations {
		label := op.Name
		if label == "" {
			label = fmt.Sprintf("#%d", i)
		}
		if op.ID == nil || *op.ID == "" {
			return nil, fmt.Errorf("operation %q: no id", label)
		}
		if op.Body == nil || *op.Body == "" {
			return nil, fmt.Errorf("operation %q: no body", label)
		}
		if err := addVerified(out, *op.ID, *op.Body); err != nil {
			return nil, fmt.Errorf("operation %q: %w", label, err)
		}
	}
	return out, nil
}

func parseRelay(top map[string]json.RawMessage) (map[string]string, error) {
	if len(top) == 0 {
		return nil, errors.New("the manifest has no operations")
	}
	ids := make([]string, 0, len(top))
	for id := range top {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make(map[string]string, len(top))
	for _, id := range ids {
		var body string
		if err := json.Unmarshal(top[id], &body); err != nil {
			return nil, fmt.Errorf("unknown manifest format: operation %q is not a string (want Apollo's format or a Relay map of hash to query)", id)
		}
		if err := addVerified(out, id, body); err != nil {
			return nil, fmt.Errorf("operation %q: %w", id, err)
		}
	}
	return out, nil
}

// addVerified checks that id is the hash of body and adds it to out. An
// id may carry the sha256: or sha512: prefix of the persisted-documents
// proposal; a custom id (any other prefix:id) names its document and is
// kept as is, unverified.
func addVerified(out map[string]string, id, body string) error {
	key, alg, ok := ParseDocumentID(id)
	if !ok {
		return errors.New("id is not a sha256 or sha512 hex hash (optionally prefixed sha256: or sha512:) or a prefixed custom id (prefix:id); GraphQL Code Generator writes sha256 ids with persistedDocuments: {hashAlgorithm: 'sha256'}")
	}
	if alg != "" && Hash(alg, body) != key {
		return fmt.Errorf("id does not match the %s of its body", alg)
	}
	out[key] = body
	return nil
}
