// Package graphqlgo serves the benchmark workload with
// github.com/graphql-go/graphql behind a small net/http handler (the
// library ships none in its own module).
package graphqlgo

import (
	"encoding/json"
	"net/http"

	"github.com/graftgql/graft/bench/data"
	"github.com/graphql-go/graphql"
)

// Schema builds the workload schema with resolvers over d.
func Schema(d *data.Set) (graphql.Schema, error) {
	firstArg := graphql.FieldConfigArgument{
		"first": &graphql.ArgumentConfig{Type: graphql.Int, DefaultValue: data.DefaultFirst},
	}
	post := graphql.NewObject(graphql.ObjectConfig{
		Name: "Post",
		Fields: graphql.Fields{
			"id":    {Type: graphql.NewNonNull(graphql.ID), Resolve: postField(func(p *data.Post) any { return p.ID })},
			"title": {Type: graphql.NewNonNull(graphql.String), Resolve: postField(func(p *data.Post) any { return p.Title })},
			"body":  {Type: graphql.NewNonNull(graphql.String), Resolve: postField(func(p *data.Post) any { return p.Body })},
			"likes": {Type: graphql.NewNonNull(graphql.Int), Resolve: postField(func(p *data.Post) any { return p.Likes })},
			"tags": {Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String))),
				Resolve: postField(func(p *data.Post) any { return p.Tags })},
		},
	})
	author := graphql.NewObject(graphql.ObjectConfig{
		Name: "Author",
		Fields: graphql.Fields{
			"id":    {Type: graphql.NewNonNull(graphql.ID), Resolve: authorField(func(a *data.Author) any { return a.ID })},
			"name":  {Type: graphql.NewNonNull(graphql.String), Resolve: authorField(func(a *data.Author) any { return a.Name })},
			"email": {Type: graphql.NewNonNull(graphql.String), Resolve: authorField(func(a *data.Author) any { return a.Email })},
			"posts": {
				Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
				Args: firstArg,
				Resolve: func(p graphql.ResolveParams) (any, error) {
					return p.Source.(*data.Author).PostsFirst(first(p.Args)), nil
				},
			},
		},
	})
	query := graphql.NewObject(graphql.ObjectConfig{
		Name: "Query",
		Fields: graphql.Fields{
			"hello": {Type: graphql.NewNonNull(graphql.String), Resolve: func(graphql.ResolveParams) (any, error) { return "world", nil }},
			"authors": {
				Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(author))),
				Args: firstArg,
				Resolve: func(p graphql.ResolveParams) (any, error) {
					return d.AuthorsFirst(first(p.Args)), nil
				},
			},
			"author": {
				Type: author,
				Args: graphql.FieldConfigArgument{"id": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID)}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					id, _ := p.Args["id"].(string)
					if a := d.Author(id); a != nil {
						return a, nil
					}
					return nil, nil
				},
			},
		},
	})
	return graphql.NewSchema(graphql.SchemaConfig{Query: query})
}

// first reads the first argument; a missing or null value is the default.
func first(args map[string]any) *int {
	if n, ok := args["first"].(int); ok {
		return &n
	}
	return nil
}

func postField(get func(*data.Post) any) graphql.FieldResolveFn {
	return func(p graphql.ResolveParams) (any, error) { return get(p.Source.(*data.Post)), nil }
}

func authorField(get func(*data.Author) any) graphql.FieldResolveFn {
	return func(p graphql.ResolveParams) (any, error) { return get(p.Source.(*data.Author)), nil }
}

type request struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`
}

// Handler returns a POST handler running graphql.Do for each request.
func Handler(d *data.Set) (http.Handler, error) {
	s, err := Schema(d)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"errors":[{"message":"bad request"}]}`, http.StatusBadRequest)
			return
		}
		res := graphql.Do(graphql.Params{
			Schema:         s,
			RequestString:  req.Query,
			OperationName:  req.OperationName,
			VariableValues: req.Variables,
			Context:        r.Context(),
		})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(res)
	}), nil
}
