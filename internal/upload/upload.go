// Package upload reads multipart requests of the GraphQL multipart request
// specification (github.com/jaydenseric/graphql-multipart-request-spec):
// an "operations" part (one operation object or a batch array), a "map"
// part naming, for each file part, the variables it goes to, then the
// file parts. The body is read as it arrives, within byte and count
// limits checked as soon as they are crossed; a file is kept in memory up
// to a small threshold (within a budget shared by every request) and in a
// temporary file beyond it. Map paths are checked against the operations
// before any file is read: each must name an existing null placeholder
// (a variable, an input-object field or a list element within the list),
// so nothing grows from an index.
//
// Every file of a Form is released by Close: memory goes back to the
// budget, and temporary files are closed. On Unix a temporary file is
// unlinked as soon as it is created, so it never outlives its open
// descriptor, even when the process dies.
package upload

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/schemadef"
)

// The extensions.code of each refusal (package gqlerr's).
const (
	CodeMalformed          = gqlerr.UploadMalformed          // 400: not a well-formed multipart request of the specification
	CodeInvalidMapPath     = gqlerr.UploadInvalidMapPath     // 400: a map path names no null placeholder of the operations
	CodeOperationsTooDeep  = gqlerr.UploadOperationsTooDeep  // 400: operations nest deeper than the limit
	CodeOperationsTooLarge = gqlerr.UploadOperationsTooLarge // 413: the operations or map part is over its limit
	CodeFileTooLarge       = gqlerr.UploadFileTooLarge       // 413: a file is over its limit
	CodeTooManyFiles       = gqlerr.UploadTooManyFiles       // 413: the map names more files than the limit
	CodeTooManyParts       = gqlerr.UploadTooManyParts       // 413: the body holds more parts than the limit
	CodeTooManyMapPaths    = gqlerr.UploadTooManyMapPaths    // 413: the map holds more paths than the limit
	CodeBodyTooLarge       = gqlerr.PayloadTooLarge          // 413: the whole body is over its limit
)

// Error is a refusal of the request: its HTTP status, code and message.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

func malformed(msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeMalformed, Message: msg}
}

func tooLarge(code, msg string) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: code, Message: msg}
}

// Limits bounds one multipart request. Every field must be positive.
type Limits struct {
	MaxFileBytes       int64 // bytes of one file
	MaxFiles           int   // files the map names
	MaxBytes           int64 // bytes of the whole body, part headers included
	MaxParts           int   // parts, operations and map included
	MaxMapPaths        int   // paths of the map, all files together
	MaxOperationsBytes int64 // bytes of the operations part, and of the map part
	MaxOperationsDepth int   // nesting of arrays and objects in operations
	MemoryFileBytes    int64 // a file of at most this many bytes stays in memory
	TempDir            string
	Memory             *Budget // the memory files share; nil: every file goes to disk
	Disk               *Budget // the temporary files' bytes; nil: unbounded
}

// Budget is a byte budget shared by the files kept in memory.
type Budget struct {
	max  int64
	used atomic.Int64
}

// NewBudget returns a budget of max bytes.
func NewBudget(max int64) *Budget { return &Budget{max: max} }

func (b *Budget) take(n int64) bool {
	if b == nil {
		return false
	}
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

func (b *Budget) give(n int64) {
	if b != nil && n > 0 {
		b.used.Add(-n)
	}
}

// Used returns the bytes taken now.
func (b *Budget) Used() int64 { return b.used.Load() }

// IsMultipart reports whether contentType is multipart/form-data.
func IsMultipart(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "multipart/form-data")
}

// Form is a multipart request read whole: its operations and its files.
type Form struct {
	// Operations is the operations part, JSON: an object, or an array of
	// objects (a batch, Batch set).
	Operations []byte
	Batch      bool
	// Files is the number of files received; Bytes the bytes of the body
	// read.
	Files int
	Bytes int64

	paths  []mapPath
	files  map[string]*file
	mem    *Budget
	closed sync.Once
}

