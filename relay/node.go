package relay

import (
	"context"
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/graftgql/graft/internal/batchsched"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/loader"
	"github.com/graftgql/graft/schema"
)

// ID returns the global ID of the object of the named type with the given
// key: "<type>:<key>" in base64url without padding ("Book:7" is
// "Qm9vazo3"). ParseID reads the ids of type names and keys of up to
// 1023 bytes in all, not longer ones.
func ID(typeName, key string) schema.ID {
	out := appendID(make([]byte, 0, base64.RawURLEncoding.EncodedLen(len(typeName)+1+len(key))), typeName, key)
	return schema.ID(unsafe.String(unsafe.SliceData(out), len(out)))
}

// appendID appends the global id of typeName and key to buf.
func appendID(buf []byte, typeName, key string) []byte {
	var raw [128]byte
	plain := append(append(append(raw[:0], typeName...), ':'), key...)
	return base64.RawURLEncoding.AppendEncode(buf, plain)
}

// idEncoding reads ids: Strict refuses the texts that differ from what
// ID writes only in the unused bits of their last character.
var idEncoding = base64.RawURLEncoding.Strict()

// maxIDLen bounds a global id before it is encoded: the type name, the
// colon and the key.
const maxIDLen = 1024

// ParseID returns the type name and key of a global ID, or false when id
// is not one as ID writes it (other base64 spellings of the same bytes,
// with line breaks or other unused bits, are refused: an object has one
// id).
func ParseID(id schema.ID) (typeName, key string, ok bool) {
	if len(id) > idEncoding.EncodedLen(maxIDLen) {
		return "", "", false
	}
	raw, err := idEncoding.DecodeString(string(id))
	if err != nil || idEncoding.EncodedLen(len(raw)) != len(id) {
		return "", "", false // not as ID writes it (line breaks): an object has one id
	}
	typeName, key, ok = strings.Cut(string(raw), ":")
	return typeName, key, ok && typeName != ""
}

// KeyOf returns the key of a global ID of the named type, or false when id
// is not a global ID or belongs to another type.
func KeyOf(id schema.ID, typeName string) (string, bool) {
	t, key, ok := ParseID(id)
	return key, ok && t == typeName
}

// FetchFunc fetches the objects of one type by key in one call: one
// result per key, in the order of keys, nil for a key with no object;
// errors as for loader.FetchFunc (nil, one per key, or one for all).
type FetchFunc[T any] func(ctx context.Context, keys []string) ([]*T, []error)

// Nodes is the Node interface of a schema and the object types registered
// with it; NewNodes declares it.
type Nodes struct {
	def      *schemadef.Builder
	fetchers map[string]func(ctx context.Context, key string) (any, error)
}

// nodeIDArgs are the arguments of node(id:).
type nodeIDArgs struct {
	ID schema.ID `graphql:"id"`
}

// nodeIDsArgs are the arguments of nodes(ids:).
type nodeIDsArgs struct {
	IDs []schema.ID `graphql:"ids"`
}

