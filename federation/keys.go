package federation

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graftgql/graft/internal/coerce"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// A representation comes from the gateway, which sends the __typename and
// the fields of one of the entity's resolvable keys. _entities checks it
// against those keys before an entity resolver sees it: a representation
// that carries the fields of none of them, or carries one of the wrong
// type, is a BAD_USER_INPUT error at its index, so that no resolver
// looks an entity up by a key it does not have.

// keyField is a field of a key's field set: its name, its GraphQL type
// and, for an object field, the fields selected in it.
type keyField struct {
	name string
	typ  *schemadef.TypeRef
	sub  []keyField
}

// entityKey is one resolvable @key of an entity type.
type entityKey struct {
	fields string // as declared, for messages
	set    []keyField
}

// parseKey reads the field set fields of the type t.
func parseKey(t *schemadef.Type, fields string) ([]keyField, error) {
	doc, err := parser.ParseQuery(&ast.Source{Name: "key", Input: "{" + fields + "}"})
	if err != nil || len(doc.Operations) != 1 || len(doc.Fragments) != 0 {
		return nil, fmt.Errorf("federation: %s @key(fields: %q) is not a field set", t.Name, fields)
	}
	return keySelection(t.Name, t, fields, doc.Operations[0].SelectionSet)
}

func keySelection(owner string, t *schemadef.Type, fields string, sel ast.SelectionSet) ([]keyField, error) {
	var out []keyField
	for _, s := range sel {
		f, ok := s.(*ast.Field)
		if !ok || f.Alias != f.Name || len(f.Arguments) > 0 || len(f.Directives) > 0 {
			return nil, fmt.Errorf("federation: %s @key(fields: %q) is not a field set", owner, fields)
		}
		var def *schemadef.Field
		for _, fd := range t.Fields {
			if fd.Name == f.Name {
				def = fd
			}
		}
		if def == nil {
			return nil, fmt.Errorf("federation: %s @key(fields: %q) names %s, not a field of %s", owner, fields, f.Name, t.Name)
		}
		kf := keyField{name: f.Name, typ: def.Type}
		named := def.Type.NamedType()
		composite := named.Kind == schemadef.ObjectKind || named.Kind == schemadef.InterfaceKind
		switch {
		case composite && len(f.SelectionSet) == 0:
			return nil, fmt.Errorf("federation: %s @key(fields: %q) selects no field of %s", owner, fields, f.Name)
		case !composite && len(f.SelectionSet) > 0:
			return nil, fmt.Errorf("federation: %s @key(fields: %q) selects fields of %s, a leaf", owner, fields, f.Name)
		case composite:
			sub, err := keySelection(owner, named, fields, f.SelectionSet)
			if err != nil {
				return nil, err
			}
			kf.sub = sub
		}
		out = append(out, kf)
	}
	return out, nil
}

// maxKeyDepth bounds the nesting checkKey follows in a representation:
// field sets are short, and the value is the gateway's.
const maxKeyDepth = 32

// keyOf checks r against the keys of its type and returns it with the ID
// fields of the key it carries as strings (a copy when one was a number),
// or the error for its index.
func keyOf(typeName string, keys []entityKey, r Representation) (Representation, error) {
	if len(keys) == 0 {
		return r, nil
	}
	var why string
	for i, k := range keys {
		out, reason := checkKey(k.set, r, "", 0)
		if reason == "" {
			if out == nil {
				return r, nil
			}
			for name, v := range r { // __typename and @requires fields
				if _, set := out[name]; !set {
					out[name] = v
				}
			}
			return out, nil
		}
		if i == 0 {
			why = reason
		}
	}
	if len(keys) == 1 {
		return nil, fmt.Errorf("the representation of %s does not carry its key (%s): %s", typeName, keys[0].fields, why)
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.fields
	}
	return nil, fmt.Errorf("the representation of %s carries none of its keys (%s)", typeName, strings.Join(names, " | "))
}

