// Package gqlgen serves a gqlgen project with graft, without gqlgen's
// generated code: the project's gqlgen.yml and schema files, its model
// structs and its resolver structs, whose method sets are those of the
// QueryResolver, MutationResolver and XxxResolver interfaces gqlgen
// generates. Load binds them by reflection, once: the schema files are
// the type system (see graft's docs/schema-first.md), each resolver method
// becomes a field whose Go function is called through reflection, and
// every other field reads its model's struct field directly.
//
// What it binds: object types, root types (custom names included),
// resolver methods with arguments (in the order of the SDL, as gqlgen
// passes them), subscription methods returning a receive-only channel,
// plain struct fields and methods of the models, input objects, enums
// whose models are named string types, interfaces and unions whose Go
// interface types appear in resolver signatures, custom scalars whose
// models have MarshalGQL and UnmarshalGQL methods or whose MarshalX and
// UnmarshalX functions are given (Scalar), directive functions of
// gqlgen's DirectiveRoot shape (Directive), and the `models:` entries of
// gqlgen.yml with @goModel and @goField, checked against the Go types
// bound (Build). graphql.AddError, GetFieldContext and
// GetOperationContext answer in bound resolvers, with what graft knows;
// see graft's docs/gqlgen.md for what they cannot give.
package gqlgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"unicode"
	"unsafe"

	"github.com/goccy/go-yaml"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

// config is the part of gqlgen.yml Load reads.
type config struct {
	Schema yamlStrings           `yaml:"schema"`
	Models map[string]modelEntry `yaml:"models"`
}

type modelEntry struct {
	Model  yamlStrings           `yaml:"model"`
	Fields map[string]fieldEntry `yaml:"fields"`
}

// yamlStrings is a YAML string or list of strings.
type yamlStrings []string

func (s *yamlStrings) UnmarshalYAML(b []byte) error {
	var one string
	if err := yaml.Unmarshal(b, &one); err == nil {
		*s = []string{one}
		return nil
	}
	var many []string
	if err := yaml.Unmarshal(b, &many); err != nil {
		return err
	}
	*s = many
	return nil
}

// Project is a gqlgen project bound to graft by Load.
type Project struct {
	// Builder holds the schema-first declarations. Typed bindings added
	// to it before Build (schema.Query, schema.FieldFunc, ... for a field
	// of the project's schema) replace the reflective binding of that
	// field: they run at the speed of native graft.
	Builder *schema.Builder

	models map[string]modelEntry
	// binds are the reflective bindings of resolver methods, declared by
	// Build where no typed binding was given.
	binds []reflectBind
	// reflective names the fields Build bound by reflection.
	reflective []string
}

// reflectBind is the binding of one resolver method.
type reflectBind struct {
	typeName, role, field string
	declare               func()
}

// BuildOption configures Project.Build.
type BuildOption func(*buildOptions)

type buildOptions struct{ noReflection bool }

// NoReflection makes Build fail on any field still bound by reflection,
// naming each: every resolver method of the project then has a typed
// binding.
func NoReflection() BuildOption {
	return func(o *buildOptions) { o.noReflection = true }
}

