package federation

import (
	"context"
	"fmt"
	"github.com/graftgql/graft/internal/clip"
	"reflect"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// Representation is one entity representation the gateway sends to
// _entities: the __typename and the fields of one of the type's keys,
// plus the fields named by @requires. Values are in coerced input form:
// nil, bool, int64, float64, string, []any and map[string]any, and
// json.Number for an integer beyond int64. An entity resolver receives
// only representations that carry every field of one of the type's
// resolvable keys, each of its field's type, and an ID among them as a
// string even when the gateway sent a number.
type Representation map[string]any

// Typename returns the representation's __typename.
func (r Representation) Typename() string {
	s, _ := r["__typename"].(string)
	return s
}

// String returns the string (or ID) value at key, and whether there is
// one.
func (r Representation) String(key string) (string, bool) {
	s, ok := r[key].(string)
	return s, ok
}

// Int returns the integer value at key, and whether there is one.
func (r Representation) Int(key string) (int64, bool) {
	switch v := r[key].(type) {
	case int64:
		return v, true
	case float64:
		if v == float64(int64(v)) {
			return int64(v), true
		}
	}
	return 0, false
}

// Object returns the object value at key (for nested keys such as
// "variation { id }"), or nil.
func (r Representation) Object(key string) Representation {
	m, _ := r[key].(map[string]any)
	return m
}

// UnmarshalGraphQL reads an _Any value: an object with a string
// __typename.
func (r *Representation) UnmarshalGraphQL(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("_Any must be an object with __typename, got %T", v)
	}
	if s, ok := m["__typename"].(string); !ok || s == "" {
		return fmt.Errorf("_Any must have a __typename string")
	}
	*r = m
	return nil
}

// MarshalGraphQL writes the representation as an object.
func (r Representation) MarshalGraphQL() (any, error) { return map[string]any(r), nil }

// EntityResolver resolves the representations of one entity type; Entity
// makes one.
type EntityResolver struct {
	typeName string
	goTypes  []reflect.Type
	resolve  func(ctx context.Context, reps []Representation) ([]any, []error)
}

// Entity returns the entity resolver of the object type obj. fn receives
// every representation of the type that one _entities request carries, in
// request order, and returns one result per representation (nil when the
// entity does not exist: its _entities item is null). errs is nil or has
// one entry per representation; a non-nil entry makes that item null with
// the error at its path. A result slice of the wrong length fails every
// representation of the type.
func Entity[T any](obj *schema.ObjectType[T], fn func(ctx context.Context, reps []Representation) ([]*T, []error)) EntityResolver {
	return EntityResolver{
		typeName: obj.Name(),
		goTypes:  []reflect.Type{reflect.TypeFor[*T](), reflect.TypeFor[T]()},
		resolve: func(ctx context.Context, reps []Representation) ([]any, []error) {
			vals, errs := fn(ctx, reps)
			if len(vals) != len(reps) || errs != nil && len(errs) != len(reps) {
				err := graft.NewError(graft.CodeInternalServerError, fmt.Sprintf(
					"the entity resolver of %s returned %d results and %d errors for %d representations",
					obj.Name(), len(vals), len(errs), len(reps)))
				errs = make([]error, len(reps))
				for i := range errs {
					errs[i] = err
				}
				return make([]any, len(reps)), errs
			}
			out := make([]any, len(reps))
			for i, v := range vals {
				if v != nil {
					out[i] = v
				}
			}
			return out, errs
		},
	}
}

// clipped cuts a name the gateway sent to 128 bytes for a message.
func clipped(s string) string {
	const most = 128
	if len(s) <= most {
		return s
	}
	return clip.Prefix(s, most) + "…"
}

// entityError is an _entities item that failed; resolving its type
// reports the error at the item's path.
type entityError struct{ err error }

// entities is the _entities resolver state.
type entities struct {
	byName map[string]*EntityResolver
	byGo   map[reflect.Type]string
	keys   map[string][]entityKey // the resolvable keys of each entity type
}

func newEntities(list []EntityResolver) (*entities, error) {
	e := &entities{byName: map[string]*EntityResolver{}, byGo: map[reflect.Type]string{}, keys: map[string][]entityKey{}}
	for i := range list {
		r := &list[i]
		if r.resolve == nil {
			return nil, fmt.Errorf("federation: Options.Entities[%d] was not made by Entity", i)
		}
		if e.byName[r.typeName] != nil {
			return nil, fmt.Errorf("federation: two entity resolvers for %s", r.typeName)
		}
		e.byName[r.typeName] = r
		for _, gt := range r.goTypes {
			e.byGo[gt] = r.typeName
		}
	}
	return e, nil
}

// resolve answers _entities: one call of each type's resolver with all of
// that type's representations.
func (e *entities) resolve(ctx context.Context, reps []Representation) []any {
	out := make([]any, len(reps))
	checked := make([]Representation, len(reps))
	var order []string
	groups := map[string][]int{}
	for i, r := range reps {
		name := r.Typename()
		if e.byName[name] == nil {
			out[i] = entityError{graft.NewError(graft.CodeBadUserInput,
				fmt.Sprintf("%q is not an entity type of this subgraph", clipped(name)))}
			continue
		}
		rep, err := keyOf(name, e.keys[name], r)
		if err != nil {
			out[i] = entityError{graft.NewError(graft.CodeBadUserInput, err.Error())}
			continue
		}
		checked[i] = rep
		if groups[name] == nil {
			order = append(order, name)
		}
		groups[name] = append(groups[name], i)
	}
	for _, name := range order {
		idx := groups[name]
		batch := make([]Representation, len(idx))
		for j, i := range idx {
			batch[j] = checked[i]
		}
		vals, errs := e.byName[name].resolve(ctx, batch)
		for j, i := range idx {
			if errs != nil && errs[j] != nil {
				out[i] = entityError{errs[j]}
				continue
			}
			out[i] = vals[j]
		}
	}
	return out
}

// typeOf is the _Entity union's type resolution.
func (e *entities) typeOf(_ context.Context, v any) (string, error) {
	if ee, ok := v.(entityError); ok {
		return "", ee.err
	}
	if name, ok := e.byGo[reflect.TypeOf(v)]; ok {
		return name, nil
	}
	return "", fmt.Errorf("an entity resolver returned a %T", v)
}
