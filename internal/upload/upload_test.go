package upload

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/textproto"
	"os"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/schemadef"
)

func TestFilename(t *testing.T) {
	for _, tc := range []struct{ cd, want string }{
		{`form-data; name="0"; filename="plain.txt"`, "plain.txt"},
		{`form-data; name="0"; filename="dir/file.txt"`, "dir/file.txt"}, // as sent: never a path
		{"form-data; name=\"0\"; filename=\"日本語.txt\"", "日本語.txt"},
		{`form-data; name="0"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`, "日本.txt"},
		{`form-data; name="0"; filename*=utf-8'en'%C3%A9t%C3%A9.txt`, "été.txt"},
		{`form-data; name="0"; filename="fallback.txt"; filename*=UTF-8''%C3%A9.txt`, "é.txt"},
		{"form-data; name=\"0\"; filename=\"\xc3\x28.txt\"", "\uFFFD(.txt"},
		// A value mime refuses (a stray quote) is read as browsers write it.
		{`form-data; name="0"; filename="a\"b.txt"; x=="y"`, `a"b.txt`},
		{`form-data; name="0"`, ""},
	} {
		if got := filename(tc.cd); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cd, got, tc.want)
		}
	}
}

func TestIndexNeverGrows(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want int
		ok   bool
	}{
		{"0", 1, 0, true}, {"1", 2, 1, true}, {"9", 10, 9, true}, {"10", 11, 10, true},
		{"1", 1, 0, false}, {"2147483647", 3, 0, false}, {"99999999999999999999999", 5, 0, false},
		{"01", 5, 0, false}, {"-1", 5, 0, false}, {"+1", 5, 0, false}, {"", 5, 0, false}, {"1e2", 500, 0, false},
	} {
		got, ok := index(tc.s, tc.n)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("index(%q, %d) = %d, %v", tc.s, tc.n, got, ok)
		}
	}
}

func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		json string
		want int
	}{
		{`{}`, 1}, {`{"a":[1,{"b":[]}]}`, 4}, {`{"a":"[[[[{{{{"}`, 1}, {`{"a":"\"[[["}`, 1}, {`[[[[]]]]`, 4},
	} {
		if got := depth([]byte(tc.json)); got != tc.want {
			t.Errorf("depth(%s) = %d, want %d", tc.json, got, tc.want)
		}
	}
}