// Load reads the gqlgen.yml at configFile and its schema files, and binds
// resolver, the project's root resolver (the value its generated code
// took as Config.Resolvers), to them. Options give what gqlgen's
// generated code took from elsewhere: Scalar for function-style scalars,
// Directive for the functions of its DirectiveRoot.
func Load(configFile string, resolver any, opts ...LoadOption) (*Project, error) {
	var lo loadOptions
	for _, opt := range opts {
		opt(&lo)
	}
	raw, err := os.ReadFile(configFile)
	if err != nil {
		return nil, fmt.Errorf("gqlgen: %w", err)
	}
	var cfg config
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("gqlgen: %s: %w", configFile, err)
	}
	if len(cfg.Schema) == 0 {
		cfg.Schema = []string{"schema.graphql"} // gqlgen's default
	}
	dir := filepath.Dir(configFile)
	var sources []*ast.Source
	for _, pattern := range cfg.Schema {
		names, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil || len(names) == 0 {
			return nil, fmt.Errorf("gqlgen: schema pattern %q matches no file", pattern)
		}
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("gqlgen: %w", err)
			}
			sources = append(sources, &ast.Source{Name: name, Input: string(src)})
		}
	}
	doc, gerr := gqlparser.LoadSchema(sources...)
	if gerr != nil {
		return nil, fmt.Errorf("gqlgen: %w", gerr)
	}
	b := schema.New()
	for _, s := range sources {
		b.SDL(s.Name, s.Input)
	}
	sd := schemadef.BuilderOf(b)
	p := &Project{Builder: b, models: cfg.Models}
	root := reflect.ValueOf(resolver)
	if !root.IsValid() {
		return nil, errors.New("gqlgen: the root resolver is nil")
	}
	roles := map[string]string{}
	for role, def := range map[string]*ast.Definition{"Query": doc.Query, "Mutation": doc.Mutation, "Subscription": doc.Subscription} {
		if def != nil {
			roles[def.Name] = role
		}
	}
	for _, declare := range lo.scalars {
		declare(p)
	}
	bound := map[string]*boundDirective{}
	for _, d := range lo.directives {
		bd, err := declareDirective(sd, doc, d)
		if err != nil {
			return nil, err
		}
		bound[d.name] = bd
	}
	if dd := documentDirectives(bound); dd != nil {
		sd.SetDocumentDirectives(dd)
	}
	declareAbstracts(sd, doc, root)
	declareScalars(sd, doc, root)
	for _, def := range doc.Types {
		if def.Kind != ast.Object || def.BuiltIn {
			continue
		}
		m := root.MethodByName(def.Name)
		if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
			continue // no XxxResolver: every field is a struct field
		}
		typeResolver := m.Call(nil)[0]
		if typeResolver.Kind() == reflect.Interface {
			typeResolver = typeResolver.Elem()
		}
		if !typeResolver.IsValid() {
			continue
		}
		role := roles[def.Name]
		for _, f := range def.Fields {
			method := typeResolver.MethodByName(goName(f.Name))
			if !method.IsValid() {
				continue
			}
			typeName, f := def.Name, f
			p.binds = append(p.binds, reflectBind{typeName: typeName, role: role, field: f.Name,
				declare: func() { bindField(sd, doc, typeName, role, f, method) }})
		}
	}
	p.bindModels(sd, doc, root)
	return p, nil
}

