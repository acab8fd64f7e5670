package exec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/graftgql/graft/internal/gqlerr"

	schema "github.com/graftgql/graft/internal/schemadef"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// planBudget bounds the number of field selections and fragment
// expansions one operation may expand to, so that fragments spread many
// times over cannot make planning explode. Real documents, GraphiQL's
// introspection query included, stay far below it.
const planBudget = 20_000

// errPlanBudget stops planning once the budget is spent.
var errPlanBudget = errors.New("plan budget exceeded")

// fieldKind says how a planned field is resolved.
type fieldKind uint8

const (
	kindModel    fieldKind = iota // through its schema.Field
	kindTypename                  // __typename
	kindSchema                    // __schema on the query root
	kindType                      // __type(name:) on the query root
	kindIntro                     // a field of an introspection type
)

// condition is one @include (include set) or @skip on a variable.
type condition struct {
	variable string
	include  bool
}

// fieldPlan is one collected field of a selection set for one concrete
// object type.
type fieldPlan struct {
	kind    fieldKind
	name    string
	key     string
	keyJSON []byte // `,"key":`
	parent  string // the object type the field is selected on
	ast     *ast.Field
	// merged holds every occurrence of the response key, ast's first,
	// when the document selects it more than once (nil otherwise): its
	// errors name each one included (see request.locations).
	merged []occurrence
	def    *schema.Field
	// conds is nil when the field is always included; otherwise the field is
	// included when all conditions of any one of the lists hold.
	conds   [][]condition
	args    unsafe.Pointer // constant arguments, converted at plan time
	argsErr error
	dynArgs bool   // arguments use variables: converted per request
	argsKey string // constant arguments: identifies their values (batch groups)
	sub     *selectionPlan
	// early: resolved ahead in a batched operation (a batch field, a
	// concurrent resolver, or a field that leads to one); deep: the
	// selection below leads to one.
	early, deep bool
	// fast: the value can be written by the fast writer (fast.go); how
	// says how it writes it, off is def.Offset and key16 holds keyJSON
	// when it fits, for a fixed-size copy.
	fast  bool
	how   fastHow
	off   uintptr
	key16 *[16]byte
	mw    Middleware // nil unless Options.Middleware wraps it
	// stream is the field's @stream, nil when it has none (incremental.go).
	stream *streamSite
}

// objectPlan is the plan of a selection set for one concrete object type.
type objectPlan struct {
	fields     []*fieldPlan
	concurrent bool // some field has a concurrent resolver
	typeName   string
	work       bool // some field is resolved ahead (fieldPlan.early)
	marked     bool // work is computed
	// fast: written by the fast writer (fast.go); fastMarked: computed.
	fast, fastMarked bool
	// table: the fields as fastTable reads them, when op is fast, no
	// field has conditions and every key fits 16 bytes (fast.go).
	table []fastField
	// defers are the deferred fragments an object written with this plan
	// may start (incremental.go); nil for most plans.
	defers []*deferReg
}

// selectionPlan is the plan of a selection set: one objectPlan when the
// parent type is an object, one per possible type when it is abstract.
type selectionPlan struct {
	object *objectPlan
	byType map[string]*objectPlan
}

// forType returns the plan for the concrete object type name.
func (s *selectionPlan) forType(name string) *objectPlan {
	if s.object != nil {
		return s.object
	}
	return s.byType[name]
}

// occurrence is one appearance of a response key in a selection set, with
// the variable conditions under which it is included.
type occurrence struct {
	field *ast.Field
	conds []condition
	// defers are the deferred fragments around the occurrence within its
	// selection level, outermost first (incremental.go).
	defers []*deferSite
}

// collected is a response key with all its occurrences, in order.
type collected struct {
	key string
	occ []occurrence
}

// selSource is a selection set to collect, under conditions inherited from
// the enclosing field occurrence.
type selSource struct {
	set   ast.SelectionSet
	conds []condition
}

