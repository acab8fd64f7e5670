package graft_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/uploads"
	"github.com/graftgql/graft/schema"
)

// filePart is one file part of a multipart request.
type filePart struct {
	name        string // the form name, the map's key
	disposition string // the whole Content-Disposition; default form-data; name; filename
	filename    string
	mediaType   string
	body        []byte
}

// multipartRequest builds a multipart body: operations, map, then the
// files, in this order unless parts overrides it.
func multipartRequest(t testing.TB, operations, fileMap string, files ...filePart) (body []byte, contentType string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("operations", operations); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteField("map", fileMap); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		writeFilePart(t, w, f)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

func writeFilePart(t testing.TB, w *multipart.Writer, f filePart) {
	t.Helper()
	h := textproto.MIMEHeader{}
	d := f.disposition
	if d == "" {
		fn := f.filename
		if fn == "" {
			fn = f.name + ".bin"
		}
		d = fmt.Sprintf(`form-data; name=%q; filename=%q`, f.name, fn)
	}
	h.Set("Content-Disposition", d)
	if f.mediaType != "" {
		h.Set("Content-Type", f.mediaType)
	}
	pw, err := w.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Write(f.body); err != nil {
		t.Fatal(err)
	}
}

func uploadsRouter(t testing.TB, cfg graft.Config) *graft.Router {
	t.Helper()
	s, err := uploads.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// postMultipart sends a multipart request to h and returns the status
// and body.
func postMultipart(t testing.TB, h http.Handler, body []byte, contentType string, header ...string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

const singleOp = `{"query":"mutation($file: Upload!) { singleUpload(file: $file) { filename mimetype encoding size sha256 } }","variables":{"file":null}}`

type fileAnswer struct {
	Filename, Mimetype, Encoding, Sha256 string
	Size                                 int64
}

// decodeAnswer decodes an answer's data, failing on errors.
func decodeAnswer(t testing.TB, status int, body string, into any) {
	t.Helper()
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var out struct {
		Data   json.RawMessage
		Errors []any
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil || len(out.Errors) > 0 {
		t.Fatalf("answer %s (%v)", body, err)
	}
	if err := json.Unmarshal(out.Data, into); err != nil {
		t.Fatalf("data %s: %v", out.Data, err)
	}
}

func TestUploadSingleFile(t *testing.T) {
	r := uploadsRouter(t, graft.Config{})
	content := []byte("hello, uploads\n")
	body, ct := multipartRequest(t, singleOp, `{"0":["variables.file"]}`,
		filePart{name: "0", filename: "hello.txt", mediaType: "text/plain", body: content})
	status, resp := postMultipart(t, r, body, ct)
	var data struct{ SingleUpload fileAnswer }
	decodeAnswer(t, status, resp, &data)
	want := fileAnswer{Filename: "hello.txt", Mimetype: "text/plain", Encoding: "7bit", Size: int64(len(content)), Sha256: sha(content)}
	if data.SingleUpload != want {
		t.Fatalf("got %+v, want %+v", data.SingleUpload, want)
	}
}

func TestUploadFilesOfEverySize(t *testing.T) {
	every := make([]byte, 256*64)
	for i := range every {
		every[i] = byte(i)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 10<<20/16) // 10 MiB, in a temporary file
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"empty", nil},
		{"one byte", []byte{0}},
		{"every byte value", every},
		{"10 MiB", big},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r := uploadsRouter(t, graft.Config{Uploads: graft.UploadConfig{TempDir: dir, MemoryFileBytes: 1024}})
			body, ct := multipartRequest(t, singleOp, `{"0":["variables.file"]}`,
				filePart{name: "0", filename: "f.bin", mediaType: "application/octet-stream", body: tc.body})
			status, resp := postMultipart(t, r, body, ct)
			var data struct{ SingleUpload fileAnswer }
			decodeAnswer(t, status, resp, &data)
			if data.SingleUpload.Size != int64(len(tc.body)) || data.SingleUpload.Sha256 != sha(tc.body) {
				t.Fatalf("got %+v for %d bytes", data.SingleUpload, len(tc.body))
			}
			assertEmptyDir(t, dir)
		})
	}
}

