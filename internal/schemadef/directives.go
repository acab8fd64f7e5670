package schemadef

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// This file holds what federation subgraphs add to printing: directives
// declared with DirectiveSubgraphOnly or DirectiveLinked, applied with
// Directive like any other, and printed by Print with Directives set. The
// schema's own SDL, which the validator and introspection read, does not
// carry them: they are meant for tools that read a printed schema, such as
// a federation gateway.

// OnField applies directive options (Directive, CacheControl) to the
// field with the given name of the object type or interface being
// declared, typically a field derived from a struct field, and OfType to
// a struct field of an object type (as its type tag would). Other
// options given here are ignored.
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

// Format prints the applied directive in SDL, for example
// `@key(fields: "id")`.
func (d AppliedDirective) Format() string {
	if d.Args == "" {
		return "@" + d.Name
	}
	return "@" + d.Name + "(" + d.Args + ")"
}

// applyDirectives copies the directives OnField applies onto the built
// fields, and the directives of interface fields, then checks every
// applied directive: declared, and with arguments that parse. It checks
// the definitions not printed in the schema's SDL (which Build loads, and
// so checks, for the others).
func (bc *build) applyDirectives(s *Schema) error {
	for _, d := range s.Directives {
		if d.Printing != DirectiveSubgraphOnly {
			continue
		}
		var w strings.Builder
		printDirectiveDefs(&w, []*DirectiveDef{d}, true, true)
		if _, err := parser.ParseSchema(&ast.Source{Name: "directive", Input: w.String()}); err != nil {
			bc.errorf("", "", "bad definition of directive @%s: %v", d.Name, err)
		}
	}
	check := func(typeName, field string, ds []AppliedDirective) {
		for _, d := range ds {
			if s.Directive(d.Name) == nil {
				bc.errorf(typeName, field, "directive @%s is applied but not declared (Builder.DeclareDirective)", d.Name)
				continue
			}
			if _, err := ParseDirectives(d.Format()); err != nil {
				bc.errorf(typeName, field, "bad directive %q: %v", d.Format(), err)
				continue
			}
			if err := checkCacheScope(d); err != nil {
				bc.errorf(typeName, field, "%v", err)
			}
		}
	}
	apply := func(t *Type, opts options, fields []*fieldDecl, iface bool) {
		t.Extension = opts.extension
		if iface {
			for _, fd := range fields {
				if f := t.Field(fd.name); f != nil {
					f.Directives = append(f.Directives, fd.opts.directives...)
				}
			}
		}
		for name, fopts := range opts.onFields {
			f := t.Field(name)
			if f == nil {
				bc.errorf(t.Name, name, "OnField names no field of %s", t.Name)
				continue
			}
			f.Directives = append(f.Directives, collect(fopts).directives...)
		}
		check(t.Name, "", t.Directives)
		for _, f := range t.Fields {
			check(t.Name, f.Name, f.Directives)
		}
	}
	for _, d := range bc.b.objects {
		if t := s.typeIndex[d.name]; t != nil {
			apply(t, d.opts, d.fields, false)
		}
	}
	for _, d := range bc.b.interfaces {
		if t := s.typeIndex[d.name]; t != nil {
			apply(t, d.opts, d.fields, true)
		}
	}
	if len(bc.errs) > 0 {
		return bc.joined()
	}
	return nil
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
		var w strings.Builder
		printDirectiveDefs(&w, s.Directives, true, true)
		if w.Len() > 0 {
			parts = append(parts, w.String())
		}
	}
	for _, t := range s.Types {
		if builtinScalars[t.Name] || omit(t.Name, "") {
			continue
		}
		var w strings.Builder
		if t.Kind != ObjectKind && t.Kind != InterfaceKind {
			printType(&w, t, s.inSchemaSDL)
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
			printApplied(&w, t.Directives, all)
		}
		w.WriteString(" {\n")
		for _, f := range fields {
			printDescription(&w, f.Description, "  ")
			w.WriteString("  " + f.Name)
			printArgs(&w, f.Args)
			w.WriteString(": " + f.Type.String())
			printDeprecated(&w, f.Deprecated, f.DeprecationReason)
			if o.Directives {
				printApplied(&w, f.Directives, all)
			}
			w.WriteByte('\n')
		}
		w.WriteString("}\n")
		parts = append(parts, w.String())
	}
	return strings.Join(parts, "\n")
}

// all accepts every applied directive.
func all(string) bool { return true }
