package bookstore

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/graftgql/graft/scalars"
)

// Author is a writer of books.
type Author struct {
	ID    int                  `graphql:"id"`
	Name  string               `graphql:"name"`
	Email scalars.EmailAddress `graphql:"email"`
}

// Book is one title of the store.
type Book struct {
	ID         int            `graphql:"id"`
	Title      string         `graphql:"title"`
	ISBN       string         `graphql:"isbn"`
	Published  scalars.Date   `graphql:"published"`
	CopiesSold scalars.BigInt `graphql:"copiesSold"`
	Metadata   scalars.JSON   `graphql:"metadata"`
	Ref        scalars.UUID   `graphql:"ref"`
	AuthorID   int            `graphql:"-"`
}

// store holds the data of one schema: the fixed authors and books, and
// the books addBook adds for the life of the process. Books are only
// appended, never changed, so a page may keep the slice it read.
type store struct {
	mu       sync.RWMutex
	authors  []Author
	books    []Book         // by id: books[i].ID == i+1
	byAuthor map[int][]Book // each author's books, ascending id
}

// newStore builds the deterministic data of the example.
func newStore() *store {
	s := &store{byAuthor: map[int][]Book{}}
	for n := 1; n <= 5; n++ {
		s.authors = append(s.authors, Author{ID: n, Name: "Author " + strconv.Itoa(n), Email: scalars.EmailAddress(fmt.Sprintf("author%d@example.com", n))})
	}
	start := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= 50; i++ {
		s.add(Book{
			ID:         i,
			Title:      "Book " + strconv.Itoa(i),
			ISBN:       fmt.Sprintf("978%010d", i),
			AuthorID:   (i-1)%5 + 1,
			Published:  scalars.DateOf(start.AddDate(0, 0, i)),
			CopiesSold: scalars.BigInt(9007199254740993 + int64(i)),
			Metadata:   map[string]any{"pages": 100 + i, "tags": []any{"t" + strconv.Itoa(i%3)}},
			Ref:        bookRef(i),
		})
	}
	return s
}

// bookRef is the ref of book i: 00000000-0000-4000-8000-<i in 12 digits>.
func bookRef(i int) scalars.UUID {
	u, err := scalars.ParseUUID(fmt.Sprintf("00000000-0000-4000-8000-%012d", i))
	if err != nil {
		panic(err) // i is at most 12 digits for the life of any process
	}
	return u
}

// add appends a book; the caller holds mu or owns s.
func (s *store) add(b Book) {
	s.books = append(s.books, b)
	s.byAuthor[b.AuthorID] = append(s.byAuthor[b.AuthorID], b)
}

// allBooks returns every book, ascending id.
func (s *store) allBooks() []Book {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.books[:len(s.books):len(s.books)]
}

// booksOf returns an author's books, ascending id.
func (s *store) booksOf(author int) []Book {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b := s.byAuthor[author]
	return b[:len(b):len(b)]
}

// book returns the book with the given id, or nil.
func (s *store) book(id int) *Book {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if id < 1 || id > len(s.books) {
		return nil
	}
	b := s.books[id-1]
	return &b
}

// author returns the author with the given id, or nil.
func (s *store) author(id int) *Author {
	if id < 1 || id > len(s.authors) {
		return nil
	}
	return &s.authors[id-1]
}