// bindModels applies @goModel, @goField and the `fields:` entries of
// gqlgen.yml, and binds the model methods that resolve fields, as gqlgen
// binds a method of the model before a struct field of the same name.
func (p *Project) bindModels(sd *schemadef.Builder, doc *ast.Schema, root reflect.Value) {
	if p.models == nil {
		p.models = map[string]modelEntry{}
	}
	for _, def := range doc.Types {
		if def.BuiltIn {
			continue
		}
		entry := p.models[def.Name]
		changed := false
		if d := def.Directives.ForName("goModel"); d != nil {
			if m, ok := directiveArg(def.Directives, "goModel", "model"); ok {
				entry.Model = append(entry.Model, m)
				changed = true
			}
			if a := d.Arguments.ForName("models"); a != nil && a.Value != nil {
				for _, c := range a.Value.Children {
					entry.Model = append(entry.Model, c.Value.Raw)
					changed = true
				}
			}
		}
		for _, f := range def.Fields {
			fe, had := entry.Fields[f.Name]
			if n, ok := directiveArg(f.Directives, "goField", "name"); ok {
				fe.FieldName = n
				had = true
			}
			if v, ok := directiveArg(f.Directives, "goField", "forceResolver"); ok && v == "true" {
				fe.Resolver = true
				had = true
			}
			if had {
				if entry.Fields == nil {
					entry.Fields = map[string]fieldEntry{}
				}
				entry.Fields[f.Name] = fe
				changed = true
			}
		}
		if changed {
			p.models[def.Name] = entry
		}
	}
	resolved := map[string]bool{}
	for _, rb := range p.binds {
		resolved[rb.typeName+"."+rb.field] = true
	}
	fieldName := func(typeName, field string) string {
		if n := p.models[typeName].Fields[field].FieldName; n != "" {
			return n
		}
		return goName(field)
	}
	for typeName, entry := range p.models {
		def := doc.Types[typeName]
		for field, fe := range entry.Fields {
			switch {
			case def == nil || def.Fields.ForName(field) == nil:
				sd.Errorf(typeName, field, "gqlgen.yml or @goField names field %s.%s, which the schema lacks", typeName, field)
			case fe.Resolver && !resolved[typeName+"."+field]:
				sd.Errorf(typeName, field, "%s.%s must have a resolver (resolver: true or @goField(forceResolver: true)), but the %s resolver has no method %s", typeName, field, typeName, goName(field))
			}
		}
	}
	types := modelTypes(doc, root, fieldName)
	for typeName, gt := range types {
		def := doc.Types[typeName]
		if def == doc.Query || def == doc.Mutation || def == doc.Subscription {
			continue
		}
		for _, f := range def.Fields {
			if resolved[typeName+"."+f.Name] {
				continue
			}
			target := fieldName(typeName, f.Name)
			explicit := target != goName(f.Name)
			if m, ok := reflect.PointerTo(gt).MethodByName(target); ok {
				typeName, f := typeName, f
				p.binds = append(p.binds, reflectBind{typeName: typeName, field: f.Name, declare: func() {
					if !bindModelMethod(sd, doc, typeName, gt, f, m) {
						sd.Errorf(typeName, f.Name, "model method %s.%s has type %s; gqlgen's shapes are func() R, func() (R, error), with ctx context.Context and the field's arguments after the receiver", gt.Name(), target, m.Type)
					}
				}})
				continue
			}
			if !explicit {
				continue // graft's naming rule finds the struct field
			}
			sf, ok := structField(gt, f.Name, target)
			if !ok {
				sd.Errorf(typeName, f.Name, "gqlgen.yml or @goField binds %s.%s to %s, which model %s has neither as field nor as method", typeName, f.Name, target, gt)
				continue
			}
			typeName, f := typeName, f
			p.binds = append(p.binds, reflectBind{typeName: typeName, field: f.Name, declare: func() {
				bindModelField(sd, typeName, gt, f, sf)
			}})
		}
	}
}

var (
	ctxType = reflect.TypeFor[context.Context]()
	errType = reflect.TypeFor[error]()
)

// bindField declares the field f of the object type typeName (of root
// role role, or "") resolved by the resolver method.
func bindField(sd *schemadef.Builder, doc *ast.Schema, typeName, role string, f *ast.FieldDefinition, method reflect.Value) {
	mt := method.Type()
	fail := func(format string, args ...any) { sd.Errorf(typeName, f.Name, format, args...) }
	want := "func(ctx context.Context"
	first := 1
	var parent reflect.Type
	if role == "" {
		want += ", obj *Model"
		first = 2
		if mt.NumIn() >= 2 && mt.In(1).Kind() == reflect.Pointer && mt.In(1).Elem().Kind() == reflect.Struct {
			parent = mt.In(1).Elem()
		}
	}
	for _, a := range f.Arguments {
		want += ", " + a.Name + " T"
	}
	want += ") (R, error)"
	if mt.NumIn() != first+len(f.Arguments) || mt.In(0) != ctxType || mt.NumOut() != 2 || mt.Out(1) != errType || role == "" && parent == nil {
		fail("resolver method %s has type %s; gqlgen's shape is %s", goName(f.Name), mt, want)
		return
	}
	var argType reflect.Type
	if len(f.Arguments) > 0 {
		fields := make([]reflect.StructField, len(f.Arguments))
		for i, a := range f.Arguments {
			fields[i] = reflect.StructField{Name: fmt.Sprintf("A%d", i), Type: mt.In(first + i), Tag: reflect.StructTag(`graphql:"` + a.Name + `"`)}
		}
		argType = reflect.StructOf(fields)
	}
	call := func(ctx context.Context, p, args unsafe.Pointer) (reflect.Value, error) {
		in := make([]reflect.Value, mt.NumIn())
		ctx = &gqlCtx{Context: ctx, info: fieldInfo{object: typeName, def: doc.Types[typeName], field: f, doc: doc,
			argType: argType, args: args, parentType: parent, parent: p}}
		in[0] = reflect.ValueOf(&ctx).Elem()
		if parent != nil {
			in[1] = reflect.NewAt(parent, p)
		}
		if argType != nil {
			av := reflect.NewAt(argType, args).Elem()
			for i := range f.Arguments {
				in[first+i] = av.Field(i)
			}
		}
		out := method.Call(in)
		if err, _ := out[1].Interface().(error); err != nil {
			return reflect.Value{}, err
		}
		return out[0], nil
	}
	if role == "Subscription" {
		out := mt.Out(0)
		if out.Kind() != reflect.Chan || out.ChanDir()&reflect.RecvDir == 0 {
			fail("subscription resolver method %s returns %s; gqlgen's shape returns (<-chan R, error)", goName(f.Name), out)
			return
		}
		sd.SubscriptionOf(f.Name, argType, out.Elem(), func(ctx context.Context, args unsafe.Pointer) (reflect.Value, error) {
			return call(ctx, nil, args)
		})
		return
	}
	var opts []schemadef.Option
	if role != "Mutation" {
		// gqlgen runs resolvers concurrently; dataloaders rely on it.
		opts = append(opts, schemadef.Concurrent())
	}
	if role != "" {
		sd.FieldOf(role, f.Name, argType, mt.Out(0), call, opts...)
		return
	}
	sd.ObjectOf(typeName, parent)
	sd.FieldOf(typeName, f.Name, argType, mt.Out(0), call, opts...)
}