func TestUploadSeveralFilesAndOneMappedTwice(t *testing.T) {
	r := uploadsRouter(t, graft.Config{Uploads: graft.UploadConfig{MemoryFileBytes: 4}})
	a, b, c := []byte("first file"), []byte("second"), []byte("3")
	body, ct := multipartRequest(t,
		`{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { filename size sha256 } }","variables":{"files":[null,null,null]}}`,
		`{"a":["variables.files.0"],"b":["variables.files.1"],"c":["variables.files.2"]}`,
		filePart{name: "a", filename: "a.txt", body: a}, filePart{name: "b", filename: "b.txt", body: b}, filePart{name: "c", filename: "c.txt", body: c})
	status, resp := postMultipart(t, r, body, ct)
	var many struct{ MultipleUpload []fileAnswer }
	decodeAnswer(t, status, resp, &many)
	if len(many.MultipleUpload) != 3 || many.MultipleUpload[0].Sha256 != sha(a) || many.MultipleUpload[1].Filename != "b.txt" ||
		many.MultipleUpload[2].Size != 1 {
		t.Fatalf("got %+v", many)
	}

	// One file mapped to two variables: each resolver reads it whole.
	twice := []byte("read me twice, from memory or from disk")
	body, ct = multipartRequest(t,
		`{"query":"mutation($a: Upload!, $b: Upload!) { a: singleUpload(file: $a) { sha256 } b: singleUpload(file: $b) { sha256 } }","variables":{"a":null,"b":null}}`,
		`{"0":["variables.a","variables.b"]}`, filePart{name: "0", body: twice})
	status, resp = postMultipart(t, r, body, ct)
	var two struct{ A, B fileAnswer }
	decodeAnswer(t, status, resp, &two)
	if two.A.Sha256 != sha(twice) || two.B.Sha256 != sha(twice) {
		t.Fatalf("got %+v", two)
	}
}

func TestUploadFilenames(t *testing.T) {
	r := uploadsRouter(t, graft.Config{})
	for _, tc := range []struct{ disposition, want string }{
		// Browsers send raw UTF-8 in filename="…".
		{`form-data; name="0"; filename="résumé 東京.txt"`, "résumé 東京.txt"},
		// RFC 5987 / 2231: filename*= wins over filename=.
		{`form-data; name="0"; filename="rates.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt`, "€ rates.txt"},
		{`form-data; name="0"; filename*=UTF-8''%F0%9F%93%8E.pdf`, "📎.pdf"},
		{`form-data; name="0"; filename="a \"quoted\" name"`, `a "quoted" name`},
		{`form-data; name="0"`, ""},
		// Bytes that are not UTF-8 are replaced, never passed on.
		{"form-data; name=\"0\"; filename=\"bad\xff.txt\"", "bad\uFFFD.txt"},
	} {
		body, ct := multipartRequest(t, singleOp, `{"0":["variables.file"]}`, filePart{name: "0", disposition: tc.disposition, body: []byte("x")})
		status, resp := postMultipart(t, r, body, ct)
		var data struct{ SingleUpload fileAnswer }
		decodeAnswer(t, status, resp, &data)
		if data.SingleUpload.Filename != tc.want {
			t.Errorf("%s: filename %q, want %q", tc.disposition, data.SingleUpload.Filename, tc.want)
		}
	}
}

// errorAnswer decodes the first error of an answer.
func errorAnswer(t testing.TB, body string) (code, message string) {
	t.Helper()
	var out struct {
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		}
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil || len(out.Errors) == 0 {
		t.Fatalf("not an error answer: %s", body)
	}
	return out.Errors[0].Extensions.Code, out.Errors[0].Message
}

