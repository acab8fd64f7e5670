package schemadef

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// This file binds the declarations of a Builder to a schema document given
// in SDL (Builder.SDL, Builder.SDLFiles). The document is the type system:
// each declaration becomes a binding checked against it, the types of
// struct fields, resolvers and arguments come from it, and Build reports
// every place where the two disagree with its position in the document.
// Binding happens once, in Build, and yields the same model as the
// code-first builder.

// sdlDoc holds the schema documents given to a Builder.
type sdlDoc struct {
	sources []*ast.Source
}

// SDL adds a schema document, named name in error positions, to the type
// system of the builder. With at least one document the builder is
// schema-first: the documents define every type, field and argument, and
// the declarations bind Go types and resolvers to them.
func (b *Builder) SDL(name, src string) {
	if b.sdl == nil {
		b.sdl = &sdlDoc{}
	}
	b.sdl.sources = append(b.sdl.sources, &ast.Source{Name: name, Input: src})
}

// SDLFiles reads the schema documents matching each glob pattern (in
// name order) and adds them with SDL. A pattern that matches no file, or
// a file that cannot be read, is a mistake Build reports.
func (b *Builder) SDLFiles(patterns ...string) {
	for _, pattern := range patterns {
		names, err := filepath.Glob(pattern)
		if err == nil && len(names) == 0 {
			err = errors.New("matches no file")
		}
		if err != nil {
			b.errorf("", "", "SDL file pattern %q: %v", pattern, err)
			continue
		}
		sort.Strings(names)
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err != nil {
				b.errorf("", "", "SDL file: %v", err)
				continue
			}
			b.SDL(name, string(src))
		}
	}
}

// sdlBind is the state of binding one Build to the schema documents.
type sdlBind struct {
	s    *ast.Schema
	text string
	defs []*ast.Definition // the document's types, in document order
	// pendingObjects and pendingInputs are the document's object and input
	// types that no declaration names: the first Go struct met at a
	// position of the type becomes its Go type.
	pendingObjects map[string]*typeInfo
	pendingInputs  map[string]*typeInfo
	// pendingEnums are the document's enums no declaration names: the
	// first named Go string type met at a position of the enum becomes
	// its Go type, holding the values' names.
	pendingEnums map[string]*typeInfo
	// extraTypes and extraDirectives are the supplied definitions
	// (Builder.Supplied) the document lacks, printed after it.
	extraTypes      []string
	extraDirectives []string
}

func (sb *sdlBind) def(name string) *ast.Definition {
	if sb == nil {
		return nil
	}
	return sb.s.Types[name]
}

// field returns the document's definition of a field of the named object
// or interface, or nil.
func (sb *sdlBind) field(typeName, field string) *ast.FieldDefinition {
	d := sb.def(typeName)
	if d == nil || d.Kind != ast.Object && d.Kind != ast.Interface {
		return nil
	}
	return d.Fields.ForName(field)
}

// fieldType returns the SDL type of a field of the document ("" when the
// builder is not schema-first or the document has no such field).
func (bc *build) sdlFieldType(typeName, field string) string {
	if f := bc.sdl.field(typeName, field); f != nil {
		return f.Type.String()
	}
	return ""
}

// sdlInput returns the document's definition of an argument (owner is the
// field) or of an input field (owner is empty), or nil.
func (bc *build) sdlInput(typeName, owner, name string) *ast.ArgumentDefinition {
	if bc.sdl == nil {
		return nil
	}
	if owner == "" {
		d := bc.sdl.def(typeName)
		if d == nil || d.Kind != ast.InputObject {
			return nil
		}
		f := d.Fields.ForName(name)
		if f == nil {
			return nil
		}
		return &ast.ArgumentDefinition{Name: f.Name, Type: f.Type, DefaultValue: f.DefaultValue, Description: f.Description, Directives: f.Directives, Position: f.Position}
	}
	if f := bc.sdl.field(typeName, owner); f != nil {
		return f.Arguments.ForName(name)
	}
	return nil
}

