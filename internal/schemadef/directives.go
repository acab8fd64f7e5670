package schemadef

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// This file holds applied directives: directives such as
// `@key(fields: "id")` declared on object types, interfaces and their
// fields, kept in the model (Type.Directives, Field.Directives) and printed
// by Print. The schema's own SDL, which the validator and introspection
// read, does not carry them: they are meant for tools that read a printed
// schema, such as a federation gateway.

// Directive applies a directive, written in SDL such as
// `@key(fields: "id")` or `@shareable`, to an object type, an interface or
// a field declared with FieldFunc and friends (use OnField for plain
// struct fields). The text is parsed when the schema is built; it may hold
// several directives.
func SubgraphDirective(sdl string) Option {
	return func(o *options) { o.subgraphDirectives = append(o.subgraphDirectives, sdl) }
}

// OnField applies directive options (Directive, CacheControl,
// SubgraphDirective) to the field with the given name of the object type
// or interface being declared, typically a field derived from a struct
// field. Other options given here are ignored.
func OnField(name string, opts ...Option) Option {
	return func(o *options) {
		if o.onFields == nil {
			o.onFields = map[string][]Option{}
		}
		o.onFields[name] = append(o.onFields[name], opts...)
	}
}

// Extension marks an object type to be printed as `extend type` by Print
// with Directives set (the form federation subgraphs use for a type
// another subgraph owns).
func Extension() Option {
	return func(o *options) { o.extension = true }
}

// DirectiveDefinition declares a directive definition, for example
// `directive @custom on OBJECT`, printed by Print with Directives set.
func (b *Builder) DirectiveDefinition(sdl string) {
	b.subgraphDirectiveDefs = append(b.subgraphDirectiveDefs, strings.TrimSpace(sdl))
}

// ParseDirectives parses applied directives written in SDL.
func ParseDirectives(sdl string) (ast.DirectiveList, error) {
	doc, err := parser.ParseSchema(&ast.Source{Name: "directive", Input: "scalar X " + sdl})
	if err != nil {
		return nil, err
	}
	if len(doc.Definitions) != 1 {
		return nil, &BuildError{Message: "not a list of directives: " + sdl}
	}
	return doc.Definitions[0].Directives, nil
}

// applyDirectives copies the applied directives of the declarations onto
// the built types and fields.
func (bc *build) applyDirectives(s *Schema) error {
	for _, text := range bc.b.subgraphDirectiveDefs {
		doc, err := parser.ParseSchema(&ast.Source{Name: "directive", Input: text})
		if err != nil || len(doc.Directives) != 1 || len(doc.Definitions)+len(doc.Extensions)+len(doc.Schema)+len(doc.SchemaExtension) != 0 {
			bc.errorf("", "", "DirectiveDefinition needs one directive definition, got %q", text)
			continue
		}
		s.subgraphDirectiveDefs = append(s.subgraphDirectiveDefs, text)
	}
	apply := func(t *Type, opts options, fields []*fieldDecl) {
		t.SubgraphDirectives = bc.parseApplied(t.Name, "", opts.subgraphDirectives)
		t.Extension = opts.extension
		for _, fd := range fields {
			if f := t.Field(fd.name); f != nil {
				f.SubgraphDirectives = append(f.SubgraphDirectives, bc.parseApplied(t.Name, fd.name, fd.opts.subgraphDirectives)...)
			}
		}
		for name, fopts := range opts.onFields {
			f := t.Field(name)
			if f == nil {
				bc.errorf(t.Name, name, "OnField names no field of %s", t.Name)
				continue
			}
			fo := collect(fopts)
			f.SubgraphDirectives = append(f.SubgraphDirectives, bc.parseApplied(t.Name, name, fo.subgraphDirectives)...)
			f.Directives = append(f.Directives, fo.directives...)
		}
	}
	for _, d := range bc.b.objects {
		if t := s.typeIndex[d.name]; t != nil {
			apply(t, d.opts, d.fields)
		}
	}
	for _, d := range bc.b.interfaces {
		if t := s.typeIndex[d.name]; t != nil {
			apply(t, d.opts, d.fields)
		}
	}
	if len(bc.errs) > 0 {
		return bc.joined()
	}
	return nil
}

func (bc *build) parseApplied(typeName, field string, texts []string) []*ast.Directive {
	var out []*ast.Directive
	for _, text := range texts {
		list, err := ParseDirectives(text)
		if err != nil {
			bc.errorf(typeName, field, "bad directive %q: %v", text, err)
			continue
		}
		out = append(out, list...)
	}
	return out
}

// PrintOptions says how Print prints a schema.
type PrintOptions struct {
	// Header is printed first, followed by a blank line (for example an
	// `extend schema @link(...)` clause).
	Header string
	// Directives prints the directive definitions, the applied directives
	// and `extend type` for types declared with Extension.
	Directives bool
	// Omit leaves out a type (fieldName "") or a field of an object type.
	Omit func(typeName, fieldName string) bool
}

// Print prints the schema like SDL, with the choices of o.
func (s *Schema) Print(o PrintOptions) string {
	omit := o.Omit
	if omit == nil {
		omit = func(string, string) bool { return false }
	}
	var parts []string
	if o.Header != "" {
		parts = append(parts, strings.TrimRight(o.Header, "\n")+"\n")
	}
	if o.Directives {
		for _, d := range s.subgraphDirectiveDefs {
			parts = append(parts, d+"\n")
		}
	}
	for _, t := range s.Types {
		if builtinScalars[t.Name] || omit(t.Name, "") {
			continue
		}
		var w strings.Builder
		if t.Kind != ObjectKind && t.Kind != InterfaceKind {
			printType(&w, t)
			parts = append(parts, w.String())
			continue
		}
		var fields []*Field
		for _, f := range t.Fields {
			if !omit(t.Name, f.Name) {
				fields = append(fields, f)
			}
		}
		if len(fields) == 0 {
			continue
		}
		printDescription(&w, t.Description, "")
		if o.Directives && t.Extension {
			w.WriteString("extend ")
		}
		if t.Kind == ObjectKind {
			w.WriteString("type " + t.Name)
		} else {
			w.WriteString("interface " + t.Name)
		}
		for i, it := range t.Interfaces {
			if i == 0 {
				w.WriteString(" implements ")
			} else {
				w.WriteString(" & ")
			}
			w.WriteString(it.Name)
		}
		if o.Directives {
			printSubgraphApplied(&w, t.SubgraphDirectives)
		}
		w.WriteString(" {\n")
		for _, f := range fields {
			printDescription(&w, f.Description, "  ")
			w.WriteString("  " + f.Name)
			printArgs(&w, f.Args)
			w.WriteString(": " + f.Type.String())
			printDeprecated(&w, f.Deprecated, f.DeprecationReason)
			if o.Directives {
				printSubgraphApplied(&w, f.SubgraphDirectives)
			}
			w.WriteByte('\n')
		}
		w.WriteString("}\n")
		parts = append(parts, w.String())
	}
	return strings.Join(parts, "\n")
}

// printSubgraphApplied prints applied directives, each preceded by a space.
func printSubgraphApplied(w *strings.Builder, list []*ast.Directive) {
	for _, d := range list {
		w.WriteString(" " + FormatDirective(d))
	}
}

// FormatDirective prints an applied directive in SDL.
func FormatDirective(d *ast.Directive) string {
	var w strings.Builder
	w.WriteString("@" + d.Name)
	if len(d.Arguments) > 0 {
		w.WriteByte('(')
		for i, a := range d.Arguments {
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(a.Name + ": " + a.Value.String())
		}
		w.WriteByte(')')
	}
	return w.String()
}
