package schemadef

import "github.com/vektah/gqlparser/v2/ast"

// extendIntrospection adds to a loaded schema the members graphql-js
// 16.15 serves beyond gqlparser's prelude, so that documents selecting
// them validate: __Directive's isDeprecated and deprecationReason,
// __Schema.directives(includeDeprecated:), and the DIRECTIVE_DEFINITION
// location, where @deprecated may now be applied. The schema's
// definitions are its own (LoadSchema parses the prelude for each
// schema), so they are changed in place.
func extendIntrospection(s *ast.Schema) {
	if d := s.Types["__Directive"]; d != nil && d.Fields.ForName("isDeprecated") == nil {
		d.Fields = append(d.Fields,
			&ast.FieldDefinition{Name: "isDeprecated", Type: ast.NonNullNamedType("Boolean", nil), Position: d.Position},
			&ast.FieldDefinition{Name: "deprecationReason", Type: ast.NamedType("String", nil), Position: d.Position})
	}
	if d := s.Types["__Schema"]; d != nil {
		if f := d.Fields.ForName("directives"); f != nil && f.Arguments.ForName("includeDeprecated") == nil {
			f.Arguments = append(f.Arguments, &ast.ArgumentDefinition{Name: "includeDeprecated", Type: ast.NonNullNamedType("Boolean", nil),
				DefaultValue: &ast.Value{Kind: ast.BooleanValue, Raw: "false", Position: d.Position}, Position: d.Position})
		}
	}
	if d := s.Types["__DirectiveLocation"]; d != nil && d.EnumValues.ForName("DIRECTIVE_DEFINITION") == nil {
		d.EnumValues = append(d.EnumValues, &ast.EnumValueDefinition{Name: "DIRECTIVE_DEFINITION",
			Description: "Location adjacent to a directive definition.", Position: d.Position})
	}
	if d := s.Directives["deprecated"]; d != nil && !containsLocation(d.Locations, "DIRECTIVE_DEFINITION") {
		d.Locations = append(d.Locations, ast.DirectiveLocation("DIRECTIVE_DEFINITION"))
	}
}

func containsLocation(ls []ast.DirectiveLocation, l ast.DirectiveLocation) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}