// checkKey checks the members of obj named by the key fields set. It
// returns why they do not fit ("" when they do) and, when an ID among
// them was given as a number, a copy of obj's key members with the ID as a
// string (nil when nothing changed). prefix is the path of obj in the
// representation, for the reason.
func checkKey(set []keyField, obj map[string]any, prefix string, depth int) (map[string]any, string) {
	var out map[string]any
	for _, f := range set {
		v, ok := obj[f.name]
		if !ok {
			return nil, "no " + prefix + f.name
		}
		nv, changed, why := checkKeyValue(f, f.typ, v, prefix+f.name+".", depth)
		if why != "" {
			if !strings.HasPrefix(why, "no ") && !strings.HasPrefix(why, prefix+f.name+".") {
				why = prefix + f.name + " " + why
			}
			return nil, why
		}
		if changed {
			if out == nil {
				out = make(map[string]any, len(set))
			}
			out[f.name] = nv
		}
	}
	if out != nil {
		for _, f := range set {
			if _, set := out[f.name]; !set {
				out[f.name] = obj[f.name]
			}
		}
	}
	return out, ""
}

// checkKeyValue checks the value v of the key field f at type ref.
func checkKeyValue(f keyField, ref *schemadef.TypeRef, v any, prefix string, depth int) (any, bool, string) {
	if depth > maxKeyDepth {
		return nil, false, "is nested too deeply"
	}
	if v == nil {
		if ref.Kind == schemadef.NonNullRef {
			return nil, false, "is null"
		}
		return nil, false, ""
	}
	if ref.Kind == schemadef.NonNullRef {
		ref = ref.OfType
	}
	if ref.Kind == schemadef.ListRef {
		items, ok := v.([]any)
		if !ok {
			return nil, false, "is not a list"
		}
		var out []any
		for i, it := range items {
			nv, changed, why := checkKeyValue(f, ref.OfType, it, prefix, depth+1)
			if why != "" {
				return nil, false, why
			}
			if changed && out == nil {
				out = append(make([]any, 0, len(items)), items[:i]...)
			}
			if out != nil {
				out = append(out, nv)
			}
		}
		if out != nil {
			return out, true, ""
		}
		return v, false, ""
	}
	t := ref.Named
	switch t.Kind {
	case schemadef.ObjectKind, schemadef.InterfaceKind:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false, "is not an object"
		}
		out, why := checkKey(f.sub, obj, prefix, depth+1)
		if why != "" {
			return nil, false, why
		}
		if out != nil {
			for k, x := range obj {
				if _, set := out[k]; !set {
					out[k] = x
				}
			}
			return out, true, ""
		}
		return v, false, ""
	case schemadef.EnumKind:
		s, ok := v.(string)
		if ok {
			for _, ev := range t.EnumValues {
				if ev.Name == s {
					return v, false, ""
				}
			}
		}
		return nil, false, "is not a value of " + t.Name
	}
	switch t.Name {
	case "ID": // as input coercion takes an ID: a string or an integer
		if _, ok := v.(string); ok {
			return v, false, ""
		}
		if x, ok := v.(json.Number); ok && !strings.ContainsAny(string(x), ".eE") {
			return string(x), true, "" // an integer beyond int64
		}
		if n, ok := coerce.Int64(v); ok {
			return strconv.FormatInt(n, 10), true, ""
		}
		return nil, false, "is not an ID"
	case "String":
		if _, ok := v.(string); ok {
			return v, false, ""
		}
		return nil, false, "is not a String"
	case "Boolean":
		if _, ok := v.(bool); ok {
			return v, false, ""
		}
		return nil, false, "is not a Boolean"
	case "Int":
		if n, ok := coerce.Int64(v); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
			return v, false, ""
		}
		return nil, false, "is not an Int"
	case "Float":
		switch x := v.(type) {
		case int64, float64:
			return v, false, ""
		case json.Number: // an integer beyond int64
			if f, err := strconv.ParseFloat(string(x), 64); err == nil {
				return f, true, ""
			}
		}
		return nil, false, "is not a Float"
	}
	return v, false, "" // a custom scalar: any value
}
