package exec

import (
	"context"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/graftgql/graft/internal/coerce"
	"github.com/graftgql/graft/internal/gqlerr"

	schema "github.com/graftgql/graft/internal/schemadef"
	graftschema "github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// Options configures an Engine. The zero value is usable.
type Options struct {
	// Logger receives resolver panics and other internal failures. Nil
	// means slog.Default().
	Logger *slog.Logger
	// MaxTokens bounds the number of tokens the parser reads; 0 means no
	// limit.
	MaxTokens int
	// MaxErrors bounds the number of validation errors Prepare returns and
	// of field errors one execution reports; 0 means 100.
	MaxErrors int
	// DisableIntrospection makes __schema and __type validation errors.
	// __typename stays available.
	DisableIntrospection bool
	// MaskErrors replaces the message of resolver errors that carry no
	// GraphQL meaning (neither a *gqlerror.Error, nor wrapping one, nor
	// having an Extensions method) with "Internal server error" and code
	// INTERNAL_SERVER_ERROR; the original error is logged.
	MaskErrors bool
	// ValidationBudget bounds the field comparisons a document may ask of
	// validation (see CheckValidationBudget); 0 means
	// DefaultValidationBudget.
	ValidationBudget int
	// MaxResponseBytes bounds the response one execution writes; 0 means
	// DefaultMaxResponseBytes. See overResponseBudget.
	MaxResponseBytes int
	// MaxConcurrency bounds the resolvers and batches one request runs at
	// once: the concurrent resolvers, batch resolvers and loader batches of
	// a level run beside each other up to this many; 0 means 64.
	MaxConcurrency int
	// Middleware, when set, gives the middleware of each field (nil for
	// none); fields without one run as fast as with no Middleware.
	Middleware MiddlewareFor
	// Present, when set, presents each resolver error (see present.go).
	Present func(ctx context.Context, err error, ge *gqlerror.Error) *gqlerror.Error
	// OnPanic, when set, receives each recovered resolver panic.
	OnPanic func(ctx context.Context, v any, stack []byte)
}

// defaultMaxErrors is the error bound used when Options.MaxErrors is 0.
const defaultMaxErrors = 100

// Engine prepares and executes documents for one schema. It is safe for
// concurrent use.
type Engine struct {
	ast         *ast.Schema
	query       *schema.Type
	mutation    *schema.Type
	types       map[string]*schema.Type
	fields      map[*schema.Type]map[string]*schema.Field
	maxResponse int
	logger      *slog.Logger
	maxTokens   int
	maxErrors   int
	noIntro     bool
	mask        bool
	vbudget     int
	rules       []core.Rule
	intro       introIndex
	// cachedBytes is the size of the introspection answers cached in live
	// operations (see cacheAnswer).
	cachedBytes atomic.Int64
	// eventsEncoded counts the subscription events executed into an
	// answer rather than copied from another subscriber's (EventsEncoded).
	eventsEncoded atomic.Int64
	coerce        *coerce.Coercer
	concurrency   int
	mwFor         MiddlewareFor
	present       func(ctx context.Context, err error, ge *gqlerror.Error) *gqlerror.Error
	onPanic       func(ctx context.Context, v any, stack []byte)
	// docDirs runs the directives documents apply, when the schema has
	// such a hook (docdirectives.go).
	docDirs *schema.DocumentDirectives
}

// New returns an Engine for the built schema s.
func New(s *graftschema.Schema, opts Options) *Engine {
	return NewModel(schema.Model(s), opts)
}

// NewModel returns an Engine for the built model m, for tests of the
// builder that have no public *schema.Schema.
func NewModel(m *schema.Schema, opts Options) *Engine {
	e := newEngine(m.AST(), m.Query, m.Mutation, m.Types, opts)
	e.docDirs = m.DocumentDirectives
	for _, d := range m.Directives {
		if d.Deprecated != "" {
			if e.intro.deprecated == nil {
				e.intro.deprecated = map[string]string{}
			}
			e.intro.deprecated[d.Name] = d.Deprecated
		}
	}
	return e
}

// newEngine builds an Engine from the parts of a schema, so tests can pair
// a hand-made model with a schema loaded from SDL.
func newEngine(as *ast.Schema, query, mutation *schema.Type, types []*schema.Type, opts Options) *Engine {
	e := &Engine{
		ast:         as,
		query:       query,
		mutation:    mutation,
		types:       make(map[string]*schema.Type, len(types)),
		fields:      make(map[*schema.Type]map[string]*schema.Field, len(types)),
		logger:      opts.Logger,
		maxTokens:   opts.MaxTokens,
		maxErrors:   opts.MaxErrors,
		noIntro:     opts.DisableIntrospection,
		mask:        opts.MaskErrors,
		vbudget:     opts.ValidationBudget,
		maxResponse: opts.MaxResponseBytes,
		concurrency: opts.MaxConcurrency,
		mwFor:       opts.Middleware,
		present:     opts.Present,
		onPanic:     opts.OnPanic,
	}
	if e.concurrency <= 0 {
		e.concurrency = defaultConcurrency
	}
	if e.maxResponse <= 0 {
		e.maxResponse = DefaultMaxResponseBytes
	}
	if e.logger == nil {
		e.logger = slog.Default()
	}
	if e.maxErrors <= 0 {
		e.maxErrors = defaultMaxErrors
	}
	add := func(t *schema.Type) {
		if t == nil {
			return
		}
		e.types[t.Name] = t
		if t.Kind != schema.ObjectKind && t.Kind != schema.InterfaceKind {
			return
		}
		m := make(map[string]*schema.Field, len(t.Fields))
		for _, f := range t.Fields {
			m[f.Name] = f
		}
		e.fields[t] = m
	}
	for _, t := range types {
		add(t)
	}
	add(query)
	add(mutation)
	e.intro = newIntroIndex(as)
	e.coerce = newCoercer(e)
	set := rules.NewDefaultRules()
	set.RemoveRule("ScalarLeafs")
	set.AddRule("ScalarLeafs", scalarLeafsRule(false))
	// An operation type the schema lacks is refused at execution, with
	// data null, as graphql-js does (see Engine.run).
	set.RemoveRule("KnownRootType")
	set.AddRule("IntLiteralsInRange", intRangeRule)
	set.AddRule("NoDefer", noDeferRule)
	set.AddRule("DeferStreamDirectiveOnRootField", e.deferStreamOnRootRule)
	set.AddRule("DeferStreamDirectiveOnValidOperations", deferStreamOnValidOperationsRule)
	set.AddRule("DeferStreamDirectiveLabel", deferStreamLabelRule)
	set.AddRule("StreamDirectiveOnListField", streamOnListRule)
	set.AddRule("CustomScalarLiterals", e.scalarLiteralRule)
	if e.noIntro {
		set.AddRule("NoIntrospection", noIntrospectionRule)
		// "Did you mean ...?" quotes the schema's names: with
		// introspection off, the rules that suggest names must not.
		for _, r := range []core.Rule{
			rules.FieldsOnCorrectTypeRuleWithoutSuggestions,
			rules.KnownArgumentNamesRuleWithoutSuggestions,
			rules.KnownTypeNamesRuleWithoutSuggestions,
			{Name: "ScalarLeafsWithoutSuggestions", RuleFunc: scalarLeafsRule(true)},
			rules.ValuesOfCorrectTypeRuleWithoutSuggestions,
		} {
			set.RemoveRule(strings.TrimSuffix(r.Name, "WithoutSuggestions"))
			set.AddRule(r.Name, r.RuleFunc)
		}
	}
	for name, fn := range set.GetInner() {
		e.rules = append(e.rules, core.Rule{Name: name, RuleFunc: fn})
	}
	// Run the rules in graphql-js's order (specifiedRules), so errors
	// that concern one node come in its order; the others after, by name.
	sort.SliceStable(e.rules, func(i, j int) bool {
		ri, rj := ruleOrder(e.rules[i].Name), ruleOrder(e.rules[j].Name)
		if ri != rj {
			return ri < rj
		}
		return e.rules[i].Name < e.rules[j].Name
	})
	return e
}

// jsRuleOrder is graphql-js 16's specifiedRules order, by gqlparser's rule
// names (with and without suggestions).
var jsRuleOrder = []string{
	"UniqueOperationNames", "LoneAnonymousOperation", "SingleFieldSubscriptions",
	"KnownTypeNames", "FragmentsOnCompositeTypes", "VariablesAreInputTypes", "ScalarLeafs",
	"FieldsOnCorrectType", "UniqueFragmentNames", "KnownFragmentNames", "NoUnusedFragments",
	"PossibleFragmentSpreads", "NoFragmentCycles", "UniqueVariableNames", "NoUndefinedVariables",
	"NoUnusedVariables", "KnownDirectives", "NoDefer", "UniqueDirectivesPerLocation",
	"DeferStreamDirectiveOnRootField", "DeferStreamDirectiveOnValidOperations", "DeferStreamDirectiveLabel",
	"StreamDirectiveOnListField", "KnownArgumentNames",
	"UniqueArgumentNames", "ValuesOfCorrectType", "IntLiteralsInRange", "ProvidedRequiredArguments",
	"VariablesInAllowedPosition", "OverlappingFieldsCanBeMerged", "UniqueInputFieldNames",
}

// ruleOrder returns the position of a rule in jsRuleOrder, or its length.
func ruleOrder(name string) int {
	name = strings.TrimSuffix(name, "WithoutSuggestions")
	for i, n := range jsRuleOrder {
		if n == name {
			return i
		}
	}
	return len(jsRuleOrder)
}

// validate runs the engine's rules over doc, as validator.ValidateWithRules
// does, without rebuilding the rule list for every document.
func (e *Engine) validate(doc *ast.QueryDocument) gqlerror.List {
	var errs gqlerror.List
	observers := &core.Events{}
	for _, rule := range e.rules {
		rule.RuleFunc(observers, func(options ...core.ErrorOption) {
			err := &gqlerror.Error{Rule: rule.Name}
			for _, o := range options {
				o(err)
			}
			errs = append(errs, err)
		})
	}
	core.Walk(e.ast, doc, observers)
	return errs
}

// field returns the model field name of the object type typeName, or nil.
func (e *Engine) field(typeName, name string) *schema.Field {
	t := e.types[typeName]
	if t == nil {
		return nil
	}
	return e.fields[t][name]
}

// scalarLeafsRule is the specification's "Leaf Field Selections" as
// graphql-js words it: a leaf field with a selection set, or a composite
// one without, is named with the field's full type ("String!",
// "[Episode]"), where gqlparser's own rule names a leaf's named type.
// suggestionsOff leaves out the "Did you mean" of a composite field.
func scalarLeafsRule(suggestionsOff bool) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		observers.OnField(func(walker *core.Walker, field *ast.Field) {
			if field.Definition == nil {
				return
			}
			t := walker.Schema.Types[field.Definition.Type.Name()]
			if t == nil {
				return
			}
			switch {
			case t.IsLeafType() && len(field.SelectionSet) > 0:
				addError(core.Message(`Field "%s" must not have a selection since type "%s" has no subfields.`,
					field.Name, field.Definition.Type.String()), core.At(field.Position))
			case !t.IsLeafType() && len(field.SelectionSet) == 0:
				opts := []core.ErrorOption{core.Message(`Field "%s" of type "%s" must have a selection of subfields.`,
					field.Name, field.Definition.Type.String()), core.At(field.Position)}
				if !suggestionsOff {
					opts = append(opts, core.Suggestf(`"%s { ... }"`, field.Name))
				}
				addError(opts...)
			}
		})
	}
}