// sdlSkipStructField reports whether a struct field of an object bound to
// the document stays out of the schema: the document has no field of its
// name (a model may carry more than the schema shows), or a resolver of
// that name replaces it.
func (bc *build) sdlSkipStructField(t *Type, d *objectDecl, name string) bool {
	if bc.sdl == nil {
		return false
	}
	if bc.sdl.field(t.Name, name) == nil {
		return true
	}
	return slices.ContainsFunc(d.fields, func(fd *fieldDecl) bool { return fd.name == name })
}

// sdlPrepare loads the documents and binds the declarations that need no
// Go type information: root type names, interfaces implemented, union
// members and interface fields. It returns false when the documents do
// not load.
func (bc *build) sdlPrepare() bool {
	b := bc.b
	var text strings.Builder
	for i, src := range b.sdl.sources {
		if i > 0 && !strings.HasSuffix(text.String(), "\n") {
			text.WriteByte('\n')
		}
		text.WriteString(src.Input)
	}
	s, err := gqlparser.LoadSchema(b.sdl.sources...)
	if err != nil {
		var list gqlerror.List
		var one *gqlerror.Error
		switch {
		case errors.As(err, &list):
		case errors.As(err, &one):
			list = gqlerror.List{one}
		default:
			list = gqlerror.List{gqlerror.Wrap(err)}
		}
		for _, e := range list {
			be := &BuildError{Message: "the SDL does not load: " + e.Message}
			if len(e.Locations) > 0 {
				be.Line, be.Column = e.Locations[0].Line, e.Locations[0].Column
			}
			if f, ok := e.Extensions["file"].(string); ok {
				be.File = f
			}
			bc.errs = append(bc.errs, be)
		}
		return false
	}
	sb := &sdlBind{s: s, text: text.String(), pendingObjects: map[string]*typeInfo{}, pendingInputs: map[string]*typeInfo{}, pendingEnums: map[string]*typeInfo{}}
	bc.sdl = sb
	if s.Directives[CacheControlDirective] != nil && !slices.ContainsFunc(b.directives, func(d *DirectiveDef) bool { return d.Name == CacheControlDirective }) {
		// The document applies cache hints itself: graft gives them
		// their meaning.
		b.declareCacheControlTypes()
	}
	for _, d := range s.Types {
		if d.Position != nil && d.Position.Src != nil && !d.Position.Src.BuiltIn {
			sb.defs = append(sb.defs, d)
		}
	}
	slices.SortFunc(sb.defs, func(x, y *ast.Definition) int { return comparePos(b.sdl.sources, x.Position, y.Position) })

	// The root types take the document's names.
	roots := []struct {
		def  *ast.Definition
		name string
		slot **objectDecl
	}{{s.Query, "Query", &b.query}, {s.Mutation, "Mutation", &b.mutation}, {s.Subscription, "Subscription", &b.subscription}}
	for _, r := range roots {
		switch {
		case r.def != nil:
			b.rootObject(r.name).name = r.def.Name
		case *r.slot != nil:
			for _, fd := range (*r.slot).fields {
				bc.errorf((*r.slot).name, fd.name, "a resolver for a field of the %s type, which the SDL does not define", strings.ToLower(r.name))
			}
			b.objects = slices.DeleteFunc(b.objects, func(d *objectDecl) bool { return d == *r.slot })
			*r.slot = nil
		}
	}

	for _, def := range sb.defs {
		switch def.Kind {
		case ast.Object:
			if def == s.Query || def == s.Mutation || def == s.Subscription {
				continue
			}
			for _, d := range b.objects {
				if d.name == def.Name && !d.root {
					d.opts.implements = bc.sdlNames(def.Name, "implements", d.opts.implements, def.Interfaces)
				}
			}
		case ast.Interface:
			d := findAbstract(b.interfaces, def.Name)
			if d == nil {
				bc.errorf(def.Name, "", "interface %s has no Go type; declare it with schema.Interface", def.Name)
				continue
			}
			d.opts.implements = bc.sdlNames(def.Name, "implements", d.opts.implements, def.Interfaces)
			if len(d.fields) == 0 {
				for _, f := range def.Fields {
					if !strings.HasPrefix(f.Name, "__") {
						fd := &fieldDecl{name: f.Name, gqlType: f.Type.String()}
						for _, a := range f.Arguments {
							ad := argDecl{name: a.Name, gqlType: a.Type.String()}
							if a.DefaultValue != nil {
								ad.opts.defaultLit, ad.opts.hasDefault = a.DefaultValue.String(), true
							}
							fd.opts.args = append(fd.opts.args, ad)
						}
						d.fields = append(d.fields, fd)
					}
				}
			}
		case ast.Union:
			d := findAbstract(b.unions, def.Name)
			if d == nil {
				bc.errorf(def.Name, "", "union %s has no Go type; declare it with schema.Union", def.Name)
				continue
			}
			d.members = bc.sdlNames(def.Name, "has member", d.members, def.Types)
		case ast.Enum:
			d := findEnum(b.enums, def.Name)
			if d == nil {
				continue // bound to a Go string type met at its place (sdlRegister)
			}
			for _, v := range def.EnumValues {
				if !slices.ContainsFunc(d.values, func(ev *EnumValue) bool { return ev.Name == v.Name }) {
					bc.errorf(def.Name, v.Name, "enum value %s has no Go value; add it to schema.Enum", v.Name)
				}
			}
			for _, ev := range d.values {
				if def.EnumValues.ForName(ev.Name) == nil {
					bc.errorf(def.Name, "", "Go declares enum value %s, which the SDL does not define", ev.Name)
				}
			}
		case ast.Scalar:
			if builtinScalars[def.Name] || def.Name == "DateTime" || def.Name == uploadScalar || slices.ContainsFunc(b.scalars, func(d *scalarDecl) bool { return d.name == def.Name }) {
				continue
			}
			bc.errorf(def.Name, "", "custom scalar %s has no Go type; declare it with schema.Scalar", def.Name)
		}
	}
	for _, d := range b.interfaces {
		bc.sdlDeclaredOnly(d.name, ast.Interface, "schema.Interface")
	}
	for _, d := range b.unions {
		bc.sdlDeclaredOnly(d.name, ast.Union, "schema.Union")
	}
	for _, d := range b.enums {
		bc.sdlDeclaredOnly(d.name, ast.Enum, "schema.Enum")
	}
	for _, d := range b.scalars {
		if def := s.Types[d.name]; def == nil && b.supplied[d.name] {
			sb.extraTypes = append(sb.extraTypes, d.name)
		} else if def == nil || def.Kind != ast.Scalar {
			bc.errorf(d.name, "", "schema.Scalar declares %s, which the SDL does not define as a scalar", d.name)
		}
	}
	for _, d := range b.inputs {
		bc.sdlDeclaredOnly(d.name, ast.InputObject, "schema.Input")
	}
	for _, d := range b.objects {
		if !d.root {
			bc.sdlDeclaredOnly(d.name, ast.Object, "schema.Object")
		}
	}
	bc.sdlDirectives()
	return true
}

