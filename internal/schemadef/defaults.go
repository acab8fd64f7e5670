package schemadef

import (
	"fmt"
	"strconv"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// parseLiteral parses a GraphQL value literal such as `10` or `{a: [1]}`.
func parseLiteral(lit string) (*ast.Value, error) {
	doc, err := parser.ParseSchema(&ast.Source{Name: "default", Input: "input D { f: Int = " + lit + " }"})
	if err != nil {
		return nil, err
	}
	if len(doc.Definitions) != 1 || len(doc.Definitions[0].Fields) != 1 || doc.Definitions[0].Fields[0].DefaultValue == nil {
		return nil, fmt.Errorf("not a single value")
	}
	return doc.Definitions[0].Fields[0].DefaultValue, nil
}

// checkDefault checks, once all types are built, that a default value
// fits the type of its argument or input field.
func (bc *build) checkDefault(typeName, where, lit string, v *ast.Value, ref *TypeRef) {
	bc.deferred = append(bc.deferred, func() {
		if err := bc.valueFits(v, ref); err != nil {
			bc.errorf(typeName, where, "default %s does not fit type %s: %v", lit, ref, err)
		}
	})
}

// valueFits reports why a constant value cannot be coerced to ref.
func (bc *build) valueFits(v *ast.Value, ref *TypeRef) error {
	if v.Kind == ast.Variable {
		return fmt.Errorf("a default cannot use a variable")
	}
	if ref.Kind == NonNullRef {
		if v.Kind == ast.NullValue {
			return fmt.Errorf("null for a non-null type")
		}
		return bc.valueFits(v, ref.OfType)
	}
	if v.Kind == ast.NullValue {
		return nil
	}
	if ref.Kind == ListRef {
		if v.Kind != ast.ListValue {
			return bc.valueFits(v, ref.OfType)
		}
		for i, c := range v.Children {
			if err := bc.valueFits(c.Value, ref.OfType); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return nil
	}
	t := ref.Named
	switch t.Kind {
	case EnumKind:
		if v.Kind == ast.EnumValue {
			for _, ev := range t.EnumValues {
				if ev.Name == v.Raw {
					return nil
				}
			}
		}
		return fmt.Errorf("%s is not a value of enum %s", v.String(), t.Name)
	case InputObjectKind:
		if v.Kind != ast.ObjectValue {
			return fmt.Errorf("%s is not an input object", v.String())
		}
		given := map[string]bool{}
		for _, c := range v.Children {
			var field *Argument
			for _, f := range t.InputFields {
				if f.Name == c.Name {
					field = f
				}
			}
			if field == nil {
				return fmt.Errorf("%s has no field %q", t.Name, c.Name)
			}
			if err := bc.valueFits(c.Value, field.Type); err != nil {
				return fmt.Errorf("%s: %w", c.Name, err)
			}
			given[c.Name] = true
		}
		for _, f := range t.InputFields {
			if !given[f.Name] && f.Type.Kind == NonNullRef && f.DefaultValue == nil {
				return fmt.Errorf("required field %s.%s is missing", t.Name, f.Name)
			}
		}
		return nil
	}
	switch t.Name {
	case "Int":
		if v.Kind == ast.IntValue {
			if _, err := strconv.ParseInt(v.Raw, 10, 32); err == nil {
				return nil
			}
		}
	case "Float":
		if v.Kind == ast.IntValue || v.Kind == ast.FloatValue {
			return nil
		}
	case "String":
		if v.Kind == ast.StringValue || v.Kind == ast.BlockValue {
			return nil
		}
	case "Boolean":
		if v.Kind == ast.BooleanValue {
			return nil
		}
	case "ID":
		if v.Kind == ast.StringValue || v.Kind == ast.IntValue {
			return nil
		}
	case "DateTime":
		if v.Kind == ast.StringValue {
			if _, err := time.Parse(time.RFC3339Nano, v.Raw); err == nil {
				return nil
			}
		}
	default:
		// Custom scalars accept any constant literal; their Unmarshaler
		// decides at request time.
		return nil
	}
	return fmt.Errorf("%s is not a valid %s", v.String(), t.Name)
}