// noIntrospectionRule refuses __schema and __type when introspection is
// disabled.
func noIntrospectionRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnField(func(_ *core.Walker, field *ast.Field) {
		if field.Name == "__schema" || field.Name == "__type" {
			addError(
				core.Message(`GraphQL introspection is not allowed, but the query contained %s.`, field.Name),
				core.At(field.Position),
			)
		}
	})
}

// noDeferRule refuses @defer, which gqlparser's prelude declares and graft
// does not implement (nor list in introspection), as graphql-js 16 does.
func noDeferRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnDirective(func(_ *core.Walker, d *ast.Directive) {
		if d.Name == "defer" && d.Definition != nil && builtIn(d.Definition.Position) {
			addError(core.Message(`Unknown directive "@defer".`), core.At(d.Position))
		}
	})
}

// intRangeRule refuses Int literals outside 32 bits, which the
// specification's "Values of Correct Type" rule requires and gqlparser's
// rule does not check.
func intRangeRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, v *ast.Value) {
		if v.Kind != ast.IntValue || v.ExpectedType == nil || v.ExpectedType.Name() != "Int" {
			return
		}
		if _, err := strconv.ParseInt(v.Raw, 10, 32); err != nil {
			addError(
				core.Message(`Int cannot represent non 32-bit signed integer value: %s`, v.Raw),
				core.At(v.Position),
			)
		}
	})
}

