package exec

import (
	"log/slog"
	"sort"
	"strconv"

	"github.com/graftgql/graft/schema"
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
	// having an Extensions method) with "internal error" and code
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
	concurrency int
}

// New returns an Engine for the built schema s.
func New(s *schema.Schema, opts Options) *Engine {
	return newEngine(s.AST(), s.Query, s.Mutation, s.Types, opts)
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
	set := rules.NewDefaultRules()
	set.AddRule("IntLiteralsInRange", intRangeRule)
	if e.noIntro {
		set.AddRule("NoIntrospection", noIntrospectionRule)
	}
	for name, fn := range set.GetInner() {
		e.rules = append(e.rules, core.Rule{Name: name, RuleFunc: fn})
	}
	sort.Sort(core.NameSorter(e.rules))
	return e
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
