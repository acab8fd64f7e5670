package data

import "testing"

func intp(n int) *int { return &n }

func TestAuthorsFirst(t *testing.T) {
	s := Shared()
	tests := []struct {
		name  string
		first *int
		want  int
	}{
		{"omitted uses the default", nil, 10},
		{"within range", intp(50), 50},
		{"negative clamps to zero", intp(-3), 0},
		{"too many clamps to 100", intp(1000), 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := len(s.AuthorsFirst(tt.first)); got != tt.want {
				t.Errorf("len = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestRecords(t *testing.T) {
	s := Shared()
	a := s.Author("a42")
	if a == nil {
		t.Fatal("author a42 missing")
	}
	if a.Name != "Author 42" || a.Email != "author42@example.com" {
		t.Errorf("author = %+v", a)
	}
	posts := a.PostsFirst(intp(20))
	if len(posts) != 20 {
		t.Fatalf("posts = %d, want 20", len(posts))
	}
	p := posts[6]
	if p.ID != "p42-7" || p.Title != "Post 7 by 42" || p.Likes != (42*31+7)%1000 {
		t.Errorf("post = %+v", p)
	}
	if len(p.Tags) != 3 || p.Tags[2] != "t2" {
		t.Errorf("tags = %v, want [go graphql t2]", p.Tags)
	}
	if len(Body) != 200 {
		t.Errorf("body has %d characters, want 200", len(Body))
	}
	if s.Author("a101") != nil || s.Author("") != nil {
		t.Error("unknown ids must give nil")
	}
	if got := len(a.PostsFirst(nil)); got != 10 {
		t.Errorf("default posts = %d, want 10", got)
	}
}