// mapPath is one path of the map: the operation it belongs to (-1 when
// the operations are one object), the segments after "variables", and
// the file's key in the map.
type mapPath struct {
	op   int
	segs []string
	key  string
	text string
}

// file is one received file.
type file struct {
	upload *schemadef.Upload
	f      *os.File // nil when in memory
	name   string   // the temporary file's name, when not yet removed
	mem    int64    // bytes taken from the memory budget
	disk   int64    // bytes taken from the disk budget
	diskB  *Budget
}

// Close releases every file: memory goes back to the budget, temporary
// files are closed and removed. It may be called more than once.
func (f *Form) Close() {
	f.closed.Do(func() {
		for _, x := range f.files {
			x.release(f.mem)
		}
	})
}

func (x *file) release(mem *Budget) {
	if x == nil {
		return
	}
	if x.f != nil {
		_ = x.f.Close()
		x.f = nil
	}
	if x.name != "" {
		_ = os.Remove(x.name)
		x.name = ""
	}
	mem.give(x.mem)
	x.mem = 0
	x.diskB.give(x.disk)
	x.disk = 0
}

// Attach puts the files into the variables of operation op (-1 when the
// operations are one object), decoded from Operations: each path of the
// map gets its file in place of its null placeholder.
func (f *Form) Attach(op int, vars map[string]any) *Error {
	for i := range f.paths {
		p := &f.paths[i]
		if p.op != op {
			continue
		}
		var parent any = vars
		for j, s := range p.segs {
			last := j == len(p.segs)-1
			switch c := parent.(type) {
			case map[string]any:
				v, ok := c[s]
				if !ok {
					return invalidPath(p.text, "names no value of the operations")
				}
				if last {
					c[s] = f.files[p.key].upload
				}
				parent = v
			case []any:
				n, ok := index(s, len(c))
				if !ok {
					return invalidPath(p.text, "names no element of its list")
				}
				if last {
					c[n] = f.files[p.key].upload
				}
				parent = c[n]
			default:
				return invalidPath(p.text, "goes through a value that is neither an object nor a list")
			}
		}
	}
	return nil
}

func invalidPath(path, why string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidMapPath,
		Message: "The map path " + quote(path) + " " + why}
}

// index parses a list index below n: decimal digits without a leading
// zero (but "0"), never more than the digits of n.
func index(s string, n int) (int, bool) {
	if s == "" || len(s) > len(strconv.Itoa(n)) || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	i := 0
	for k := 0; k < len(s); k++ {
		if s[k] < '0' || s[k] > '9' {
			return 0, false
		}
		i = i*10 + int(s[k]-'0')
	}
	return i, i < n
}

// maxEcho bounds how much of a client's input a message repeats.
const maxEcho = 80

