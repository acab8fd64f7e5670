package schemadef

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// typeInfo ties a built type to its declaration.
type typeInfo struct {
	t        *Type
	obj      *objectDecl
	abstract *abstractDecl
	enum     *enumDecl
	scalar   *scalarDecl
	input    *inputDecl
	info     *abstractInfo
	compiled *inputCompiled // input objects
}

// build is the state of one Builder.Build run.
type build struct {
	b     *Builder
	errs  []*BuildError
	names map[string]*typeInfo
	// outByGo maps Go types to the output types made from them: objects,
	// interfaces, unions, enums and custom scalars.
	outByGo map[reflect.Type]*typeInfo
	// inByGo maps Go struct types to input objects.
	inByGo map[reflect.Type]*typeInfo

	objects []*typeInfo // in registration order, auto-registered ones appended
	inputs  []*typeInfo

	// deferred holds checks that need every type built (defaults).
	deferred []func()

	// sdl binds a schema-first build to its documents (sdlbind.go).
	sdl *sdlBind
}

var (
	timeType = reflect.TypeFor[time.Time]()
	idType   = reflect.TypeFor[ID]()
	anyType  = reflect.TypeFor[any]()
)

func (bc *build) errorf(typeName, field, format string, args ...any) {
	bc.errs = append(bc.errs, newBuildError(typeName, field, format, args...))
}

// Build checks the declarations and builds the schema. The error, when
// not nil, joins one *BuildError per mistake found.
func (b *Builder) Build() (*Schema, error) {
	b.declareCacheControl() // cachehint.go
	bc := &build{
		b:       b,
		errs:    append([]*BuildError(nil), b.errs...),
		names:   map[string]*typeInfo{},
		outByGo: map[reflect.Type]*typeInfo{},
		inByGo:  map[reflect.Type]*typeInfo{},
	}
	for _, name := range []string{"Boolean", "Float", "ID", "Int", "String"} {
		bc.names[name] = &typeInfo{t: &Type{Kind: ScalarKind, Name: name}}
	}
	if b.sdl != nil && !bc.sdlPrepare() {
		bc.sdlPositions()
		return nil, bc.joined()
	}
	bc.register()
	if bc.sdl != nil {
		bc.sdlRegister()
	} else if b.query == nil || len(b.query.fields) == 0 {
		bc.errorf("Query", "", "the schema has no Query fields; add one with schema.Query or schema.QueryNoArgs")
	}
	bc.linkInterfaces()
	for i := 0; i < len(bc.objects); i++ {
		bc.buildObject(bc.objects[i])
	}
	bc.buildAbstracts()
	for i := 0; i < len(bc.inputs); i++ {
		bc.buildInput(bc.inputs[i])
	}
	bc.checkImplementations()
	bc.finishAbstracts()
	if bc.sdl != nil {
		bc.sdlCheck()
	}
	for _, check := range bc.deferred {
		check()
	}
	if len(bc.errs) > 0 {
		bc.sdlPositions()
		return nil, bc.joined()
	}
	s := bc.schema()
	if err := bc.applyDirectives(s); err != nil {
		return nil, err
	}
	s.sdl = printSDL(s)
	doc, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: s.sdl})
	if err != nil {
		return nil, errors.Join(newBuildError("", "", "the printed SDL does not load: %v", err))
	}
	extendIntrospection(doc)
	s.ast = doc
	if bc.sdl != nil {
		s.sdl = bc.sdl.sdlText(s) // the document given, as given
	}
	return s, nil
}

