package graft

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/graftgql/graft/internal/dispatch"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/internal/upload"
	"github.com/graftgql/graft/schema"
)

func init() {
	dispatch.Upload = func(ctx context.Context, router any, raw *httpapi.RawRequest, body io.Reader, length int64, resp *httpapi.Response) bool {
		r := router.(*Router)
		if !r.takesUpload(raw) {
			return false
		}
		*resp = httpapi.Response{}
		r.serveUploadInto(ctx, raw, body, length, resp)
		return true
	}
}

// Defaults of UploadConfig fields left at their zero value.
const (
	DefaultUploadMaxFileBytes       = 16 << 20
	DefaultUploadMaxFiles           = 10
	DefaultUploadMaxMapPaths        = 100
	DefaultUploadMaxOperationsDepth = 32
	DefaultUploadMemoryFileBytes    = 64 << 10
	DefaultUploadMaxMemoryBytes     = 16 << 20
	DefaultUploadMaxDiskBytes       = 4 << 30
)

// UploadConfig bounds file uploads: multipart requests of the GraphQL
// multipart request specification, which the router accepts when its
// schema uses schema.Upload (and answers 415, as any body that is not
// JSON, otherwise). A multipart request is read as it arrives, its files
// kept in memory up to MemoryFileBytes each and in temporary files
// beyond; the operation runs once the whole body is received. Every
// limit is checked as soon as it is crossed and refused with a
// GraphQL-shaped error: 413 for sizes and counts, 400 for the rest
// (docs/uploads.md lists the codes). Zero fields take their defaults.
type UploadConfig struct {
	// MaxFileBytes bounds one file. Default 16 MiB.
	MaxFileBytes int64
	// MaxFiles bounds the files of one request. Default 10.
	MaxFiles int
	// MaxBytes bounds the whole multipart body, part headers, operations
	// and map included; Config.MaxBodyBytes does not apply to it.
	// Default MaxFiles × MaxFileBytes + MaxBodyBytes.
	MaxBytes int64
	// MaxParts bounds the parts of the body. Default MaxFiles + 2.
	MaxParts int
	// MaxMapPaths bounds the paths of the map, all files together (one
	// file may go to several variables). Default 100.
	MaxMapPaths int
	// MaxOperationsBytes bounds the operations part, and the map part.
	// Default Config.MaxBodyBytes.
	MaxOperationsBytes int64
	// MaxOperationsDepth bounds the nesting of arrays and objects in the
	// operations part. Default 32.
	MaxOperationsDepth int
	// MemoryFileBytes is the size up to which a file stays in memory,
	// within MaxMemoryBytes; a larger one goes to a temporary file.
	// Default 64 KiB.
	MemoryFileBytes int64
	// MaxMemoryBytes bounds the memory the files of every request held
	// at once may take; past it files go to temporary files. Default
	// 16 MiB.
	MaxMemoryBytes int64
	// MaxDiskBytes bounds the bytes the temporary files of every request
	// hold at once; a file that would cross it is refused with 503
	// SERVER_BUSY and Retry-After. Default 4 GiB.
	MaxDiskBytes int64
	// TempDir is where temporary files go. Default os.TempDir(). On Unix
	// a temporary file is removed as soon as it is created (its open
	// descriptor keeps the bytes until the request ends), so none is left
	// behind, even by a process that dies.
	TempDir string
}

// withDefaults fills in the defaults; maxBody is Config.MaxBodyBytes
// with its default applied.
func (u UploadConfig) withDefaults(maxBody int64) (UploadConfig, error) {
	if u.MaxFileBytes < 0 || u.MaxFiles < 0 || u.MaxBytes < 0 || u.MaxParts < 0 || u.MaxMapPaths < 0 ||
		u.MaxOperationsBytes < 0 || u.MaxOperationsDepth < 0 || u.MemoryFileBytes < 0 || u.MaxMemoryBytes < 0 || u.MaxDiskBytes < 0 {
		return u, fmt.Errorf("graft: Uploads limits must not be negative")
	}
	if u.MaxFileBytes == 0 {
		u.MaxFileBytes = DefaultUploadMaxFileBytes
	}
	if u.MaxFiles == 0 {
		u.MaxFiles = DefaultUploadMaxFiles
	}
	if u.MaxBytes == 0 {
		u.MaxBytes = int64(u.MaxFiles)*u.MaxFileBytes + maxBody
	}
	if u.MaxParts == 0 {
		u.MaxParts = u.MaxFiles + 2
	}
	if u.MaxMapPaths == 0 {
		u.MaxMapPaths = DefaultUploadMaxMapPaths
	}
	if u.MaxOperationsBytes == 0 {
		u.MaxOperationsBytes = maxBody
	}
	if u.MaxOperationsDepth == 0 {
		u.MaxOperationsDepth = DefaultUploadMaxOperationsDepth
	}
	if u.MemoryFileBytes == 0 {
		u.MemoryFileBytes = DefaultUploadMemoryFileBytes
	}
	if u.MaxMemoryBytes == 0 {
		u.MaxMemoryBytes = DefaultUploadMaxMemoryBytes
	}
	if u.MaxDiskBytes == 0 {
		u.MaxDiskBytes = DefaultUploadMaxDiskBytes
	}
	return u, nil
}