// NewNodes declares the Node interface ("An object with a global ID.",
// with id: ID!) and the root fields node(id: ID!): Node and nodes(ids:
// [ID!]!): [Node]!, which find any registered object by its global ID.
// Their lookups run through one loader per type and request, so all the
// ids of one type in a request are fetched together.
func NewNodes(b *schema.Builder) *Nodes {
	n := &Nodes{def: schemadef.BuilderOf(b), fetchers: map[string]func(context.Context, string) (any, error){}}
	schema.Interface[any](b, "Node", schema.Description("An object with a global ID.")).
		Field("id", "ID!", schema.Description("The global ID of the object."))
	schema.Query(b, "node", func(ctx context.Context, a nodeIDArgs) (any, error) {
		return n.load(ctx, a.ID)
	}, schema.OfType("Node"), schema.Concurrent())
	schema.Query(b, "nodes", func(ctx context.Context, a nodeIDsArgs) ([]any, error) {
		if len(a.IDs) > maxIDs {
			return nil, badInput("ids", "Argument \"ids\" holds more than 100 ids.")
		}
		out := make([]any, len(a.IDs))
		task := batchsched.From(ctx)
		if task == nil || len(a.IDs) < 2 {
			for i, id := range a.IDs {
				v, err := n.load(ctx, id)
				if err != nil {
					return nil, err
				}
				out[i] = v
			}
			return out, nil
		}
		// Each id waits in a task of its own, all registered before this
		// one blocks, so that every id is queued before the batches go.
		s := task.Scheduler()
		subs := make([]*batchsched.Task, len(a.IDs))
		for i := range subs {
			subs[i] = s.NewTask()
		}
		errs := make([]error, len(a.IDs))
		done := make(chan struct{}, len(a.IDs))
		task.Block()
		for i, id := range a.IDs {
			go func() {
				defer func() { done <- struct{}{} }()
				defer subs[i].Done()
				out[i], errs[i] = n.load(subs[i].Context(ctx), id)
			}()
		}
		for range a.IDs {
			<-done
		}
		task.Wake()
		task.Resume()
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	}, schema.OfType("[Node]!"), schema.Concurrent())
	return n
}

// maxIDs bounds the ids of one nodes(ids:) field.
const maxIDs = 100

// load finds the object of a global ID: nil for an id that does not
// decode, of a type that is not registered, or without an object.
func (n *Nodes) load(ctx context.Context, id schema.ID) (any, error) {
	typeName, key, ok := ParseID(id)
	if !ok {
		return nil, nil
	}
	fetch := n.fetchers[typeName]
	if fetch == nil {
		return nil, nil
	}
	return fetch(ctx, key)
}

// loaderKey keys a type's loader among a request's values.
type loaderKey struct {
	nodes    *Nodes
	typeName string
}

// Register makes the object type obj a Node: it gives obj the field id:
// ID!, the global ID of key(object) (replacing a struct field named id),
// written straight into the response without a string per object (field
// middleware sees the object itself as the field's value; a key too long
// for ParseID to read back, see ID, is an error of the field),
// and lets node and nodes find its objects through fetch, called once per
// request with every key of the type that request asks for. obj must be
// declared with schema.Implements("Node").
func Register[T any](n *Nodes, obj *schema.ObjectType[T], key func(*T) string, fetch FetchFunc[T]) {
	typeName := obj.Name()
	// The id field resolves to the object itself, and its writer encodes
	// the global id straight into the response: no string per object.
	schema.FieldFuncNoArgs(obj, "id", func(_ context.Context, t *T) (*T, error) {
		return t, nil
	}, schema.OfType("ID!"))
	n.def.LeafWriter("ID", reflect.TypeFor[T](), func(buf []byte, p unsafe.Pointer) (out []byte, err error) {
		defer func() {
			if v := recover(); v != nil {
				out, err = buf, fmt.Errorf("the key of a %s panicked: %v", typeName, v)
			}
		}()
		k := key((*T)(p))
		if len(typeName)+1+len(k) > maxIDLen {
			return buf, fmt.Errorf("the key of a %s is %d bytes, longer than a global id holds", typeName, len(k))
		}
		buf = append(buf, '"')
		buf = appendID(buf, typeName, k)
		return append(buf, '"'), nil
	})
	lkey := loaderKey{nodes: n, typeName: typeName}
	newLoader := func() any { return loader.New(loader.FetchFunc[string, *T](fetch)) }
	n.fetchers[typeName] = func(ctx context.Context, k string) (any, error) {
		var l *loader.Loader[string, *T]
		if task := batchsched.From(ctx); task != nil {
			l = task.Scheduler().Local(lkey, newLoader).(*loader.Loader[string, *T])
		} else {
			l = newLoader().(*loader.Loader[string, *T])
		}
		v, err := l.Load(ctx, k)
		if err != nil || v == nil {
			return nil, err
		}
		return v, nil
	}
}