// Build builds the schema and checks the `models:` entries of gqlgen.yml
// against the Go types bound to object types.
func (p *Project) Build(opts ...BuildOption) (*schema.Schema, error) {
	var o buildOptions
	for _, opt := range opts {
		opt(&o)
	}
	sd := schemadef.BuilderOf(p.Builder)
	for _, rb := range p.binds {
		declaredAs := rb.typeName
		if rb.role != "" {
			declaredAs = rb.role
		}
		if sd.HasField(declaredAs, rb.field) {
			continue // a typed binding
		}
		p.reflective = append(p.reflective, rb.typeName+"."+rb.field)
		rb.declare()
	}
	p.binds = nil
	if o.noReflection && len(p.reflective) > 0 {
		return nil, fmt.Errorf("gqlgen: fields bound by reflection (NoReflection): %s", strings.Join(p.reflective, ", "))
	}
	s, err := p.Builder.Build()
	if err != nil {
		return nil, err
	}
	m := schemadef.Model(s)
	var errs []error
	for name, entry := range p.models {
		t := m.Type(name)
		if t == nil || t.GoType == nil || t.Kind != schemadef.ObjectKind {
			continue
		}
		got := t.GoType.PkgPath() + "." + t.GoType.Name()
		ok := false
		for _, want := range entry.Model {
			ok = ok || want == got
		}
		if !ok {
			errs = append(errs, fmt.Errorf("gqlgen: models: %s is %s in gqlgen.yml, but its resolvers use %s", name, strings.Join(entry.Model, " or "), got))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

// goName is gqlgen's Go name of a GraphQL field: each word capitalised,
// common initialisms in capitals ("id" → "ID", "userUrl" → "UserURL").
func goName(name string) string {
	var words []string
	start := 0
	runes := []rune(name)
	for i := 1; i <= len(runes); i++ {
		if i == len(runes) || runes[i] == '_' || unicode.IsUpper(runes[i]) && !unicode.IsUpper(runes[i-1]) {
			if w := strings.Trim(string(runes[start:i]), "_"); w != "" {
				words = append(words, w)
			}
			start = i
		}
	}
	for i, w := range words {
		if initialisms[strings.ToUpper(w)] {
			words[i] = strings.ToUpper(w)
		} else {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, "")
}

// initialisms are the common initialisms gqlgen writes in capitals.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "EOF": true, "GUID": true,
	"HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true, "LHS": true, "QPS": true,
	"RAM": true, "RHS": true, "RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true, "URI": true, "URL": true,
	"UTF8": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// declareAbstracts declares the schema's interfaces and unions whose Go
// interface types (gqlgen's models name them as the schema does) appear
// in the resolver methods' signatures.
func declareAbstracts(sd *schemadef.Builder, doc *ast.Schema, root reflect.Value) {
	seen := map[reflect.Type]bool{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if seen[t] {
			return
		}
		seen[t] = true
		if t.Kind() != reflect.Interface || t.Name() == "" {
			return
		}
		def := doc.Types[t.Name()]
		switch {
		case def == nil:
		case def.Kind == ast.Interface:
			sd.InterfaceOf(def.Name, t)
		case def.Kind == ast.Union:
			sd.UnionOf(def.Name, t)
		}
	}
	methods := func(v reflect.Value) {
		for i := 0; i < v.NumMethod(); i++ {
			mt := v.Method(i).Type()
			for j := 0; j < mt.NumIn(); j++ {
				visit(mt.In(j))
			}
			for j := 0; j < mt.NumOut(); j++ {
				visit(mt.Out(j))
			}
		}
	}
	typeResolvers(root, doc, func(_ *ast.Definition, v reflect.Value) { methods(v) })
}

// declareScalars declares the schema's custom scalars whose Go types
// (named as the schema names them) implement gqlgen's Marshaler and
// Unmarshaler — MarshalGQL(io.Writer) and, on the pointer,
// UnmarshalGQL(any) error — and are reached from the resolver methods'
// signatures or the fields of the models found there.
func declareScalars(sd *schemadef.Builder, doc *ast.Schema, root reflect.Value) {
	seen := map[reflect.Type]bool{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Chan {
			t = t.Elem()
		}
		if seen[t] {
			return
		}
		seen[t] = true
		if def := doc.Types[t.Name()]; def != nil && def.Kind == ast.Scalar && !def.BuiltIn {
			declareScalar(sd, def.Name, t)
			return
		}
		if t.Kind() == reflect.Struct {
			for i := 0; i < t.NumField(); i++ {
				visit(t.Field(i).Type)
			}
		}
	}
	eachResolver(root, doc, func(mt reflect.Type) {
		for j := 0; j < mt.NumIn(); j++ {
			visit(mt.In(j))
		}
		for j := 0; j < mt.NumOut(); j++ {
			visit(mt.Out(j))
		}
	})
}

var writerType = reflect.TypeFor[io.Writer]()

// declareScalar declares the scalar name of Go type t through its gqlgen
// methods, when it has them.
func declareScalar(sd *schemadef.Builder, name string, t reflect.Type) {
	pt := reflect.PointerTo(t)
	m, ok := pt.MethodByName("MarshalGQL")
	u, ok2 := pt.MethodByName("UnmarshalGQL")
	if !ok || !ok2 || m.Type.NumIn() != 2 || m.Type.In(1) != writerType ||
		u.Type.NumIn() != 2 || u.Type.NumOut() != 1 || u.Type.Out(0) != errType {
		return
	}
	sd.ScalarOf(name, t, func(buf []byte, p unsafe.Pointer) ([]byte, error) {
		w := &appendWriter{buf: buf}
		m.Func.Call([]reflect.Value{reflect.NewAt(t, p), reflect.ValueOf(io.Writer(w))})
		return w.buf, nil
	}, func(p unsafe.Pointer, v any) error {
		in := reflect.ValueOf(&v).Elem()
		out := u.Func.Call([]reflect.Value{reflect.NewAt(t, p), in})
		err, _ := out[0].Interface().(error)
		return err
	})
}

// appendWriter is an io.Writer appending to a byte slice.
type appendWriter struct{ buf []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// eachResolver calls fn with the type of every resolver method.
func eachResolver(root reflect.Value, doc *ast.Schema, fn func(reflect.Type)) {
	typeResolvers(root, doc, func(_ *ast.Definition, v reflect.Value) {
		for i := 0; i < v.NumMethod(); i++ {
			fn(v.Method(i).Type())
		}
	})
}

// typeResolvers calls fn with each object type of doc that the root
// resolver gives a resolver for (its method named after the type, as
// gqlgen's ResolverRoot has: Query(), Todo(), ...), and that resolver.
func typeResolvers(root reflect.Value, doc *ast.Schema, fn func(def *ast.Definition, v reflect.Value)) {
	for _, def := range doc.Types {
		if def.Kind != ast.Object || def.BuiltIn {
			continue
		}
		m := root.MethodByName(def.Name)
		if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
			continue
		}
		v := m.Call(nil)[0]
		if v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		if v.IsValid() {
			fn(def, v)
		}
	}
}