func quote(s string) string {
	if len(s) > maxEcho {
		cut := maxEcho
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

// countingReader counts the bytes read and fails once more than limit
// arrive.
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
	over  bool
	err   error // the underlying reader's error other than EOF
}

var errBodyTooLarge = errors.New("body too large")

func (c *countingReader) Read(p []byte) (int, error) {
	if c.over {
		return 0, errBodyTooLarge
	}
	if rest := c.limit + 1 - c.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.limit {
		c.over = true
		return n, errBodyTooLarge
	}
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// Parse reads a multipart request from body, whose Content-Type is
// contentType, within lim. The caller closes the Form once the request is
// answered; after an error Parse has released everything it took and
// returns a nil Form.
func Parse(body io.Reader, contentType string, lim *Limits) (*Form, *Error) {
	_, params, err := mime.ParseMediaType(contentType)
	boundary := params["boundary"]
	if err != nil || boundary == "" || len(boundary) > 70 {
		return nil, malformed("The multipart request has no valid boundary in its Content-Type")
	}
	cr := &countingReader{r: body, limit: lim.MaxBytes}
	form := &Form{files: map[string]*file{}, mem: lim.Memory}
	e := form.read(multipart.NewReader(cr, boundary), cr, lim)
	form.Bytes = cr.n
	if e != nil {
		form.Close()
		if cr.over {
			e = tooLarge(CodeBodyTooLarge, "The request body is larger than the limit of "+strconv.FormatInt(lim.MaxBytes, 10)+" bytes")
		}
		return nil, e
	}
	return form, nil
}

// readFailed is the error of a part that could not be read.
func readFailed(cr *countingReader, err error) *Error {
	if cr.over || errors.Is(err, errBodyTooLarge) {
		return tooLarge(CodeBodyTooLarge, "")
	}
	if cr.err != nil {
		return malformed("The request body could not be read")
	}
	return malformed("The multipart body is malformed: " + truncate(err.Error()))
}

func truncate(s string) string {
	if len(s) > maxEcho {
		return s[:maxEcho] + "…"
	}
	return s
}

func (form *Form) read(mr *multipart.Reader, cr *countingReader, lim *Limits) *Error {
	parts := 0
	var ops any
	var fileMap map[string][]string
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return readFailed(cr, err)
		}
		parts++
		if parts > lim.MaxParts {
			return tooLarge(CodeTooManyParts, "The multipart request holds more than "+strconv.Itoa(lim.MaxParts)+" parts")
		}
		name := p.FormName()
		switch {
		case ops == nil:
			if name != "operations" {
				return malformed("The first part of a multipart request must be \"operations\", not " + quote(name))
			}
			b, e := readSmall(p, cr, lim.MaxOperationsBytes, "operations")
			if e != nil {
				return e
			}
			if ops, e = decodeOperations(b, lim.MaxOperationsDepth); e != nil {
				return e
			}
			form.Operations = b
			_, form.Batch = ops.([]any)
		case fileMap == nil:
			if name != "map" {
				return malformed("The second part of a multipart request must be \"map\", not " + quote(name))
			}
			b, e := readSmall(p, cr, lim.MaxOperationsBytes, "map")
			if e != nil {
				return e
			}
			if fileMap, e = form.decodeMap(b, ops, lim); e != nil {
				return e
			}
		default:
			if _, ok := fileMap[name]; !ok {
				return malformed("The part " + quote(name) + " is not a file the map names")
			}
			if _, dup := form.files[name]; dup {
				return malformed("The file " + quote(name) + " is sent twice")
			}
			x, e := spool(p, cr, lim)
			if e != nil {
				return e
			}
			form.files[name] = x
			form.Files++
		}
	}
	switch {
	case ops == nil:
		return malformed("The multipart request has no \"operations\" part")
	case fileMap == nil:
		return malformed("The multipart request has no \"map\" part")
	}
	for key := range fileMap {
		if form.files[key] == nil {
			return malformed("The file " + quote(key) + " the map names is missing")
		}
	}
	return nil
}

// readSmall reads a part of at most max bytes.
func readSmall(p *multipart.Part, cr *countingReader, max int64, name string) ([]byte, *Error) {
	b, err := io.ReadAll(io.LimitReader(p, max+1))
	if err != nil {
		return nil, readFailed(cr, err)
	}
	if int64(len(b)) > max {
		return nil, tooLarge(CodeOperationsTooLarge, "The "+name+" part is larger than the limit of "+strconv.FormatInt(max, 10)+" bytes")
	}
	return b, nil
}

// decodeOperations decodes the operations part: an object or a non-empty
// array of objects, nesting at most maxDepth deep.
func decodeOperations(b []byte, maxDepth int) (any, *Error) {
	if depth(b) > maxDepth {
		return nil, &Error{Status: http.StatusBadRequest, Code: CodeOperationsTooDeep,
			Message: "The operations part nests deeper than the limit of " + strconv.Itoa(maxDepth)}
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return nil, malformed("The operations part is not valid JSON")
	}
	switch x := v.(type) {
	case map[string]any:
		return x, nil
	case []any:
		if len(x) == 0 {
			return nil, malformed("The operations part is an empty batch")
		}
		for _, o := range x {
			if _, ok := o.(map[string]any); !ok {
				return nil, malformed("Each operation of the operations batch must be a JSON object")
			}
		}
		return x, nil
	}
	return nil, malformed("The operations part must be a JSON object or an array of objects")
}