// sdlDeclaredOnly reports a declaration of a type the document does not
// define as a type of that kind.
func (bc *build) sdlDeclaredOnly(name string, kind ast.DefinitionKind, decl string) {
	def := bc.sdl.s.Types[name]
	if def == nil && bc.b.supplied[name] {
		bc.sdl.extraTypes = append(bc.sdl.extraTypes, name)
		return
	}
	if def == nil || def.Kind != kind {
		bc.errorf(name, "", "%s declares %s, which the SDL does not define as %s", decl, name, strings.ToLower(string(kind)))
	}
}

// sdlNames returns the document's list of names (interfaces implemented,
// union members), reporting a declared list that differs from it.
func (bc *build) sdlNames(typeName, verb string, declared, doc []string) []string {
	if len(declared) > 0 {
		for _, n := range declared {
			if !slices.Contains(doc, n) {
				bc.errorf(typeName, "", "Go declares that %s %s %s, but the SDL does not", typeName, verb, n)
			}
		}
		for _, n := range doc {
			if !slices.Contains(declared, n) {
				bc.errorf(typeName, "", "the SDL says %s %s %s, but the Go declaration does not", typeName, verb, n)
			}
		}
	}
	return append([]string(nil), doc...)
}

func findAbstract(list []*abstractDecl, name string) *abstractDecl {
	for _, d := range list {
		if d.name == name {
			return d
		}
	}
	return nil
}

