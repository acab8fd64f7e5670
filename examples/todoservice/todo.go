package main

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

// Todo is one item of the list.
type Todo struct {
	ID    schema.ID `json:"id"`
	Title string    `json:"title"`
	Done  bool      `json:"done"`
}

// Store keeps the list in memory; a real service would hold a database
// pool here, opened when the layer starts and closed when it stops.
type Store struct {
	mu    sync.Mutex
	todos []Todo
}

// Layer provides the Store to the resolvers.
func Layer() *graft.Layer {
	l := graft.NewLayer()
	graft.Provide(l, func(context.Context) (*Store, func(context.Context) error, error) {
		return &Store{}, nil, nil
	})
	return l
}

type addArgs struct{ Title string }

type doneArgs struct{ ID schema.ID }

// maxTitle bounds a title's length.
const maxTitle = 200

// topic is where additions are published.
const topic = "todo:added"

// Schema builds the service's schema; additions are published through ps
// (Redis Pub/Sub when REDIS_URL is set, so every instance's subscribers
// see them).
func Schema(ps pubsub.PubSub) (*schema.Schema, error) {
	b := schema.New()
	schema.Object[Todo](b, "Todo")
	schema.QueryNoArgs(b, "todos", func(ctx context.Context) ([]Todo, error) {
		s, err := graft.Service[*Store](ctx)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return append([]Todo{}, s.todos...), nil
	}, schema.OfType("[Todo!]!"))
	schema.Mutation(b, "addTodo", func(ctx context.Context, a addArgs) (Todo, error) {
		if a.Title == "" || len(a.Title) > maxTitle {
			return Todo{}, graft.NewError(graft.CodeBadUserInput, "title must be 1 to 200 bytes")
		}
		s, err := graft.Service[*Store](ctx)
		if err != nil {
			return Todo{}, err
		}
		s.mu.Lock()
		t := Todo{ID: schema.ID(strconv.Itoa(len(s.todos) + 1)), Title: a.Title}
		s.todos = append(s.todos, t)
		s.mu.Unlock()
		payload, err := json.Marshal(t)
		if err != nil {
			return Todo{}, err
		}
		return t, ps.Publish(ctx, topic, payload)
	})
	schema.Mutation(b, "completeTodo", func(ctx context.Context, a doneArgs) (Todo, error) {
		s, err := graft.Service[*Store](ctx)
		if err != nil {
			return Todo{}, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		for i := range s.todos {
			if s.todos[i].ID == a.ID {
				s.todos[i].Done = true
				return s.todos[i], nil
			}
		}
		return Todo{}, graft.NewError(graft.CodeBadUserInput, "no such todo")
	})
	schema.SubscriptionSink(b, "todoAdded", func(ctx context.Context, _ struct{}, sink schema.Sink[Todo]) error {
		return pubsub.SubscribeFunc(ctx, ps, topic, func(payload []byte) {
			var t Todo
			if json.Unmarshal(payload, &t) == nil {
				sink.Send(t)
			}
		}, sink.Close)
	})
	return b.Build()
}