// depth returns the deepest nesting of arrays and objects in b, a JSON
// text, outside strings.
func depth(b []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			d++
			deepest = max(deepest, d)
		case '}', ']':
			d--
		}
	}
	return deepest
}

// decodeMap decodes the map part and checks every path against ops.
func (form *Form) decodeMap(b []byte, ops any, lim *Limits) (map[string][]string, *Error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		return nil, malformed("The map part must be a JSON object of file names to arrays of paths")
	}
	if len(raw) > lim.MaxFiles {
		return nil, tooLarge(CodeTooManyFiles, "The map names "+strconv.Itoa(len(raw))+" files, more than the limit of "+strconv.Itoa(lim.MaxFiles))
	}
	m := make(map[string][]string, len(raw))
	total := 0
	seen := map[string]bool{}
	for key, rv := range raw {
		var paths []string
		if err := json.Unmarshal(rv, &paths); err != nil || len(paths) == 0 {
			return nil, malformed("The map entry " + quote(key) + " must be a non-empty array of path strings")
		}
		total += len(paths)
		if total > lim.MaxMapPaths {
			return nil, tooLarge(CodeTooManyMapPaths, "The map holds more than the limit of "+strconv.Itoa(lim.MaxMapPaths)+" paths")
		}
		for _, text := range paths {
			if seen[text] {
				return nil, invalidPath(text, "is named twice: a variable holds one file")
			}
			seen[text] = true
			mp, e := checkPath(text, ops)
			if e != nil {
				return nil, e
			}
			mp.key = key
			form.paths = append(form.paths, mp)
		}
		m[key] = paths
	}
	return m, nil
}

// checkPath checks a map path against the operations: it must lead,
// through "variables", to a null placeholder that exists.
func checkPath(text string, ops any) (mapPath, *Error) {
	segs := strings.Split(text, ".")
	mp := mapPath{op: -1, text: text}
	if batch, ok := ops.([]any); ok {
		n, ok := index(segs[0], len(batch))
		if !ok {
			return mp, invalidPath(text, "names no operation of the batch")
		}
		mp.op, ops, segs = n, batch[n], segs[1:]
	}
	if len(segs) < 2 || segs[0] != "variables" {
		return mp, invalidPath(text, "must name a variable: variables.<name>")
	}
	v := ops.(map[string]any)["variables"]
	for i, s := range segs[1:] {
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[s]
			if !ok {
				return mp, invalidPath(text, "names no value of the operations' variables (send null where the file goes)")
			}
			v = x
		case []any:
			n, ok := index(s, len(c))
			if !ok {
				return mp, invalidPath(text, "names no element of its list: the list has "+strconv.Itoa(len(c))+" elements")
			}
			v = c[n]
		default:
			if i == 0 {
				return mp, invalidPath(text, "names no value: the operation has no variables object")
			}
			return mp, invalidPath(text, "goes through a value that is neither an object nor a list")
		}
	}
	if v != nil {
		return mp, invalidPath(text, "must name a null placeholder, not a value")
	}
	mp.segs = segs[1:]
	return mp, nil
}