func findEnum(list []*enumDecl, name string) *enumDecl {
	for _, d := range list {
		if d.name == name {
			return d
		}
	}
	return nil
}

// sdlDirectives checks the directives the builder declares against the
// document's definitions, and declares the document's other directives
// (with no Go function) so the schema knows them.
func (bc *build) sdlDirectives() {
	b := bc.b
	for _, d := range b.directives {
		if dd := bc.sdl.s.Directives[d.Name]; dd != nil && !builtinPos(dd.Position) {
			continue
		}
		if b.supplied["@"+d.Name] {
			bc.sdl.extraDirectives = append(bc.sdl.extraDirectives, d.Name)
			continue
		}
		bc.errorf("", "", "DeclareDirective declares @%s, which the SDL does not define", d.Name)
	}
	for _, dd := range bc.sdl.s.Directives {
		if builtinPos(dd.Position) {
			continue
		}
		var declared *DirectiveDef
		for _, d := range b.directives {
			if d.Name == dd.Name {
				declared = d
			}
		}
		locs := make([]DirectiveLocation, len(dd.Locations))
		for i, l := range dd.Locations {
			locs[i] = DirectiveLocation(l)
		}
		args := formatArgDefs(dd.Arguments)
		if declared == nil {
			b.directives = append(b.directives, &DirectiveDef{Name: dd.Name, Description: dd.Description,
				Args: args, Locations: locs, Repeatable: dd.IsRepeatable})
			continue
		}
		if !sameLocations(declared.Locations, locs) {
			bc.errorf("", "", "directive @%s: Go declares locations %s, the SDL %s", dd.Name, joinLocations(declared.Locations), joinLocations(locs))
			bc.errs[len(bc.errs)-1].setPos(dd.Position)
		}
		if normalizeArgDefs(declared.Args) != args {
			bc.errorf("", "", "directive @%s: Go declares arguments (%s), the SDL (%s)", dd.Name, declared.Args, args)
			bc.errs[len(bc.errs)-1].setPos(dd.Position)
		}
		declared.Description = dd.Description
	}
}

func sameLocations(a, b []DirectiveLocation) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func joinLocations(locs []DirectiveLocation) string {
	s := make([]string, len(locs))
	for i, l := range locs {
		s[i] = string(l)
	}
	return strings.Join(s, " | ")
}

// formatArgDefs prints argument definitions as DirectiveDef.Args does.
func formatArgDefs(args ast.ArgumentDefinitionList) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Name + ": " + a.Type.String()
		if a.DefaultValue != nil {
			parts[i] += " = " + a.DefaultValue.String()
		}
	}
	return strings.Join(parts, ", ")
}

// normalizeArgDefs reprints argument definitions written in SDL, so that
// spacing does not count as a difference.
func normalizeArgDefs(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	doc, err := gqlparser.LoadSchema(&ast.Source{Input: "directive @x(" + s + ") on FIELD_DEFINITION\ntype Query { x: Int }"})
	if err != nil {
		return s
	}
	return formatArgDefs(doc.Directives["x"].Arguments)
}

