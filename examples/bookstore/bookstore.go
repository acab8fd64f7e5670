// Package bookstore is the example schema of graft's everyday toolkit
// (GRAFT_EXAMPLE=bookstore): Relay connections and global object
// identification (package relay), standard scalars (package scalars)
// and input validation (package validate), over 5 authors and 50 books
// rebuilt each time the schema is built. Its SDL and rules are
// ../shared/examples/bookstore.graphql.
package bookstore

import (
	"context"
	"strconv"

	"github.com/graftgql/graft/relay"
	"github.com/graftgql/graft/scalars"
	"github.com/graftgql/graft/schema"
	"github.com/graftgql/graft/validate"
)

// Connection settings of the example: pages of 20 unless first or last
// says otherwise, at most 100.
var pages = relay.Config{DefaultPageSize: 20, MaxPageSize: 100, TotalCount: true}

// RefArgs are the arguments of bookByRef.
type RefArgs struct {
	Ref scalars.UUID `graphql:"ref"`
}

// EmailArgs are the arguments of authorByEmail.
type EmailArgs struct {
	Email scalars.EmailAddress `graphql:"email"`
}

// DateArgs are the arguments of booksPublishedAfter.
type DateArgs struct {
	Date scalars.Date `graphql:"date"`
}

// AddBookInput is the input of addBook, checked before it runs: a title
// of 1 to 200 characters, an ISBN of 13 digits starting 978 or 979, at
// most 5 tags of 1 to 20 characters, and the global id of an Author.
type AddBookInput struct {
	Title     string       `graphql:"title" validate:"min=1,max=200"`
	ISBN      string       `graphql:"isbn" validate:"len=13,number,startswith=978|startswith=979"`
	AuthorID  schema.ID    `graphql:"authorId"`
	Published scalars.Date `graphql:"published"`
	Tags      []string     `graphql:"tags" type:"[String!]" validate:"max=5,dive,min=1,max=20"`
}

// Validate refuses an authorId that is not the global id of an Author,
// with the other violations of the input.
func (in *AddBookInput) Validate() []validate.Violation {
	if _, ok := authorKey(in.AuthorID); !ok {
		return []validate.Violation{{Path: []any{"authorId"}, Constraint: "authorId", Message: "must be the id of an Author"}}
	}
	return nil
}

// authorKey returns the number of the author a global id names.
func authorKey(id schema.ID) (int, bool) {
	key, ok := relay.KeyOf(id, "Author")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(key)
	return n, err == nil && n >= 1 && n <= 5
}

// AddBookArgs are the arguments of addBook.
type AddBookArgs struct {
	Input AddBookInput `graphql:"input"`
}

// Schema builds the bookstore schema over fresh data.
func Schema() (*schema.Schema, error) {
	return NewBuilder().Build()
}

// NewBuilder returns a builder holding the bookstore schema over fresh
// data.
func NewBuilder() *schema.Builder {
	s := newStore()
	b := schema.New()
	scalars.Options{BigIntStrings: true}.Declare(b, "Date", "BigInt", "JSON", "UUID", "EmailAddress")
	nodes := relay.NewNodes(b)

	author := schema.Object[Author](b, "Author", schema.Implements("Node"))
	book := schema.Object[Book](b, "Book", schema.Implements("Node"))
	schema.Input[AddBookInput](b, "AddBookInput")
	books := relay.NewConnection[Book](b, "Book", pages)

	relay.Register(nodes, author, func(a *Author) string { return strconv.Itoa(a.ID) },
		func(_ context.Context, keys []string) ([]*Author, []error) {
			out := make([]*Author, len(keys))
			for i, k := range keys {
				if n, err := strconv.Atoi(k); err == nil {
					out[i] = s.author(n)
				}
			}
			return out, nil
		})
	relay.Register(nodes, book, func(b *Book) string { return strconv.Itoa(b.ID) },
		func(_ context.Context, keys []string) ([]*Book, []error) {
			out := make([]*Book, len(keys))
			for i, k := range keys {
				if n, err := strconv.Atoi(k); err == nil {
					out[i] = s.book(n)
				}
			}
			return out, nil
		})

	schema.FieldFunc(author, "books", func(_ context.Context, a *Author, args relay.PageArgs) (relay.Connection[Book], error) {
		return books.Slice(args, s.booksOf(a.ID), strconv.Itoa(a.ID))
	}, books.Cost())
	schema.GroupFieldFuncNoArgs(book, "author", func(_ context.Context, bs []*Book) ([]*Author, []error) {
		out := make([]*Author, len(bs))
		for i, b := range bs {
			out[i] = s.author(b.AuthorID)
		}
		return out, nil
	}, schema.OfType("Author!"))

	schema.Query(b, "books", func(_ context.Context, args relay.PageArgs) (relay.Connection[Book], error) {
		return books.Slice(args, s.allBooks(), "")
	}, books.Cost())
	schema.QueryNoArgs(b, "authors", func(context.Context) ([]Author, error) {
		return s.authors, nil
	})
	schema.Query(b, "bookByRef", func(_ context.Context, a RefArgs) (*Book, error) {
		for _, bk := range s.allBooks() {
			if bk.Ref == a.Ref {
				return &bk, nil
			}
		}
		return nil, nil
	})
	schema.Query(b, "authorByEmail", func(_ context.Context, a EmailArgs) (*Author, error) {
		for i := range s.authors {
			if s.authors[i].Email == a.Email {
				return &s.authors[i], nil
			}
		}
		return nil, nil
	})
	schema.Query(b, "booksPublishedAfter", func(_ context.Context, a DateArgs) ([]Book, error) {
		out := []Book{}
		for _, bk := range s.allBooks() {
			if bk.Published.Compare(a.Date) > 0 {
				out = append(out, bk)
			}
		}
		return out, nil
	})
	schema.Mutation(b, "addBook", func(_ context.Context, a AddBookArgs) (*Book, error) {
		return s.addBook(a.Input)
	}, schema.OfType("Book!"))
	return b
}

// addBook adds a book from a validated input: the next id, no copies
// sold, its tags as metadata, and a ref built from its number.
func (s *store) addBook(in AddBookInput) (*Book, error) {
	authorID, _ := authorKey(in.AuthorID) // checked by Validate
	s.mu.Lock()
	defer s.mu.Unlock()
	id := len(s.books) + 1
	bk := Book{ID: id, Title: in.Title, ISBN: in.ISBN, AuthorID: authorID, Published: in.Published, Ref: bookRef(id)}
	if in.Tags != nil {
		tags := make([]any, len(in.Tags))
		for i, t := range in.Tags {
			tags[i] = t
		}
		bk.Metadata = map[string]any{"tags": tags}
	}
	s.add(bk)
	return &bk, nil
}
