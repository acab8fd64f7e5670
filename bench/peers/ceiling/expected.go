package ceiling

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/graphgophers"
	"github.com/graftgql/graft/bench/tailcall"
	"github.com/graftgql/graft/bench/workload"
)

// The types below print the answers of q1 to q3, q5 and q6 with keys in the order the
// queries select them, as a GraphQL server must.

type q1Data struct {
	Hello string `json:"hello"`
}

type q2Post struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Likes int      `json:"likes"`
	Tags  []string `json:"tags"`
}

type q2Author struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Email string   `json:"email"`
	Posts []q2Post `json:"posts"`
}

type q2Data struct {
	Authors []q2Author `json:"authors"`
}

type q5Post struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Likes int    `json:"likes"`
}

type q5Author struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Posts []q5Post `json:"posts"`
}

type q5Data struct {
	Authors []q5Author `json:"authors"`
}

type q6Post struct {
	Title string `json:"title"`
	Likes int    `json:"likes"`
}

type q6Author struct {
	Name  string   `json:"name"`
	Posts []q6Post `json:"posts"`
}

type q6Data struct {
	Authors []q6Author `json:"authors"`
}

type q3Post struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Body  string `json:"body"`
	Likes int    `json:"likes"`
}

type q3Author struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Posts []q3Post `json:"posts"`
}

type q3Data struct {
	Author *q3Author `json:"author"`
}

func intp(n int) *int { return &n }

// Expected returns the correct response body of every workload query by
// name. q1 to q3, q5 and q6 are printed from the data set directly; q4, whose exact
// text depends on how a server prints its schema, is graph-gophers'
// introspection answer, computed once.
func Expected(d *data.Set) (map[string][]byte, error) {
	var q2 q2Data
	for _, a := range d.AuthorsFirst(intp(50)) {
		qa := q2Author{ID: a.ID, Name: a.Name, Email: a.Email}
		for _, p := range a.PostsFirst(intp(10)) {
			qa.Posts = append(qa.Posts, q2Post{ID: p.ID, Title: p.Title, Likes: p.Likes, Tags: p.Tags})
		}
		q2.Authors = append(q2.Authors, qa)
	}
	var q5 q5Data
	var q6 q6Data
	for _, a := range d.AuthorsFirst(intp(50)) {
		a5, a6 := q5Author{ID: a.ID, Name: a.Name}, q6Author{Name: a.Name}
		for _, p := range a.PostsFirst(intp(10)) {
			a5.Posts = append(a5.Posts, q5Post{ID: p.ID, Title: p.Title, Likes: p.Likes})
		}
		for _, p := range a.PostsFirst(intp(20)) {
			a6.Posts = append(a6.Posts, q6Post{Title: p.Title, Likes: p.Likes})
		}
		q5.Authors = append(q5.Authors, a5)
		q6.Authors = append(q6.Authors, a6)
	}
	var q3 q3Data
	qs := workload.Queries()
	id, _ := qs[2].Variables["id"].(string)
	if a := d.Author(id); a != nil {
		q3.Author = &q3Author{ID: a.ID, Name: a.Name}
		for _, p := range a.PostsFirst(intp(20)) {
			q3.Author.Posts = append(q3.Author.Posts, q3Post{ID: p.ID, Title: p.Title, Body: p.Body, Likes: p.Likes})
		}
	}
	out := make(map[string][]byte, len(qs))
	out["q7"] = tailcall.Expected()
	for name, v := range map[string]any{"q1": q1Data{Hello: "world"}, "q2": q2, "q3": q3, "q5": q5, "q6": q6} {
		b, err := json.Marshal(struct {
			Data any `json:"data"`
		}{v})
		if err != nil {
			return nil, fmt.Errorf("ceiling: marshal %s: %w", name, err)
		}
		out[name] = b
	}
	s, err := graphgophers.Schema(d)
	if err != nil {
		return nil, fmt.Errorf("ceiling: introspection schema: %w", err)
	}
	res := s.Exec(context.Background(), qs[3].Text, qs[3].OperationName, nil)
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("ceiling: introspection: %v", res.Errors[0])
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("ceiling: marshal q4: %w", err)
	}
	out["q4"] = b
	return out, nil
}