// sdlRegister creates the named types of the document's object and input
// types that no declaration names, and the DateTime scalar when the
// document defines it. It runs after register.
func (bc *build) sdlRegister() {
	for _, def := range bc.sdl.defs {
		if bc.names[def.Name] != nil {
			continue
		}
		switch def.Kind {
		case ast.Object:
			ti := &typeInfo{t: &Type{Kind: ObjectKind, Name: def.Name}, obj: &objectDecl{name: def.Name, auto: true}}
			bc.names[def.Name] = ti
			bc.sdl.pendingObjects[def.Name] = ti
		case ast.InputObject:
			ti := &typeInfo{t: &Type{Kind: InputObjectKind, Name: def.Name}, input: &inputDecl{name: def.Name, auto: true}}
			bc.names[def.Name] = ti
			bc.sdl.pendingInputs[def.Name] = ti
		case ast.Enum:
			var values []*EnumValue
			for _, v := range def.EnumValues {
				values = append(values, &EnumValue{Name: v.Name})
			}
			ti := &typeInfo{t: &Type{Kind: EnumKind, Name: def.Name, EnumValues: values}, enum: &enumDecl{name: def.Name, values: values}}
			bc.names[def.Name] = ti
			bc.sdl.pendingEnums[def.Name] = ti
		case ast.Scalar:
			switch def.Name {
			case "DateTime":
				bc.dateTime()
			case uploadScalar:
				if _, err := bc.upload(); err != nil {
					bc.errorf(def.Name, "", "%v", err)
				}
			}
		}
	}
}

// sdlBindObject makes the Go struct gt the Go type of t when t is an
// object type of the document still waiting for one.
func (bc *build) sdlBindObject(t *Type, gt reflect.Type) bool {
	if bc.sdl == nil || gt.Kind() != reflect.Struct || bc.outByGo[gt] != nil {
		return false
	}
	ti := bc.sdl.pendingObjects[t.Name]
	if ti == nil || ti.t != t {
		return false
	}
	delete(bc.sdl.pendingObjects, t.Name)
	ti.obj.goType, t.GoType = gt, gt
	bc.outByGo[gt] = ti
	bc.objects = append(bc.objects, ti)
	bc.link(t, bc.sdl.def(t.Name).Interfaces)
	return true
}

// sdlBindInput makes the Go struct gt the Go type of t when t is an input
// type of the document still waiting for one.
func (bc *build) sdlBindInput(t *Type, gt reflect.Type) bool {
	if bc.sdl == nil || gt.Kind() != reflect.Struct || bc.inByGo[gt] != nil {
		return false
	}
	ti := bc.sdl.pendingInputs[t.Name]
	if ti == nil || ti.t != t {
		return false
	}
	delete(bc.sdl.pendingInputs, t.Name)
	ti.input.goType, t.GoType = gt, gt
	bc.inByGo[gt] = ti
	bc.inputs = append(bc.inputs, ti)
	return true
}

// sdlCheck compares the built types with the document, reporting every
// difference, and gives the model the document's order, descriptions,
// deprecations and applied directives.
func (bc *build) sdlCheck() {
	sb := bc.sdl
	for _, def := range sb.defs {
		ti := bc.names[def.Name]
		if ti == nil {
			continue
		}
		t := ti.t
		t.Description = def.Description
		switch def.Kind {
		case ast.Object, ast.Interface:
			if sb.pendingObjects[def.Name] != nil {
				bc.errorf(def.Name, "", "no Go type is bound to object type %s: no resolver or struct field returns a Go struct at its place; declare it with schema.Object", def.Name)
				continue
			}
			if t.Kind != ObjectKind && t.Kind != InterfaceKind || t.fieldIndex == nil {
				continue
			}
			t.Directives = mergeApplied(t.Directives, def.Directives)
			bc.sdlCheckFields(t, def)
		case ast.Enum:
			if sb.pendingEnums[def.Name] != nil {
				bc.errorf(def.Name, "", "no Go type is bound to enum %s: no field or argument of a named Go string type is at its place; declare it with schema.Enum", def.Name)
				continue
			}
			if t.Kind != EnumKind {
				continue
			}
			values := make([]*EnumValue, 0, len(def.EnumValues))
			for _, v := range def.EnumValues {
				ev := &EnumValue{Name: v.Name, Description: v.Description}
				ev.Deprecated, ev.DeprecationReason = sdlDeprecation(v.Directives)
				values = append(values, ev)
			}
			t.EnumValues = values
		case ast.InputObject:
			if sb.pendingInputs[def.Name] != nil {
				bc.errorf(def.Name, "", "no Go type is bound to input type %s: no argument holds a Go struct at its place; declare it with schema.Input", def.Name)
				continue
			}
			if t.Kind != InputObjectKind {
				continue
			}
			t.InputFields = bc.sdlCheckArgs(def.Name, "", t.InputFields, inputArgDefs(def.Fields))
		case ast.Scalar:
			if t.Kind == ScalarKind {
				if d := def.Directives.ForName("specifiedBy"); d != nil {
					if u := d.Arguments.ForName("url"); u != nil {
						t.SpecifiedByURL = u.Value.Raw
					}
				}
			}
		}
	}
}