// rawMultipart builds a multipart body from named parts in the given
// order.
func rawMultipart(t testing.TB, parts ...[2]string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		if strings.HasPrefix(p[0], "file:") {
			writeFilePart(t, w, filePart{name: strings.TrimPrefix(p[0], "file:"), body: []byte(p[1])})
			continue
		}
		if err := w.WriteField(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

func TestUploadMalformedRequests(t *testing.T) {
	r := uploadsRouter(t, graft.Config{MaxBatch: 5})
	ops := [2]string{"operations", singleOp}
	fileMap := [2]string{"map", `{"0":["variables.file"]}`}
	file := [2]string{"file:0", "x"}
	for _, tc := range []struct {
		name   string
		parts  [][2]string
		status int
		code   string
	}{
		{"no operations", [][2]string{fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"no parts", nil, 400, "UPLOAD_MALFORMED"},
		{"operations only", [][2]string{ops}, 400, "UPLOAD_MALFORMED"},
		{"operations is a number", [][2]string{{"operations", "42"}, fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"operations is a string", [][2]string{{"operations", `"query"`}, fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"operations is not JSON", [][2]string{{"operations", `{"query":`}, fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"operations has trailing data", [][2]string{{"operations", `{} {}`}, fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"operations is an empty batch", [][2]string{{"operations", `[]`}, fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"batch of non-objects", [][2]string{{"operations", `[1,2]`}, fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"map before operations", [][2]string{fileMap, ops, file}, 400, "UPLOAD_MALFORMED"},
		{"a field between operations and map", [][2]string{ops, {"other", "x"}, fileMap, file}, 400, "UPLOAD_MALFORMED"},
		{"map is not JSON", [][2]string{ops, {"map", `{"0":`}, file}, 400, "UPLOAD_MALFORMED"},
		{"map is an array", [][2]string{ops, {"map", `[["variables.file"]]`}, file}, 400, "UPLOAD_MALFORMED"},
		{"map is null", [][2]string{ops, {"map", `null`}, file}, 400, "UPLOAD_MALFORMED"},
		{"map entry is a string", [][2]string{ops, {"map", `{"0":"variables.file"}`}, file}, 400, "UPLOAD_MALFORMED"},
		{"map entry is empty", [][2]string{ops, {"map", `{"0":[]}`}, file}, 400, "UPLOAD_MALFORMED"},
		{"map entry holds a number", [][2]string{ops, {"map", `{"0":[1]}`}, file}, 400, "UPLOAD_MALFORMED"},
		{"file the map does not name", [][2]string{ops, fileMap, file, {"file:1", "y"}}, 400, "UPLOAD_MALFORMED"},
		{"file sent twice", [][2]string{ops, fileMap, file, file}, 400, "UPLOAD_MALFORMED"},
		{"file the map names is missing", [][2]string{ops, {"map", `{"0":["variables.file"],"1":["variables.other"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"missing file", [][2]string{ops, fileMap}, 400, "UPLOAD_MALFORMED"},
		{"path beyond the list", [][2]string{{"operations", `{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { size } }","variables":{"files":[null]}}`},
			{"map", `{"0":["variables.files.2147483647"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path to the next index", [][2]string{{"operations", `{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { size } }","variables":{"files":[null]}}`},
			{"map", `{"0":["variables.files.1"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path with a leading zero", [][2]string{{"operations", `{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { size } }","variables":{"files":[null]}}`},
			{"map", `{"0":["variables.files.00"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path to a negative index", [][2]string{{"operations", `{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { size } }","variables":{"files":[null]}}`},
			{"map", `{"0":["variables.files.-1"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path to a missing variable", [][2]string{ops, {"map", `{"0":["variables.other"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path outside variables", [][2]string{ops, {"map", `{"0":["query"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path to variables itself", [][2]string{ops, {"map", `{"0":["variables"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path to a value that is not null", [][2]string{{"operations", `{"query":"mutation($file: Upload!) { singleUpload(file: $file) { size } }","variables":{"file":"x"}}`}, fileMap, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path through a string", [][2]string{{"operations", `{"query":"mutation($file: Upload!) { singleUpload(file: $file) { size } }","variables":{"file":"x"}}`}, {"map", `{"0":["variables.file.0"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"operation without variables", [][2]string{{"operations", `{"query":"mutation { echo(text: \"x\") }"}`}, fileMap, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path named twice", [][2]string{ops, {"map", `{"0":["variables.file"],"1":["variables.file"]}`}, file, {"file:1", "y"}}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"path to a batch index beyond the batch", [][2]string{{"operations", "[" + singleOp + "]"}, {"map", `{"0":["1.variables.file"]}`}, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		{"batch path without an index", [][2]string{{"operations", "[" + singleOp + "]"}, fileMap, file}, 400, "UPLOAD_INVALID_MAP_PATH"},
		// The map path is well formed, but the variable is a String: coercion refuses it.
		{"file to a non-Upload variable", [][2]string{{"operations", `{"query":"mutation($text: String!) { echo(text: $text) }","variables":{"text":null}}`},
			{"map", `{"0":["variables.text"]}`}, file}, 400, "BAD_USER_INPUT"},
		// A JSON value is never an Upload.
		{"Upload variable sent as JSON", [][2]string{{"operations", `{"query":"mutation($file: Upload!) { singleUpload(file: $file) { size } }","variables":{"file":"x"}}`},
			{"map", `{}`}}, 400, "BAD_USER_INPUT"},
		{"Upload literal", [][2]string{{"operations", `{"query":"mutation { singleUpload(file: \"x\") { size } }"}`}, {"map", `{}`}}, 400, "BAD_USER_INPUT"},
		{"operations is not a GraphQL request", [][2]string{{"operations", `{"query":42,"variables":{"file":null}}`}, fileMap, file}, 400, "BAD_REQUEST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, ct := rawMultipart(t, tc.parts...)
			status, resp := postMultipart(t, r, body, ct)
			code, msg := errorAnswer(t, resp)
			if status != tc.status || code != tc.code {
				t.Fatalf("got %d %s (%s), want %d %s", status, code, msg, tc.status, tc.code)
			}
			if tc.name == "file to a non-Upload variable" && !strings.Contains(msg, "String cannot represent a non string value: an uploaded file") {
				t.Fatalf("message %q", msg)
			}
		})
	}
	// Bodies that are not multipart bodies of the specification.
	for _, tc := range []struct{ name, contentType, body string }{
		{"no boundary", "multipart/form-data", "--x\r\n"},
		{"a boundary over 70 bytes", "multipart/form-data; boundary=" + strings.Repeat("b", 71), "--x\r\n"},
		{"not multipart", "multipart/form-data; boundary=xyz", "this is not a multipart body"},
		{"truncated", "multipart/form-data; boundary=xyz", "--xyz\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n{}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, resp := postMultipart(t, r, []byte(tc.body), tc.contentType)
			if code, msg := errorAnswer(t, resp); status != 400 || code != "UPLOAD_MALFORMED" {
				t.Fatalf("got %d %s (%s)", status, code, msg)
			}
		})
	}
}

func TestUploadLimits(t *testing.T) {
	file := func(name string, n int) [2]string { return [2]string{"file:" + name, strings.Repeat("x", n)} }
	multi := func(n int) string {
		return `{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { size } }","variables":{"files":[` +
			strings.TrimSuffix(strings.Repeat("null,", n), ",") + `]}}`
	}
	mapOf := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"%d":["variables.files.%d"]`, i, i)
		}
		return b.String() + "}"
	}
	filesOf := func(n, size int) [][2]string {
		var p [][2]string
		for i := range n {
			p = append(p, file(fmt.Sprint(i), size))
		}
		return p
	}
	cfg := graft.UploadConfig{MaxFileBytes: 100, MaxFiles: 3, MaxBytes: 4000, MaxMapPaths: 4, MaxOperationsBytes: 600, MaxOperationsDepth: 8}
	for _, tc := range []struct {
		name   string
		parts  [][2]string
		status int
		code   string
	}{
		{"a file at the limit", append([][2]string{{"operations", multi(1)}, {"map", mapOf(1)}}, file("0", 100)), 200, ""},
		{"a file over the limit", append([][2]string{{"operations", multi(1)}, {"map", mapOf(1)}}, file("0", 101)), 413, "UPLOAD_FILE_TOO_LARGE"},
		{"files at the limit", append([][2]string{{"operations", multi(3)}, {"map", mapOf(3)}}, filesOf(3, 1)...), 200, ""},
		{"too many files", append([][2]string{{"operations", multi(4)}, {"map", mapOf(4)}}, filesOf(4, 1)...), 413, "UPLOAD_TOO_MANY_FILES"},
		{"too many parts", append([][2]string{{"operations", multi(3)}, {"map", mapOf(3)}}, append(filesOf(3, 1), file("3", 1))...), 413, "UPLOAD_TOO_MANY_PARTS"},
		{"too many map paths", [][2]string{{"operations", `{"query":"mutation($a: Upload!) { singleUpload(file: $a) { size } }","variables":{"a":null,"b":null,"c":null,"d":null,"e":null}}`},
			{"map", `{"0":["variables.a","variables.b","variables.c","variables.d","variables.e"]}`}, file("0", 1)}, 413, "UPLOAD_TOO_MANY_MAP_PATHS"},
		{"operations too large", [][2]string{{"operations", `{"query":"{ health }","extensions":{"pad":"` + strings.Repeat("p", 600) + `"}}`}, {"map", "{}"}}, 413, "UPLOAD_OPERATIONS_TOO_LARGE"},
		{"map too large", [][2]string{{"operations", multi(1)}, {"map", `{"0":["variables.files.0"],"pad":["` + strings.Repeat("p", 600) + `"]}`}}, 413, "UPLOAD_OPERATIONS_TOO_LARGE"},
		{"operations too deep", [][2]string{{"operations", `{"query":"{ health }","variables":{"a":[[[[[[[[1]]]]]]]]}}`}, {"map", "{}"}}, 400, "UPLOAD_OPERATIONS_TOO_DEEP"},
		{"body too large", append([][2]string{{"operations", multi(3)}, {"map", mapOf(3)}}, append(filesOf(3, 100), [2]string{"pad", strings.Repeat("p", 4000)})...), 413, "PAYLOAD_TOO_LARGE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := uploadsRouter(t, graft.Config{Uploads: cfg})
			body, ct := rawMultipart(t, tc.parts...)
			status, resp := postMultipart(t, r, body, ct)
			if tc.status == 200 {
				if status != 200 || strings.Contains(resp, `"errors"`) {
					t.Fatalf("got %d %s", status, resp)
				}
				return
			}
			if code, msg := errorAnswer(t, resp); status != tc.status || code != tc.code {
				t.Fatalf("got %d %s (%s), want %d %s", status, code, msg, tc.status, tc.code)
			}
		})
	}
	// Temporary files of every request share MaxDiskBytes: past it, 503.
	rd := uploadsRouter(t, graft.Config{Uploads: graft.UploadConfig{MaxDiskBytes: 50, MemoryFileBytes: 10, TempDir: t.TempDir()}})
	body, ct := multipartRequest(t, singleOp, `{"0":["variables.file"]}`, filePart{name: "0", body: bytes.Repeat([]byte("x"), 100)})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	rec := httptest.NewRecorder()
	rd.ServeHTTP(rec, req)
	if code, _ := errorAnswer(t, rec.Body.String()); rec.Code != 503 || code != "SERVER_BUSY" || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("over the disk budget: %d %s %v", rec.Code, rec.Body.String(), rec.Header())
	}

	// A Content-Length over the limit is refused before the body is read.
	r := uploadsRouter(t, graft.Config{Uploads: cfg})
	body, ct = multipartRequest(t, singleOp, `{"0":["variables.file"]}`, filePart{name: "0", body: bytes.Repeat([]byte("x"), 5000)})
	cb := &countingBody{r: bytes.NewReader(body)}
	req = httptest.NewRequest(http.MethodPost, "/graphql", cb)
	req.Header.Set("Content-Type", ct)
	req.ContentLength = int64(len(body))
	rec = httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	if code, _ := errorAnswer(t, rec.Body.String()); rec.Code != 413 || code != "PAYLOAD_TOO_LARGE" || cb.n != 0 {
		t.Fatalf("got %d %s, %d bytes read", rec.Code, rec.Body.String(), cb.n)
	}
}

// countingBody counts the bytes read from it.
type countingBody struct {
	r io.Reader
	n int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestUploadCSRFAndAuthBeforeTheBody(t *testing.T) {
	body, ct := multipartRequest(t, singleOp, `{"0":["variables.file"]}`, filePart{name: "0", body: []byte("x")})
	r := uploadsRouter(t, graft.Config{CSRF: &graft.CSRFConfig{}})
	send := func(h http.Handler, header ...string) (int, string, int) {
		cb := &countingBody{r: bytes.NewReader(body)}
		req := httptest.NewRequest(http.MethodPost, "/graphql", cb)
		req.Header.Set("Content-Type", ct)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String(), cb.n
	}
	status, resp, read := send(r)
	if code, _ := errorAnswer(t, resp); status != 400 || code != "CSRF_PREVENTION_BLOCKED" || read != 0 {
		t.Fatalf("without a preflight header: %d %s, %d bytes read", status, resp, read)
	}
	for _, h := range []string{"graphql-preflight", "apollo-require-preflight", "x-apollo-operation-name", "client-require-preflight"} {
		if status, resp, _ := send(r, h, "1"); status != 200 || strings.Contains(resp, "errors") {
			t.Fatalf("with %s: %d %s", h, status, resp)
		}
	}
	// The Auth hook refuses before the body is read too.
	ra := uploadsRouter(t, graft.Config{Auth: func(ctx context.Context, _ *graft.AuthRequest) (context.Context, error) {
		return nil, fmt.Errorf("no token")
	}})
	status, resp, read = send(ra)
	if code, _ := errorAnswer(t, resp); status != 401 || code != "UNAUTHENTICATED" || read != 0 {
		t.Fatalf("auth: %d %s, %d bytes read", status, resp, read)
	}
}

// assertEmptyDir fails unless dir holds no file.
func assertEmptyDir(t testing.TB, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind in the temporary directory: %s", e.Name())
	}
}

// Attachment is an input object holding files.
type Attachment struct {
	Note  string
	File  schema.Upload
	Extra *schema.Upload
	More  []schema.Upload
}

// TestUploadInInputObjectsAndPanics: files in input-object fields and
// lists of them; a resolver that panics while holding files still leaves
// nothing behind.
func TestUploadInInputObjectsAndPanics(t *testing.T) {
	b := schema.New()
	schema.Input[Attachment](b, "Attachment")
	schema.QueryNoArgs(b, "health", func(context.Context) (string, error) { return "ok", nil })
	schema.Mutation(b, "attach", func(_ context.Context, a struct{ In []Attachment }) ([]string, error) {
		var out []string
		for _, at := range a.In {
			line := at.Note + ":" + read(t, at.File)
			if at.Extra != nil {
				line += "+" + read(t, *at.Extra)
			}
			for _, m := range at.More {
				line += "," + read(t, m)
			}
			out = append(out, line)
		}
		return out, nil
	})
	schema.Mutation(b, "boom", func(_ context.Context, a struct{ File schema.Upload }) (bool, error) {
		panic("resolver panics holding " + a.File.Filename)
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.SDL(), "scalar Upload") || !strings.Contains(s.SDL(), "extra: Upload\n") || !strings.Contains(s.SDL(), "more: [Upload!]!") {
		t.Fatalf("SDL:\n%s", s.SDL())
	}
	dir := t.TempDir()
	r, err := graft.NewRouter(s, nil, graft.Config{Logger: discardLogger, Uploads: graft.UploadConfig{TempDir: dir, MemoryFileBytes: 2}})
	if err != nil {
		t.Fatal(err)
	}
	body, ct := multipartRequest(t,
		`{"query":"mutation($in: [Attachment!]!) { attach(in: $in) }","variables":{"in":[{"note":"one","file":null,"more":[null,null]},{"note":"two","file":null,"extra":null,"more":[]}]}}`,
		`{"a":["variables.in.0.file","variables.in.1.extra"],"b":["variables.in.0.more.0"],"c":["variables.in.0.more.1","variables.in.1.file"]}`,
		filePart{name: "a", body: []byte("AAAA")}, filePart{name: "b", body: []byte("B")}, filePart{name: "c", body: []byte("CCCCCC")})
	status, resp := postMultipart(t, r, body, ct)
	if status != 200 || resp != `{"data":{"attach":["one:AAAA,B,CCCCCC","two:CCCCCC+AAAA"]}}` {
		t.Fatalf("%d %s", status, resp)
	}
	body, ct = multipartRequest(t, `{"query":"mutation($f: Upload!) { boom(file: $f) }","variables":{"f":null}}`,
		`{"0":["variables.f"]}`, filePart{name: "0", body: bytes.Repeat([]byte("x"), 4096)})
	status, resp = postMultipart(t, r, body, ct)
	if code, _ := errorAnswer(t, resp); code != "INTERNAL_SERVER_ERROR" {
		t.Fatalf("%d %s", status, resp)
	}
	assertEmptyDir(t, dir)
	if open := openIn(t, dir); len(open) > 0 {
		t.Fatalf("descriptors still open: %q", open)
	}
	// Upload is input-only.
	b2 := schema.New()
	schema.QueryNoArgs(b2, "file", func(context.Context) (schema.Upload, error) { return schema.Upload{}, nil })
	if _, err := b2.Build(); err == nil || !strings.Contains(err.Error(), "input-only") {
		t.Fatalf("an Upload output builds: %v", err)
	}
}

func read(t *testing.T, u schema.Upload) string {
	b, err := io.ReadAll(u.Open())
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

// TestMultipartWithoutUploadScalar: a router whose schema has no Upload
// answers a multipart POST 415, as any body that is not JSON.
func TestMultipartWithoutUploadScalar(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "health", func(context.Context) (string, error) { return "ok", nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.AcceptsUploads() {
		t.Fatal("a schema without Upload accepts uploads")
	}
	body, ct := multipartRequest(t, `{"query":"{ health }"}`, `{}`)
	status, resp := postMultipart(t, r, body, ct)
	if status != http.StatusUnsupportedMediaType {
		t.Fatalf("%d %s", status, resp)
	}
}
