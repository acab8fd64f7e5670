package schemadef

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"unsafe"

	"github.com/graftgql/graft/internal/coerce"
)

// Upload is the Go type of the Upload scalar: one file of a multipart
// request (the GraphQL multipart request specification). See schema.Upload.
type Upload struct {
	// Filename is the part's filename, decoded as UTF-8 ("" when the
	// part had none). The client chose it: never use it as a path.
	Filename string
	// MediaType is the part's Content-Type as sent, "" when absent.
	MediaType string
	// Encoding is the part's Content-Transfer-Encoding as sent, "" when
	// absent. The bytes are never decoded: Open reads them as received.
	Encoding string
	// Size is the number of bytes received.
	Size int64

	content io.ReaderAt
}

// NewUpload returns an Upload whose Open reads size bytes of content.
func NewUpload(filename, mediaType, encoding string, size int64, content io.ReaderAt) *Upload {
	return &Upload{Filename: filename, MediaType: mediaType, Encoding: encoding, Size: size, content: content}
}

// Open returns a new reader over the file's bytes, from the first. Each
// call returns an independent reader; readers work until the request
// ends.
func (u Upload) Open() *io.SectionReader {
	if u.content == nil {
		return io.NewSectionReader(strings.NewReader(""), 0, 0)
	}
	return io.NewSectionReader(u.content, 0, u.Size)
}

func init() {
	coerce.DescribeOther = func(v any) (string, bool) {
		switch v.(type) {
		case *Upload, Upload:
			return "an uploaded file", true
		}
		return "", false
	}
}

var uploadType = reflect.TypeFor[Upload]()

// uploadScalar is the name of the Upload scalar.
const uploadScalar = "Upload"

// upload returns the Upload scalar, adding it on first use.
func (bc *build) upload() (*Type, error) {
	if ti := bc.names[uploadScalar]; ti != nil {
		if ti.t.GoType != uploadType {
			return nil, fmt.Errorf("Go type schema.Upload is the Upload scalar, but the name Upload is taken by %s", ti.t.GoType)
		}
		return ti.t, nil
	}
	t := &Type{Kind: ScalarKind, Name: uploadScalar, GoType: uploadType, checkInput: checkUpload}
	bc.names[uploadScalar] = &typeInfo{t: t}
	return t, nil
}

// checkUpload checks an Upload input value: only a file of the request
// is one; a literal or a JSON value never is.
func checkUpload(v any) error {
	switch v.(type) {
	case *Upload, Upload:
		return nil
	}
	return fmt.Errorf("Upload cannot represent %s: send the file as a part of a multipart request (the GraphQL multipart request specification)", coerce.Describe(v))
}

// uploadSet stores an Upload input value into a Upload.
func uploadSet(p unsafe.Pointer, v any) error {
	switch u := v.(type) {
	case *Upload:
		*(*Upload)(p) = *u
		return nil
	case Upload:
		*(*Upload)(p) = u
		return nil
	}
	return checkUpload(v)
}

// IsUpload reports whether t is the Upload scalar of schema.Upload.
func (t *Type) IsUpload() bool { return t != nil && t.GoType == uploadType }