func inputArgDefs(fields ast.FieldList) ast.ArgumentDefinitionList {
	out := make(ast.ArgumentDefinitionList, len(fields))
	for i, f := range fields {
		out[i] = &ast.ArgumentDefinition{Name: f.Name, Type: f.Type, DefaultValue: f.DefaultValue, Description: f.Description, Directives: f.Directives, Position: f.Position}
	}
	return out
}

// sdlCheckFields compares the fields of an object or interface with the
// document and puts them in its order.
func (bc *build) sdlCheckFields(t *Type, def *ast.Definition) {
	fields := make([]*Field, 0, len(def.Fields))
	for _, fd := range def.Fields {
		if strings.HasPrefix(fd.Name, "__") {
			continue
		}
		f := t.Field(fd.Name)
		if f == nil {
			switch {
			case bc.reported(t.Name, fd.Name):
				// Its binding failed, and said why.
			case t.Kind == ObjectKind && t.GoType == nil:
				bc.errorf(t.Name, fd.Name, "no resolver for %s: %s", fd.Name, fd.Type)
			case t.Kind == ObjectKind:
				bc.errorf(t.Name, fd.Name, "no resolver or struct field for %s: %s (Go type %s)", fd.Name, fd.Type, t.GoType)
			default:
				bc.errorf(t.Name, fd.Name, "the Go declaration of interface %s has no field %s", t.Name, fd.Name)
			}
			continue
		}
		if got := f.Type.String(); got != fd.Type.String() {
			bc.errorf(t.Name, fd.Name, "the Go binding has type %s, the SDL %s", got, fd.Type)
		}
		f.Description = fd.Description
		f.Deprecated, f.DeprecationReason = sdlDeprecation(fd.Directives)
		f.Directives = mergeApplied(f.Directives, fd.Directives)
		f.Args = bc.sdlCheckArgs(t.Name, fd.Name, f.Args, fd.Arguments)
		fields = append(fields, f)
	}
	for _, f := range t.Fields {
		if def.Fields.ForName(f.Name) == nil {
			bc.errorf(t.Name, f.Name, "a resolver for a field the SDL does not define")
		}
	}
	t.Fields = fields
}

// reported reports whether an error names the field or one of its
// arguments.
func (bc *build) reported(typeName, field string) bool {
	return slices.ContainsFunc(bc.errs, func(e *BuildError) bool {
		return e.Type == typeName && (e.Field == field || strings.HasPrefix(e.Field, field+"("))
	})
}