func (bc *build) joined() error {
	errs := make([]error, len(bc.errs))
	for i, e := range bc.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// addType registers a named type, reporting bad and duplicate names.
func (bc *build) addType(ti *typeInfo) bool {
	name := ti.t.Name
	switch {
	case !validName(name):
		bc.errorf(name, "", "%q is not a valid GraphQL type name", name)
		return false
	case strings.HasPrefix(name, "__"):
		bc.errorf(name, "", "names starting with __ are reserved for introspection")
		return false
	case bc.names[name] != nil:
		bc.errorf(name, "", "duplicate type name %q", name)
		return false
	}
	bc.names[name] = ti
	return true
}

func (bc *build) addOutGo(ti *typeInfo, gt reflect.Type) {
	if prev := bc.outByGo[gt]; prev != nil {
		bc.errorf(ti.t.Name, "", "Go type %s is already the Go type of %s", gt, prev.t.Name)
		return
	}
	bc.outByGo[gt] = ti
}

// register creates the named types of all declarations.
func (bc *build) register() {
	b := bc.b
	for _, d := range b.objects {
		ti := &typeInfo{t: &Type{Kind: ObjectKind, Name: d.name, Description: d.opts.description, GoType: d.goType, Directives: d.opts.directives}, obj: d}
		if d.root {
			ti.t.GoType = nil
		}
		if !d.root && (d.name == "Query" || d.name == "Mutation" || d.name == "Subscription") {
			bc.errorf(d.name, "", "the name %s is reserved for the root type; add root fields with schema.%s", d.name, d.name)
			continue
		}
		if !bc.addType(ti) {
			continue
		}
		if !d.root && d.goType.Kind() == reflect.Struct {
			bc.addOutGo(ti, d.goType)
		}
		bc.objects = append(bc.objects, ti)
	}
	for _, list := range [][]*abstractDecl{b.interfaces, b.unions} {
		for _, d := range list {
			kind := InterfaceKind
			if d.union {
				kind = UnionKind
			}
			ti := &typeInfo{t: &Type{Kind: kind, Name: d.name, Description: d.opts.description, GoType: d.goType, RawTypeKey: d.opts.rawTypeKey, Directives: d.opts.directives}, abstract: d}
			ti.info = &abstractInfo{t: ti.t, override: d.opts.resolveType,
				byGo: map[reflect.Type]*concreteType{}, byName: map[string]*concreteType{}}
			if bc.addType(ti) && d.goType.Kind() == reflect.Interface && d.goType != anyType {
				bc.addOutGo(ti, d.goType)
			}
		}
	}
	for _, d := range b.enums {
		ti := &typeInfo{t: &Type{Kind: EnumKind, Name: d.name, Description: d.opts.description, GoType: d.goType, EnumValues: d.values}, enum: d}
		if bc.addType(ti) {
			bc.addOutGo(ti, d.goType)
		}
		if len(d.values) == 0 {
			bc.errorf(d.name, "", "an enum needs at least one value")
		}
		seen := map[string]bool{}
		for _, v := range d.values {
			switch {
			case !validName(v.Name) || v.Name == "true" || v.Name == "false" || v.Name == "null":
				bc.errorf(d.name, v.Name, "%q is not a valid enum value name", v.Name)
			case seen[v.Name]:
				bc.errorf(d.name, v.Name, "duplicate enum value %q", v.Name)
			}
			seen[v.Name] = true
		}
	}
	for _, d := range b.scalars {
		ti := &typeInfo{t: &Type{Kind: ScalarKind, Name: d.name, Description: d.opts.description,
			SpecifiedByURL: d.opts.specifiedBy, GoType: d.goType, checkInput: d.check}, scalar: d}
		if bc.addType(ti) {
			bc.addOutGo(ti, d.goType)
		}
	}
	for _, d := range b.inputs {
		ti := &typeInfo{t: &Type{Kind: InputObjectKind, Name: d.name, Description: d.opts.description, GoType: d.goType}, input: d}
		if !bc.addType(ti) {
			continue
		}
		if prev := bc.inByGo[d.goType]; prev != nil {
			bc.errorf(d.name, "", "Go type %s is already the Go type of %s", d.goType, prev.t.Name)
			continue
		}
		bc.inByGo[d.goType] = ti
		bc.inputs = append(bc.inputs, ti)
	}
}

// dateTime returns the DateTime scalar, adding it on first use.
func (bc *build) dateTime() *Type {
	if ti := bc.names["DateTime"]; ti != nil {
		return ti.t
	}
	t := &Type{Kind: ScalarKind, Name: "DateTime", GoType: timeType,
		Description:    "A date and time, represented as an RFC 3339 string.",
		SpecifiedByURL: "https://scalars.graphql.org/andimarek/date-time", checkInput: checkDateTime}
	bc.names["DateTime"] = &typeInfo{t: t}
	return t
}

// schema assembles the Schema from the built types.
func (bc *build) schema() *Schema {
	s := &Schema{typeIndex: map[string]*Type{}}
	for name, ti := range bc.names {
		s.typeIndex[name] = ti.t
		s.Types = append(s.Types, ti.t)
	}
	slices.SortFunc(s.Types, func(a, b *Type) int { return strings.Compare(a.Name, b.Name) })
	s.Query = s.typeIndex[bc.b.query.name]
	s.Directives = bc.b.directiveDefs()
	s.DocumentDirectives = bc.b.docDirectives
	if bc.b.mutation != nil {
		s.Mutation = s.typeIndex[bc.b.mutation.name]
	}
	if bc.b.subscription != nil {
		s.Subscription = s.typeIndex[bc.b.subscription.name]
	}
	return s
}