func body(t *testing.T, ops, m string, files map[string]string) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("operations", ops)
	w.WriteField("map", m)
	for name, content := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="`+name+`"; filename="`+name+`.txt"`)
		h.Set("Content-Type", "text/plain")
		h.Set("Content-Transfer-Encoding", "binary")
		pw, _ := w.CreatePart(h)
		pw.Write([]byte(content))
	}
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

func limits(dir string, mem *Budget) *Limits {
	return &Limits{MaxFileBytes: 1 << 20, MaxFiles: 4, MaxBytes: 4 << 20, MaxParts: 6, MaxMapPaths: 8,
		MaxOperationsBytes: 1 << 16, MaxOperationsDepth: 16, MemoryFileBytes: 8, TempDir: dir, Memory: mem}
}

// TestMemoryAndDisk: a small file stays in memory within the budget, a
// larger one goes to a removed temporary file; Close gives the budget
// back and closes the file; readers are independent.
func TestMemoryAndDisk(t *testing.T) {
	dir := t.TempDir()
	mem := NewBudget(100)
	b, ct := body(t, `{"query":"q","variables":{"small":null,"large":null}}`,
		`{"s":["variables.small"],"l":["variables.large"]}`, map[string]string{"s": "tiny", "l": strings.Repeat("L", 1000)})
	form, e := Parse(bytes.NewReader(b), ct, limits(dir, mem))
	if e != nil {
		t.Fatal(e)
	}
	if form.Files != 2 || form.Bytes != int64(len(b)) || form.Batch {
		t.Fatalf("files %d, bytes %d of %d, batch %v", form.Files, form.Bytes, len(b), form.Batch)
	}
	small, large := form.files["s"], form.files["l"]
	if small.f != nil || small.mem != 4 || mem.Used() != 4 {
		t.Fatalf("small file: on disk %v, %d bytes taken, budget used %d", small.f != nil, small.mem, mem.Used())
	}
	if large.f == nil || large.upload.Size != 1000 {
		t.Fatalf("large file: on disk %v, size %d", large.f != nil, large.upload.Size)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a temporary file is visible: %v", entries)
	}
	vars := map[string]any{"small": nil, "large": nil}
	if e := form.Attach(-1, vars); e != nil {
		t.Fatal(e)
	}
	u := vars["large"].(*schemadef.Upload)
	r1, r2 := u.Open(), u.Open()
	b1, _ := io.ReadAll(io.LimitReader(r1, 10))
	b2, _ := io.ReadAll(r2)
	if string(b1) != "LLLLLLLLLL" || len(b2) != 1000 || u.Filename != "l.txt" || u.MediaType != "text/plain" || u.Encoding != "binary" {
		t.Fatalf("large: %q, %d bytes, %+v", b1, len(b2), u)
	}
	form.Close()
	form.Close()
	if mem.Used() != 0 {
		t.Fatalf("budget still holds %d bytes", mem.Used())
	}
	if _, err := u.Open().Read(make([]byte, 1)); err == nil {
		t.Fatal("a closed file still reads")
	}
}

// TestBudgetSpillsToDisk: past the shared budget, small files go to disk.
func TestBudgetSpillsToDisk(t *testing.T) {
	mem := NewBudget(9) // one file's threshold (8) plus one byte
	b, ct := body(t, `{"variables":{"a":null,"b":null}}`, `{"a":["variables.a"],"b":["variables.b"]}`, map[string]string{"a": "aa", "b": "bb"})
	form, e := Parse(bytes.NewReader(b), ct, limits(t.TempDir(), mem))
	if e != nil {
		t.Fatal(e)
	}
	defer form.Close()
	onDisk := 0
	for _, x := range form.files {
		if x.f != nil {
			onDisk++
		}
	}
	if onDisk != 1 || mem.Used() != 2 {
		t.Fatalf("%d files on disk, %d bytes of the budget used", onDisk, mem.Used())
	}
}

func TestErrorsReleaseEverything(t *testing.T) {
	dir := t.TempDir()
	mem := NewBudget(1 << 20)
	lim := limits(dir, mem)
	lim.MaxFileBytes = 100
	b, ct := body(t, `{"variables":{"a":null,"b":null}}`, `{"a":["variables.a"],"b":["variables.b"]}`,
		map[string]string{"a": strings.Repeat("a", 50), "b": strings.Repeat("b", 101)})
	if _, e := Parse(bytes.NewReader(b), ct, lim); e == nil || e.Code != CodeFileTooLarge {
		t.Fatalf("got %v", e)
	}
	if mem.Used() != 0 {
		t.Fatalf("budget holds %d bytes after an error", mem.Used())
	}
	// A body cut short.
	b, ct = body(t, `{"variables":{"a":null,"b":null}}`, `{"a":["variables.a"],"b":["variables.b"]}`,
		map[string]string{"a": strings.Repeat("a", 50), "b": strings.Repeat("b", 50)})
	if _, e := Parse(bytes.NewReader(b[:len(b)-40]), ct, lim); e == nil || e.Code != CodeMalformed {
		t.Fatalf("got %v", e)
	}
	if mem.Used() != 0 {
		t.Fatalf("budget holds %d bytes after an error", mem.Used())
	}
}

// TestNoTemporaryDirectory: a file that cannot be stored is a 503, not a
// 500, and nothing is held.
func TestNoTemporaryDirectory(t *testing.T) {
	mem := NewBudget(1 << 20)
	lim := limits(t.TempDir()+"/missing", mem)
	b, ct := body(t, `{"variables":{"a":null}}`, `{"a":["variables.a"]}`, map[string]string{"a": strings.Repeat("a", 50)})
	if _, e := Parse(bytes.NewReader(b), ct, lim); e == nil || e.Status != 503 || e.Code != "SERVICE_UNAVAILABLE" {
		t.Fatalf("got %+v", e)
	}
	if mem.Used() != 0 {
		t.Fatalf("budget holds %d bytes", mem.Used())
	}
}

// TestDiskBudget: the temporary files of every request share a budget;
// a file that would cross it is refused with 503 SERVER_BUSY, and Close
// gives its bytes back.
func TestDiskBudget(t *testing.T) {
	disk := NewBudget(1500)
	lim := limits(t.TempDir(), NewBudget(0))
	lim.Disk = disk
	b, ct := body(t, `{"variables":{"a":null}}`, `{"a":["variables.a"]}`, map[string]string{"a": strings.Repeat("a", 1000)})
	held, e := Parse(bytes.NewReader(b), ct, lim)
	if e != nil || disk.Used() != 1000 {
		t.Fatalf("%v, %d bytes of the disk budget used", e, disk.Used())
	}
	if _, e := Parse(bytes.NewReader(b), ct, lim); e == nil || e.Status != 503 || e.Code != "SERVER_BUSY" {
		t.Fatalf("over the disk budget: %+v", e)
	}
	if disk.Used() != 1000 {
		t.Fatalf("a refused file still holds: %d bytes used", disk.Used())
	}
	held.Close()
	if disk.Used() != 0 {
		t.Fatalf("%d bytes used after Close", disk.Used())
	}
}