// sdlCheckArgs compares arguments (or input fields) with the document's
// definitions and returns them in the document's order.
func (bc *build) sdlCheckArgs(typeName, field string, got []*Argument, want ast.ArgumentDefinitionList) []*Argument {
	where := func(name string) string {
		if field == "" {
			return name
		}
		return field + "(" + name + ")"
	}
	out := make([]*Argument, 0, len(want))
	for _, wa := range want {
		i := slices.IndexFunc(got, func(a *Argument) bool { return a.Name == wa.Name })
		if i < 0 {
			what := "argument struct"
			if field == "" {
				what = "input struct"
			}
			bc.errorf(typeName, where(wa.Name), "%s: %s has no field in the Go %s", wa.Name, wa.Type, what)
			continue
		}
		a := got[i]
		if a.Type.String() != wa.Type.String() {
			bc.errorf(typeName, where(wa.Name), "the Go binding has type %s, the SDL %s", a.Type, wa.Type)
		}
		if a.DefaultValue != nil && (wa.DefaultValue == nil || a.DefaultValue.String() != wa.DefaultValue.String()) {
			bc.errorf(typeName, where(wa.Name), "the Go default %s differs from the SDL's", a.DefaultValue)
		}
		a.DefaultValue = wa.DefaultValue
		a.Description = wa.Description
		a.Deprecated, a.DeprecationReason = sdlDeprecation(wa.Directives)
		a.Directives = mergeApplied(a.Directives, wa.Directives)
		out = append(out, a)
	}
	for _, a := range got {
		if want.ForName(a.Name) == nil {
			what := "argument"
			if field == "" {
				what = "input field"
			}
			bc.errorf(typeName, where(a.Name), "the Go %s %s is not in the SDL", what, a.Name)
		}
	}
	return out
}

// sdlDeprecation reads @deprecated from applied directives.
func sdlDeprecation(ds ast.DirectiveList) (bool, string) {
	d := ds.ForName("deprecated")
	if d == nil {
		return false, ""
	}
	if r := d.Arguments.ForName("reason"); r != nil && r.Value != nil {
		return true, r.Value.Raw
	}
	return true, DefaultDeprecationReason
}

// mergeApplied adds the directives the document applies to those the
// declarations apply, skipping @deprecated and @specifiedBy (which the
// model holds in their own fields) and names already applied.
func mergeApplied(have []AppliedDirective, doc ast.DirectiveList) []AppliedDirective {
	for _, d := range doc {
		if d.Name == "deprecated" || d.Name == "specifiedBy" {
			continue
		}
		if slices.ContainsFunc(have, func(a AppliedDirective) bool { return a.Name == d.Name }) {
			continue
		}
		args := make([]string, len(d.Arguments))
		for i, a := range d.Arguments {
			args[i] = a.Name + ": " + a.Value.String()
		}
		have = append(have, AppliedDirective{Name: d.Name, Args: strings.Join(args, ", ")})
	}
	return have
}

// sdlPositions gives each error the position of what it names in the
// document, and sorts the errors by position (those with none first).
func (bc *build) sdlPositions() {
	if bc.sdl == nil {
		return
	}
	for _, e := range bc.errs {
		if e.Line != 0 || e.Type == "" {
			continue
		}
		e.setPos(bc.sdl.position(e.Type, e.Field))
	}
	sources := bc.b.sdl.sources
	slices.SortStableFunc(bc.errs, func(x, y *BuildError) int {
		if c := cmp.Compare(sourceIndex(sources, x.File), sourceIndex(sources, y.File)); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Line, y.Line); c != 0 {
			return c
		}
		return cmp.Compare(x.Column, y.Column)
	})
}

// position finds the document position of a type, a field, an argument
// ("field(arg)") or an enum value.
func (sb *sdlBind) position(typeName, field string) *ast.Position {
	d := sb.def(typeName)
	if d == nil {
		return nil
	}
	if field == "" {
		return d.Position
	}
	arg := ""
	if i := strings.IndexByte(field, '('); i > 0 && strings.HasSuffix(field, ")") {
		field, arg = field[:i], field[i+1:len(field)-1]
	}
	if f := d.Fields.ForName(field); f != nil {
		if arg != "" {
			if a := f.Arguments.ForName(arg); a != nil {
				return a.Position
			}
		}
		return f.Position
	}
	if v := d.EnumValues.ForName(field); v != nil {
		return v.Position
	}
	return d.Position
}

func (e *BuildError) setPos(p *ast.Position) {
	if p == nil {
		return
	}
	e.Line, e.Column = p.Line, p.Column
	if p.Src != nil {
		e.File = p.Src.Name
	}
}

