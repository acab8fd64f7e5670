// Package upstream is the benchmark's upstream service for q5 and q6: the
// workload's data served as JSON over HTTP after a fixed latency per call,
// as ../shared/bench/README.md describes, with a call counter, and the
// client every upstream server uses to reach it.
//
//	GET  /authors?first=N               the first N authors in id order
//	GET  /authors?id=a1&id=a7           the named authors, in the order asked
//	GET  /posts?author=a1&author=a7&first=K   {"a1": [post, ...], ...}
//	GET  /tc/posts                      q7's 100 posts (package tailcall)
//	GET  /tc/users?id=1&id=2            q7's named users, in the order asked
//	GET  /stats                         {"calls": N}
//	POST /stats/reset                   sets the counter to 0
//
// Authors are {"id","name","email"}; posts {"id","title","body","likes","tags"}.
package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/tailcall"
)

// Latency is the fixed time the service sleeps before answering each call.
const Latency = time.Millisecond

// Service answers the upstream API over d. Every data call (/authors,
// /posts) sleeps Latency and is counted; /stats calls are not.
type Service struct {
	latency time.Duration
	calls   atomic.Int64
	d       *data.Set
	authors map[string]int // id -> index
	// authorJSON[i] and postJSON[i][j] are the precomputed JSON of author
	// i and its post j, so answers cost little CPU of the machine.
	authorJSON [][]byte
	postJSON   [][][]byte
	// answers keeps the bytes of answers already built, by path and
	// query (at most maxAnswers and maxAnswerBytes; when full, it starts
	// over, so the answers of the server being measured are always kept,
	// whatever the servers before it asked), so a repeated call costs the
	// service a lookup, not a copy of every post: the service stands for a
	// remote API's latency, not for CPU taken from the load generator's
	// core, which it shares.
	answers   sync.Map   // string -> []byte
	keepMu    sync.Mutex // guards kept and keptBytes
	kept      int
	keptBytes int
	// tcPosts and tcUsers are q7's /tc/posts answer and each user's JSON
	// (package tailcall).
	tcPosts []byte
	tcUsers map[string][]byte
	// built counts the answers built rather than found kept.
	built atomic.Int64
}

// maxAnswers and maxAnswerBytes bound the answers a Service keeps.
const (
	maxAnswers     = 256
	maxAnswerBytes = 16 << 20
)

type authorOut struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type postOut struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Body  string   `json:"body"`
	Likes int      `json:"likes"`
	Tags  []string `json:"tags"`
}

// New returns the service over d with the given latency per call.
func New(d *data.Set, latency time.Duration) *Service {
	s := &Service{latency: latency, d: d, authors: make(map[string]int, len(d.Authors))}
	for i, a := range d.Authors {
		s.authors[a.ID] = i
		s.authorJSON = append(s.authorJSON, mustJSON(authorOut{a.ID, a.Name, a.Email}))
		var ps [][]byte
		for _, p := range a.Posts {
			ps = append(ps, mustJSON(postOut{p.ID, p.Title, p.Body, p.Likes, p.Tags}))
		}
		s.postJSON = append(s.postJSON, ps)
	}
	s.tcPosts = mustJSON(tailcall.Posts())
	s.tcUsers = map[string][]byte{}
	for _, u := range tailcall.Users() {
		s.tcUsers[strconv.Itoa(u.ID)] = mustJSON(u)
	}
	return s
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs of strings and ints always marshal
	}
	return b
}

// Calls returns the number of data calls answered since the last reset.
func (s *Service) Calls() int64 { return s.calls.Load() }

// Reset sets the call counter to 0.
func (s *Service) Reset() { s.calls.Store(0) }