// spool reads one file part into memory, or into a temporary file past
// lim.MemoryFileBytes.
func spool(p *multipart.Part, cr *countingReader, lim *Limits) (*file, *Error) {
	x := &file{}
	up := &schemadef.Upload{
		Filename:  filename(p.Header.Get("Content-Disposition")),
		MediaType: p.Header.Get("Content-Type"),
		Encoding:  p.Header.Get("Content-Transfer-Encoding"),
	}
	x.upload = up
	lr := &io.LimitedReader{R: p, N: lim.MaxFileBytes + 1}
	var head []byte
	if lim.MemoryFileBytes > 0 && lim.Memory.take(lim.MemoryFileBytes+1) {
		buf := make([]byte, lim.MemoryFileBytes+1)
		n, err := io.ReadFull(lr, buf)
		switch {
		case (err == io.EOF || err == io.ErrUnexpectedEOF) && int64(n) > lim.MaxFileBytes:
			lim.Memory.give(lim.MemoryFileBytes + 1)
			return nil, fileTooLarge(p.FormName(), lim.MaxFileBytes)
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			// The whole file is in memory: keep only its bytes.
			kept := bytes.Clone(buf[:n])
			lim.Memory.give(lim.MemoryFileBytes + 1 - int64(n))
			x.mem = int64(n)
			*up = *schemadef.NewUpload(up.Filename, up.MediaType, up.Encoding, int64(n), bytes.NewReader(kept))
			return x, nil
		case err != nil:
			lim.Memory.give(lim.MemoryFileBytes + 1)
			return nil, readFailed(cr, err)
		}
		head = buf
		defer lim.Memory.give(lim.MemoryFileBytes + 1)
	}
	f, err := os.CreateTemp(lim.TempDir, "graft-upload-*")
	if err != nil {
		return nil, diskFailed()
	}
	x.f, x.diskB = f, lim.Disk
	if runtime.GOOS == "windows" {
		x.name = f.Name() // an open file cannot be removed: Close removes it
	} else {
		_ = os.Remove(f.Name()) // the descriptor keeps the bytes until Close
	}
	w := diskWriter{x}
	n := int64(0)
	if len(head) > 0 {
		if _, err := w.Write(head); err != nil {
			x.release(nil)
			return nil, err.(writeError).refusal
		}
		n = int64(len(head))
	}
	m, err := io.Copy(w, lr)
	n += m
	if err != nil {
		x.release(nil)
		var we writeError
		if errors.As(err, &we) {
			return nil, we.refusal
		}
		return nil, readFailed(cr, err)
	}
	if n > lim.MaxFileBytes {
		x.release(nil)
		return nil, fileTooLarge(p.FormName(), lim.MaxFileBytes)
	}
	*up = *schemadef.NewUpload(up.Filename, up.MediaType, up.Encoding, n, f)
	return x, nil
}

func fileTooLarge(name string, limit int64) *Error {
	return tooLarge(CodeFileTooLarge, "The file "+quote(name)+" is larger than the limit of "+strconv.FormatInt(limit, 10)+" bytes")
}

func diskFailed() *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: gqlerr.ServiceUnavailable,
		Message: "The server cannot store the uploaded file now. Try again later."}
}

// diskWriter writes a file's bytes to its temporary file within the disk
// budget. It hides the file's ReadFrom, so io.Copy reads into its own
// buffer and write errors are told from read errors.
type diskWriter struct{ x *file }

// writeError is a failure to store bytes, with the refusal it answers.
type writeError struct{ refusal *Error }

func (e writeError) Error() string { return e.refusal.Message }

func (w diskWriter) Write(b []byte) (int, error) {
	x := w.x
	if x.diskB != nil {
		if !x.diskB.take(int64(len(b))) {
			return 0, writeError{&Error{Status: http.StatusServiceUnavailable, Code: gqlerr.ServerBusy,
				Message: "Server busy: the uploads in progress hold all the temporary storage; retry later"}}
		}
		x.disk += int64(len(b))
	}
	n, err := x.f.Write(b)
	if err != nil {
		return n, writeError{diskFailed()}
	}
	return n, nil
}

// filename returns the filename of a Content-Disposition value, decoded
// as UTF-8: filename*= (RFC 5987/2231) when given, else filename= as sent
// (browsers send raw UTF-8 there).
func filename(cd string) string {
	_, params, err := mime.ParseMediaType(cd)
	var name string
	if err == nil {
		name = params["filename"]
	} else {
		name = rawFilename(cd)
	}
	if !utf8.ValidString(name) {
		name = strings.ToValidUTF8(name, "\uFFFD")
	}
	return name
}

// rawFilename takes filename="..." from a Content-Disposition value that
// mime.ParseMediaType refuses, as browsers write it.
func rawFilename(cd string) string {
	i := strings.Index(cd, `filename="`)
	if i < 0 {
		return ""
	}
	s := cd[i+len(`filename="`):]
	var b strings.Builder
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '\\':
			if k+1 < len(s) {
				k++
				b.WriteByte(s[k])
			}
		case '"':
			return b.String()
		default:
			b.WriteByte(s[k])
		}
	}
	return b.String()
}