// uploadLimits returns the limits of multipart requests, or nil when the
// schema does not use schema.Upload.
func uploadLimits(s *schema.Schema, u UploadConfig) *upload.Limits {
	if !schemadef.Model(s).Type("Upload").IsUpload() {
		return nil
	}
	return &upload.Limits{
		MaxFileBytes:       u.MaxFileBytes,
		MaxFiles:           u.MaxFiles,
		MaxBytes:           u.MaxBytes,
		MaxParts:           u.MaxParts,
		MaxMapPaths:        u.MaxMapPaths,
		MaxOperationsBytes: u.MaxOperationsBytes,
		MaxOperationsDepth: u.MaxOperationsDepth,
		MemoryFileBytes:    u.MemoryFileBytes,
		TempDir:            u.TempDir,
		Memory:             upload.NewBudget(u.MaxMemoryBytes),
		Disk:               upload.NewBudget(u.MaxDiskBytes),
	}
}

// AcceptsUploads reports whether the router accepts file uploads:
// multipart requests of the GraphQL multipart request specification,
// which it does when its schema uses schema.Upload. A host that reads
// bodies itself streams those (see fasthttpadapter.Handler).
func (r *Router) AcceptsUploads() bool { return r.uploads != nil }

// takesUpload reports whether raw is a multipart POST to the GraphQL path
// of a router that accepts uploads.
func (r *Router) takesUpload(raw *httpapi.RawRequest) bool {
	return r.uploads != nil && raw.Method == http.MethodPost && raw.Path == r.cfg.Path && upload.IsMultipart(raw.ContentType)
}

// uploadPost reports whether req is a multipart POST to a router that
// accepts uploads: its answer is one JSON response, whatever Accept asks
// for, so no streaming transport takes it.
func (r *Router) uploadPost(req *http.Request) bool {
	return r.uploads != nil && req.Method == http.MethodPost && upload.IsMultipart(headerValue(req.Header, hdrContentType))
}

// serveUploadHTTP serves a multipart request over net/http.
func (r *Router) serveUploadHTTP(w http.ResponseWriter, req *http.Request, raw *httpapi.RawRequest, st *requestState) {
	resp := &st.answer
	r.serveUpload(req.Context(), raw, req.Body, req.ContentLength, resp, st)
	// A large answer is held within Config.MaxBufferedBytes, as in
	// ServeHTTP.
	n := len(resp.Body)
	held := r.load.hold(n)
	if !held {
		resp.Body = nil
		r.fail(resp, httpapi.ContentTypeJSON, serverBusyError(msgTooManyBuffered))
	}
	r.leave(st, resp)
	writeResponse(w, resp)
	if held {
		r.load.release(n)
	}
}

// serveUploadInto serves a multipart request through the door and writes
// the complete answer into resp (the adapters and the web handler).
func (r *Router) serveUploadInto(ctx context.Context, raw *httpapi.RawRequest, body io.Reader, length int64, resp *httpapi.Response) {
	st := newServedState()
	r.serveUpload(ctx, raw, body, length, resp, st)
	r.leave(st, resp)
}

// serveUpload is serveWith for a multipart request of the GraphQL
// multipart request specification whose body is read from body; length
// is the length the request announced (-1 when unknown). It enters the
// door with st, a fresh state; the caller leaves. CSRF prevention and the
// Auth hook run before the body is read, and a length over the limit is
// refused then too; the operations run once the body is read whole, with
// the files in their variables; the files are released once the answer
// is written into resp, on every path.
func (r *Router) serveUpload(ctx context.Context, raw *httpapi.RawRequest, body io.Reader, length int64, resp *httpapi.Response, st *requestState) {
	ctx = r.enter(ctx, st, raw, resp)
	defer r.containPanic(ctx, resp, httpapi.ContentTypeJSON)
	ctx, media, ok := r.accept(ctx, raw, resp, st)
	if !ok {
		return
	}
	if length > r.uploads.MaxBytes {
		r.fail(resp, httpapi.ContentType(media), httpapi.BodyTooLarge(r.uploads.MaxBytes))
		return
	}
	form, ue := upload.Parse(body, raw.ContentType, r.uploads)
	if ue != nil {
		e := &httpapi.Error{Status: ue.Status, Err: gqlerr.New(ue.Code, ue.Message)}
		if ue.Status == http.StatusServiceUnavailable {
			e.Header = http.Header{"Retry-After": {busyRetryAfter}}
		}
		r.fail(resp, httpapi.ContentType(media), e)
		return
	}
	defer form.Close()
	st.info.BytesReceived = form.Bytes
	raw.Body, raw.Scratch, raw.ContentType, raw.Texts = form.Operations, nil, httpapi.ContentTypeJSON, r.texts
	raw.Attach = func(op int, vars map[string]any) *httpapi.Error {
		if e := form.Attach(op, vars); e != nil {
			return &httpapi.Error{Status: e.Status, Err: gqlerr.New(e.Code, e.Message)}
		}
		return nil
	}
	if form.Batch {
		r.serveBatch(ctx, st, raw, media, resp)
		return
	}
	var req httpapi.Request
	if !r.decode(raw, media, resp, &req) {
		return
	}
	r.run(ctx, st, &req, media, resp)
}