type planner struct {
	e      *Engine
	doc    *ast.QueryDocument
	budget int
	// tooBig is set when the budget ran out; err when the schema model
	// lacks a field the validated document selects.
	tooBig bool
	err    error
	// memo holds the plans made so far by selection sets and type: the
	// children of a field selected on an interface or union are the same
	// for every possible type, so each is planned once, not once per
	// possible type and level.
	memo map[string]*selectionPlan
	// sites are the deferred fragments met, by AST node; streams counts
	// the @stream fields (incremental.go).
	sites   map[ast.Selection]*deferSite
	streams int
	// noDefer is not zero while planning below a raw value.
	noDefer int
}

// planOperation plans def of doc.
func (e *Engine) planOperation(doc *ast.QueryDocument, def *ast.OperationDefinition) (*Operation, *gqlerror.Error) {
	op := &Operation{engine: e, def: def}
	var root *ast.Definition
	switch def.Operation {
	case ast.Query:
		root = e.ast.Query
	case ast.Mutation:
		root = e.ast.Mutation
	case ast.Subscription:
		root = e.ast.Subscription
	}
	if root == nil {
		return op, nil // answered at execution (Engine.run), as graphql-js does
	}
	p := &planner{e: e, doc: doc, budget: planBudget, memo: map[string]*selectionPlan{}}
	op.root = p.planSelection(root, []selSource{{set: def.SelectionSet}})
	if p.tooBig {
		ge := gqlerror.ErrorPosf(def.Position, "The operation expands to more than %d field selections.", planBudget)
		return nil, withCode(ge, gqlerr.ValidationFailed)
	}
	if p.err != nil {
		e.logger.Error("graphql: plan operation", "operation", def.Name, "error", p.err)
		return nil, internalError(nil)
	}
	op.introOnly = true
	for _, f := range op.root.object.fields {
		if f.kind == kindModel {
			op.introOnly = false
		}
	}
	op.cacheable = op.introOnly && len(def.VariableDefinitions) == 0 && def.Operation == ast.Query
	if len(p.sites) > 0 || p.streams > 0 {
		op.inc = newIncPlan(p)
		op.cacheable = false
	}
	op.batched = markWork(op.root.object)
	markFast(op.root.object) // after markWork
	if op.inc != nil {
		markDefers(op.root.object, map[*objectPlan]bool{})
	}
	return op, nil
}

// planSelection plans srcs, selection sets on the composite type def.
func (p *planner) planSelection(def *ast.Definition, srcs []selSource) *selectionPlan {
	key := planKey(def.Name, srcs)
	if sp, ok := p.memo[key]; ok {
		return sp
	}
	var sp *selectionPlan
	if def.Kind == ast.Object {
		sp = &selectionPlan{object: p.planObject(def.Name, srcs)}
	} else {
		possible := p.e.ast.GetPossibleTypes(def)
		sp = &selectionPlan{byType: make(map[string]*objectPlan, len(possible))}
		for _, pt := range possible {
			sp.byType[pt.Name] = p.planObject(pt.Name, srcs)
		}
	}
	p.memo[key] = sp
	return sp
}

// planKey identifies selection sets of the document, with their
// conditions, selected on the type typeName.
func planKey(typeName string, srcs []selSource) string {
	var b strings.Builder
	b.WriteString(typeName)
	for _, src := range srcs {
		b.WriteByte('|')
		b.WriteString(strconv.FormatUint(uint64(uintptr(unsafe.Pointer(unsafe.SliceData(src.set)))), 16))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(len(src.set)))
		b.WriteString(conditionsKey(src.conds))
	}
	return b.String()
}

// planObject plans srcs for the concrete object type objName.
func (p *planner) planObject(objName string, srcs []selSource) *objectPlan {
	var keys []*collected
	index := map[string]*collected{}
	for _, src := range srcs {
		p.collect(objName, src.set, src.conds, nil, &keys, index, map[string]bool{})
	}
	return p.buildObject(objName, keys)
}

// buildObject plans the collected keys as the fields of the object type
// objName, with the plans of the deferred fragments they hold.
func (p *planner) buildObject(objName string, keys []*collected) *objectPlan {
	op := &objectPlan{typeName: objName, fields: make([]*fieldPlan, 0, len(keys))}
	for _, c := range keys {
		if p.err != nil {
			return op
		}
		fp := p.planField(objName, c)
		if fp.def != nil && fp.def.Concurrent && fp.def.Resolve != nil {
			op.concurrent = true
		}
		op.fields = append(op.fields, fp)
	}
	if len(p.sites) > 0 {
		p.planDefers(op, keys) // incremental.go
	}
	return op
}

