package main

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
)

// TestUploadsExample: GRAFT_EXAMPLE=uploads serves the uploads schema with
// its defaults: 16 MiB per file, 10 files per request, HTTP batching on,
// CSRF prevention on; a variable that is set still wins.
func TestUploadsExample(t *testing.T) {
	srv := startServer(t, map[string]string{"GRAFT_EXAMPLE": "uploads"})
	cfg := srv.router.Config()
	if cfg.Uploads.MaxFileBytes != 16<<20 || cfg.Uploads.MaxFiles != 10 || cfg.MaxBatch != 10 || cfg.CSRF == nil || !srv.router.AcceptsUploads() {
		t.Fatalf("uploads defaults: %+v, batch %d, csrf %v", cfg.Uploads, cfg.MaxBatch, cfg.CSRF)
	}

	// A batch of two uploads sharing one file, over HTTP.
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("operations", `[{"query":"mutation($f: Upload!) { singleUpload(file: $f) { size } }","variables":{"f":null}},`+
		`{"query":"mutation($f: Upload!) { singleUpload(file: $f) { filename } }","variables":{"f":null}}]`)
	w.WriteField("map", `{"0":["0.variables.f","1.variables.f"]}`)
	fw, _ := w.CreateFormFile("0", "a.txt")
	fw.Write([]byte("hello"))
	w.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("graphql-preflight", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `[{"data":{"singleUpload":{"size":5}}},{"data":{"singleUpload":{"filename":"a.txt"}}}]`; resp.StatusCode != 200 || string(got) != want {
		t.Fatalf("%d %s", resp.StatusCode, got)
	}

	srv = startServer(t, map[string]string{"GRAFT_EXAMPLE": "uploads", "GRAPHQL_BATCH_MAX": "0", "GRAPHQL_UPLOAD_MAX_FILE_BYTES": "1000"})
	if cfg := srv.router.Config(); cfg.MaxBatch != 0 || cfg.Uploads.MaxFileBytes != 1000 {
		t.Fatalf("set variables lost: batch %d, %+v", cfg.MaxBatch, cfg.Uploads)
	}
	// Other examples keep cmd/graft's defaults.
	srv = startServer(t, map[string]string{"GRAFT_EXAMPLE": "starwars"})
	if cfg := srv.router.Config(); cfg.MaxBatch != 0 || srv.router.AcceptsUploads() {
		t.Fatalf("starwars: batch %d, uploads %v", cfg.MaxBatch, srv.router.AcceptsUploads())
	}
}
