package federation_test

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/federation"
)

// fields decodes one level of a protobuf message into its fields: varints
// as uint64, length-delimited fields as []byte.
func fields(t *testing.T, b []byte) map[int][]any {
	t.Helper()
	out := map[int][]any{}
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			t.Fatalf("bad protobuf key")
		}
		b = b[n:]
		field, wire := int(key>>3), key&7
		switch wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				t.Fatalf("bad varint")
			}
			out[field] = append(out[field], v)
			b = b[n:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || int(l) > len(b)-n {
				t.Fatalf("bad length")
			}
			out[field] = append(out[field], b[n:n+int(l)])
			b = b[n+int(l):]
		default:
			t.Fatalf("unexpected wire type %d", wire)
		}
	}
	return out
}

func TestTracingFTV1(t *testing.T) {
	r, err := graft.NewRouter(testSchema(t, &calls{}), graft.NewLayer(), graft.Config{Hooks: []graft.Hook{federation.TracingHook()}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	post := func(trace bool) (*http.Response, map[string]json.RawMessage) {
		req, _ := http.NewRequest("POST", srv.URL+graft.DefaultPath, strings.NewReader(
			`{"query":"query($r: [_Any!]!) { _entities(representations: $r) { __typename } }","variables":{"r":[{"__typename":"Nope"}]}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		if trace {
			req.Header.Set(federation.TraceHeader, "ftv1")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if n, _ := strconv.Atoi(res.Header.Get("Content-Length")); n != len(body) {
			t.Errorf("Content-Length %d for a body of %d bytes", n, len(body))
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return res, m
	}

	res, plain := post(false)
	if plain["extensions"] != nil {
		t.Errorf("extensions without the trace header: %s", plain["extensions"])
	}
	res, traced := post(true)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, content type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if string(traced["data"]) != string(plain["data"]) || string(traced["errors"]) != string(plain["errors"]) {
		t.Errorf("the trace changed data or errors: %s %s", traced["data"], traced["errors"])
	}
	var ext map[string]string
	if err := json.Unmarshal(traced["extensions"], &ext); err != nil || len(ext) != 1 {
		t.Fatalf("extensions = %s, want only ftv1", traced["extensions"])
	}
	raw, err := base64.StdEncoding.DecodeString(ext["ftv1"])
	if err != nil {
		t.Fatal(err)
	}
	trace := fields(t, raw)
	for _, f := range []int{3, 4, 11, 14} {
		if len(trace[f]) != 1 {
			t.Fatalf("trace field %d present %d times, want once", f, len(trace[f]))
		}
	}
	start, end := fields(t, trace[4][0].([]byte)), fields(t, trace[3][0].([]byte))
	if start[1][0].(uint64) == 0 || end[1][0].(uint64) < start[1][0].(uint64) || trace[11][0].(uint64) == 0 {
		t.Errorf("times: start %v end %v duration %v", start, end, trace[11])
	}
	root := fields(t, trace[14][0].([]byte))
	if len(root[11]) != 1 {
		t.Fatalf("root node has %d errors, want 1", len(root[11]))
	}
	if msg := string(fields(t, root[11][0].([]byte))[1][0].([]byte)); !strings.Contains(msg, "Nope") {
		t.Errorf("error message in the trace = %q", msg)
	}
}