// scalarLiteralRule refuses a literal of a custom scalar (or DateTime)
// that the scalar's parser refuses, so a bad literal fails validation
// rather than execution. The error's code is BAD_USER_INPUT, as for a bad
// variable of the scalar: the document is well formed, its value is not.
// Literals holding variables are checked when the variables are coerced.
func (e *Engine) scalarLiteralRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, v *ast.Value) {
		if v.ExpectedType == nil || v.ExpectedType.Elem != nil || v.Kind == ast.Variable || v.Kind == ast.NullValue {
			return
		}
		t := e.types[v.ExpectedType.NamedType]
		if t == nil || t.Kind != schema.ScalarKind || usesVariables(v) {
			return
		}
		val, err := v.Value(nil)
		if err != nil {
			return
		}
		if err := t.CheckInput(val); err != nil {
			addError(
				core.Message(`Expected value of type "%s", found %s; %s`, t.Name, v.String(), err.Error()),
				core.At(v.Position),
				badUserInput,
			)
		}
	})
}

// badUserInput gives a validation error the code BAD_USER_INPUT, which
// Prepare keeps instead of GRAPHQL_VALIDATION_FAILED.
func badUserInput(err *gqlerror.Error) {
	if err.Extensions == nil {
		err.Extensions = map[string]any{}
	}
	err.Extensions["code"] = gqlerr.BadUserInput
}