// ServeHTTP implements the API above.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/stats" && r.Method == http.MethodGet:
		writeJSON(w, []byte(`{"calls":`+strconv.FormatInt(s.Calls(), 10)+`}`))
	case r.URL.Path == "/stats/reset" && r.Method == http.MethodPost:
		s.Reset()
		writeJSON(w, []byte(`{"calls":0}`))
	case r.URL.Path == "/authors" && r.Method == http.MethodGet:
		s.call(r.Context())
		writeJSON(w, s.answer(r, s.authorsAnswer))
	case r.URL.Path == "/posts" && r.Method == http.MethodGet:
		s.call(r.Context())
		writeJSON(w, s.answer(r, s.postsAnswer))
	case r.URL.Path == "/tc/posts" && r.Method == http.MethodGet:
		s.call(r.Context())
		writeJSON(w, s.tcPosts)
	case r.URL.Path == "/tc/users" && r.Method == http.MethodGet:
		s.call(r.Context())
		writeJSON(w, s.answer(r, s.tcUsersAnswer))
	default:
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
	}
}

// answer returns the answer build gives for r, kept for the next call
// with the same path and query.
func (s *Service) answer(r *http.Request, build func(*http.Request) []byte) []byte {
	key := r.URL.Path + "?" + r.URL.RawQuery
	if b, ok := s.answers.Load(key); ok {
		return b.([]byte)
	}
	b := build(r)
	s.built.Add(1)
	if len(b) > maxAnswerBytes {
		return b
	}
	s.keepMu.Lock()
	if s.kept == maxAnswers || s.keptBytes+len(b) > maxAnswerBytes {
		s.answers.Clear()
		s.kept, s.keptBytes = 0, 0
	}
	if _, loaded := s.answers.LoadOrStore(key, b); !loaded {
		s.kept, s.keptBytes = s.kept+1, s.keptBytes+len(b)
	}
	s.keepMu.Unlock()
	return b
}

// call counts a data call and waits the latency.
func (s *Service) call(ctx context.Context) {
	s.calls.Add(1)
	t := time.NewTimer(s.latency)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func (s *Service) authorsAnswer(r *http.Request) []byte {
	q := r.URL.Query()
	out := []byte{'['}
	add := func(i int) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, s.authorJSON[i]...)
	}
	if ids, ok := q["id"]; ok {
		for _, id := range ids {
			if i, ok := s.authors[id]; ok {
				add(i)
			}
		}
	} else {
		for i := range clamp(q.Get("first"), len(s.authorJSON)) {
			add(i)
		}
	}
	return append(out, ']')
}

func (s *Service) postsAnswer(r *http.Request) []byte {
	q := r.URL.Query()
	first := clamp(q.Get("first"), data.PostsPerAuthor)
	type part struct {
		id    string
		posts [][]byte
	}
	var parts []part // each author once, in the order asked
	size := 2        // {}
	for _, id := range q["author"] {
		i, ok := s.authors[id]
		if !ok || slices.ContainsFunc(parts, func(p part) bool { return p.id == id }) {
			continue
		}
		if len(parts) > 0 {
			size++ // ,
		}
		ps := s.postJSON[i][:min(first, len(s.postJSON[i]))]
		parts = append(parts, part{id, ps})
		size += len(id) + 5 // "id":[]
		for j, p := range ps {
			size += len(p) + min(j, 1)
		}
	}
	// One buffer of the answer's size: a large answer is not copied
	// while it grows.
	out := make([]byte, 0, size)
	out = append(out, '{')
	for k, pt := range parts {
		if k > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, pt.id)
		out = append(out, ':', '[')
		for j, p := range pt.posts {
			if j > 0 {
				out = append(out, ',')
			}
			out = append(out, p...)
		}
		out = append(out, ']')
	}
	return append(out, '}')
}

// tcUsersAnswer is the array of the users named by the id parameters,
// in the order asked; unknown ids are left out.
func (s *Service) tcUsersAnswer(r *http.Request) []byte {
	out := []byte{'['}
	for _, id := range r.URL.Query()["id"] {
		if u, ok := s.tcUsers[id]; ok {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, u...)
		}
	}
	return append(out, ']')
}

// clamp reads a first parameter: absent or malformed means the default.
func clamp(s string, limit int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		n = data.DefaultFirst
	}
	return min(max(n, 0), limit)
}

func writeJSON(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	_, _ = w.Write(b)
}