func sourceIndex(sources []*ast.Source, name string) int {
	if name == "" {
		return -1
	}
	for i, s := range sources {
		if s.Name == name {
			return i
		}
	}
	return len(sources)
}

func comparePos(sources []*ast.Source, x, y *ast.Position) int {
	if c := cmp.Compare(slices.Index(sources, x.Src), slices.Index(sources, y.Src)); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Line, y.Line); c != 0 {
		return c
	}
	return cmp.Compare(x.Column, y.Column)
}

// sdlRootDefinition prints the schema definition a model needs when its
// root types are not named Query, Mutation and Subscription.
func sdlRootDefinition(s *Schema) string {
	custom := s.Query.Name != "Query" || s.Mutation != nil && s.Mutation.Name != "Mutation" ||
		s.Subscription != nil && s.Subscription.Name != "Subscription"
	if !custom {
		return ""
	}
	out := "schema {\n  query: " + s.Query.Name + "\n"
	if s.Mutation != nil {
		out += "  mutation: " + s.Mutation.Name + "\n"
	}
	if s.Subscription != nil {
		out += "  subscription: " + s.Subscription.Name + "\n"
	}
	return out + "}\n\n"
}

// Supplied records that the named types and directives ("@name") are
// declared by graft itself for one of its features (the @cacheControl
// directive and its scope enum, for example) rather than by the
// application. A schema-first build accepts them when the document does
// not define them: they join the schema, and its SDL, after the document.
func (b *Builder) Supplied(names ...string) {
	if b.supplied == nil {
		b.supplied = map[string]bool{}
	}
	for _, n := range names {
		b.supplied[n] = true
	}
}

// sdlText returns the schema's SDL: the document as given, then the
// supplied definitions it lacks.
func (sb *sdlBind) sdlText(s *Schema) string {
	if len(sb.extraTypes) == 0 && len(sb.extraDirectives) == 0 {
		return sb.text
	}
	var w strings.Builder
	w.WriteString(sb.text)
	if !strings.HasSuffix(sb.text, "\n") {
		w.WriteByte('\n')
	}
	for _, name := range sb.extraTypes {
		w.WriteByte('\n')
		printType(&w, s.Type(name), s.inSchemaSDL)
	}
	var defs []*DirectiveDef
	for _, name := range sb.extraDirectives {
		defs = append(defs, s.Directive(name))
	}
	printDirectiveDefs(&w, defs, false, false)
	return w.String()
}

// nilable reports whether a Go value of type gt can hold null.
func nilable(gt reflect.Type) bool {
	switch gt.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// builtinPos reports whether a definition comes from gqlparser's prelude
// rather than from the document.
func builtinPos(p *ast.Position) bool {
	return p == nil || p.Src == nil || p.Src.BuiltIn
}

// sdlBindEnum makes the named Go string type gt the Go type of an enum of
// the document still waiting for one: its values are the enum values'
// names.
func (bc *build) sdlBindEnum(ti *typeInfo, gt reflect.Type) bool {
	if bc.sdl == nil || bc.sdl.pendingEnums[ti.t.Name] != ti || gt.Kind() != reflect.String ||
		gt.PkgPath() == "" || gt == idType || bc.outByGo[gt] != nil {
		return false
	}
	delete(bc.sdl.pendingEnums, ti.t.Name)
	d := ti.enum
	d.goType, ti.t.GoType = gt, gt
	bc.outByGo[gt] = ti
	quoted := make(map[string]string, len(d.values))
	for _, v := range d.values {
		quoted[v.Name] = `"` + v.Name + `"`
	}
	name := d.name
	d.write = func(buf []byte, p unsafe.Pointer) ([]byte, error) {
		v := *(*string)(p)
		if q, ok := quoted[v]; ok {
			return append(buf, q...), nil
		}
		return buf, fmt.Errorf("enum %s cannot represent value %q", name, v)
	}
	d.set = func(p unsafe.Pointer, n string) bool {
		if _, ok := quoted[n]; !ok {
			return false
		}
		*(*string)(p) = n
		return true
	}
	return true
}