// planField plans one response key of the object type objName.
func (p *planner) planField(objName string, c *collected) *fieldPlan {
	first := c.occ[0].field
	fp := &fieldPlan{name: first.Name, key: c.key, keyJSON: jsonKey(c.key), parent: objName, ast: first}
	for _, o := range c.occ[1:] {
		if o.field != first && o.field.Position != nil {
			fp.merged = c.occ
			break
		}
	}
	for _, o := range c.occ {
		all := deferConditions(o.conds, o.defers)
		if len(all) == 0 {
			fp.conds = nil
			break
		}
		fp.conds = append(fp.conds, all)
	}
	fp.stream = p.streamOf(c)
	isQueryRoot := p.e.ast.Query != nil && objName == p.e.ast.Query.Name
	switch {
	case first.Name == "__typename":
		fp.kind = kindTypename
		return fp
	case strings.HasPrefix(objName, "__"):
		fp.kind = kindIntro
	case first.Name == "__schema" && isQueryRoot:
		fp.kind = kindSchema
	case first.Name == "__type" && isQueryRoot:
		fp.kind = kindType
	default:
		fp.def = p.e.field(objName, first.Name)
		if fp.def == nil {
			p.err = fmt.Errorf("field %s.%s has no resolver in the schema model", objName, first.Name)
			return fp
		}
		fp.mw = p.e.middlewareOf(objName, first.Name)
		if d := p.e.docDirs; d != nil && d.Field != nil && d.Applies(first.Directives) {
			fp.mw = docFieldMiddleware(d.Field, fp.mw) // docdirectives.go
		}
		p.planArgs(fp)
	}
	if first.Definition == nil {
		return fp
	}
	named := p.e.ast.Types[first.Definition.Type.Name()]
	if named == nil || !named.IsCompositeType() {
		return fp
	}
	srcs := make([]selSource, 0, len(c.occ))
	for _, o := range c.occ {
		srcs = append(srcs, selSource{set: o.field.SelectionSet, conds: o.conds})
	}
	if fp.def != nil && fp.def.Out != nil && fp.def.Out.Kind == schema.OutRaw {
		// raw.go writes what is below a raw value in place: nothing
		// there is deferred.
		p.noDefer++
		defer func() { p.noDefer-- }()
	}
	fp.sub = p.planSelection(named, srcs)
	return fp
}

// planArgs converts constant arguments once; arguments that use variables
// are converted per request.
func (p *planner) planArgs(fp *fieldPlan) {
	if fp.def.NewArgs == nil || fp.ast.Definition == nil {
		return
	}
	for _, a := range fp.ast.Arguments {
		if usesVariables(a.Value) {
			fp.dynArgs = true
			return
		}
	}
	vals, err := p.e.coerce.Arguments(fp.ast.Definition.Arguments, fp.ast.Arguments, nil)
	if err == nil {
		fp.args, err = fp.def.NewArgs(vals)
		if fp.def.Batch != nil {
			fp.argsKey = argsKey(vals)
		}
	}
	fp.argsErr = err
}

// usesVariables reports whether the value literal v refers to a variable.
func usesVariables(v *ast.Value) bool {
	if v == nil {
		return false
	}
	if v.Kind == ast.Variable {
		return true
	}
	for _, c := range v.Children {
		if usesVariables(c.Value) {
			return true
		}
	}
	return false
}

// markWork sets the early, deep and work flags below op and reports
// whether op has a field to resolve ahead. Plans are shared, not cyclic,
// so each is marked once.
func markWork(op *objectPlan) bool {
	if op.marked {
		return op.work
	}
	op.marked = true
	for _, f := range op.fields {
		if f.kind != kindModel || f.def == nil {
			continue
		}
		if f.sub != nil {
			if f.sub.object != nil {
				f.deep = markWork(f.sub.object)
			} else {
				for _, t := range f.sub.byType {
					if markWork(t) {
						f.deep = true
					}
				}
			}
		}
		f.early = f.def.Batch != nil || f.def.Resolve != nil && f.def.Concurrent || f.deep
		if f.early {
			op.work = true
		}
	}
	return op.work
}
