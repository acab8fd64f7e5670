// Package uploads is the file-upload example schema: the GraphQL
// multipart request specification's Upload scalar, taken one at a time
// (singleUpload) or as a list (multipleUpload), each file answered with
// what the server received for it: its filename, media type, transfer
// encoding, size and SHA-256. cmd/graft serves it as GRAFT_EXAMPLE=uploads.
package uploads

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"

	"github.com/graftgql/graft/schema"
)

// File describes the bytes the server received for one Upload.
type File struct {
	Filename string
	Mimetype string
	Encoding string
	Size     int
	// SHA256 is the lowercase hex SHA-256 of the bytes.
	SHA256 string `graphql:"sha256"`
}

// SingleArgs are the arguments of Mutation.singleUpload.
type SingleArgs struct {
	File schema.Upload
}

// MultipleArgs are the arguments of Mutation.multipleUpload.
type MultipleArgs struct {
	Files []schema.Upload
}

// EchoArgs are the arguments of Mutation.echo.
type EchoArgs struct {
	Text string
}

// Describe reads an upload whole and describes it. The encoding is the
// part's Content-Transfer-Encoding, "7bit" when the part had none.
func Describe(u schema.Upload) (File, error) {
	h := sha256.New()
	n, err := io.Copy(h, u.Open())
	if err != nil {
		return File{}, err
	}
	enc := u.Encoding
	if enc == "" {
		enc = "7bit"
	}
	return File{Filename: u.Filename, Mimetype: u.MediaType, Encoding: enc, Size: int(n),
		SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// NewBuilder returns a builder holding the uploads schema.
func NewBuilder() *schema.Builder {
	b := schema.New()
	schema.Object[File](b, "File")
	schema.QueryNoArgs(b, "health", func(context.Context) (string, error) { return "ok", nil })
	schema.Mutation(b, "singleUpload", func(_ context.Context, a SingleArgs) (File, error) {
		return Describe(a.File)
	})
	schema.Mutation(b, "multipleUpload", func(_ context.Context, a MultipleArgs) ([]File, error) {
		out := make([]File, len(a.Files))
		for i, u := range a.Files {
			f, err := Describe(u)
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	})
	schema.Mutation(b, "echo", func(_ context.Context, a EchoArgs) (string, error) { return a.Text, nil })
	return b
}

// Schema builds the uploads schema.
func Schema() (*schema.Schema, error) { return NewBuilder().Build() }
