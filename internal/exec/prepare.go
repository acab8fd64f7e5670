package exec

import (
	"errors"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/gqlsyntax"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// Document is a parsed, validated and planned query document. It is
// immutable and may be shared by concurrent requests.
type Document struct {
	doc *ast.QueryDocument
	ops []*Operation
}

// Operation is one planned operation of a Document.
type Operation struct {
	engine *Engine
	def    *ast.OperationDefinition
	root   *selectionPlan
	// introOnly is set when every root selection is __schema, __type or
	// __typename.
	introOnly bool
	// cacheable: introOnly and no variables, so the response never changes.
	cacheable bool
	// cached is the response of a cacheable operation once one execution
	// completed it without error within the bounds of cacheAnswer.
	cached atomic.Pointer[[]byte]
	// batched is set when the plan reaches a batch field or a concurrent
	// resolver: such operations resolve ahead, level by level (batch.go).
	batched bool
	// sizeHint is about the size of the operation's last answer, up to
	// maxSizeHint: run grows the caller's buffer to it at once.
	sizeHint atomic.Int32
	// inc is set when the operation has @defer or @stream
	// (incremental.go).
	inc *incPlan
}

// maxSizeHint bounds Operation.sizeHint: a buffer is grown at once to at
// most 1 MiB, the largest response buffer the router keeps for reuse.
const maxSizeHint = 1 << 20

// AST returns the parsed and validated document.
func (d *Document) AST() *ast.QueryDocument { return d.doc }

// AST returns the operation's definition.
func (o *Operation) AST() *ast.OperationDefinition { return o.def }

// Kind returns the operation type: query, mutation or subscription.
func (o *Operation) Kind() ast.Operation { return o.def.Operation }

// Rooted reports whether the schema has the root type of the operation's
// type; an operation without one answers, when executed, that the schema
// is not configured for it (data null), as graphql-js does.
func (o *Operation) Rooted() bool { return o.root != nil }

// Prepare parses, validates and plans query. The errors carry
// extensions.code GRAPHQL_PARSE_FAILED or GRAPHQL_VALIDATION_FAILED.
func (e *Engine) Prepare(query string) (*Document, gqlerror.List) {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, e.maxTokens)
	if err != nil {
		ge := toGQLError(err)
		if strings.HasPrefix(ge.Message, `Unexpected Name "`) {
			// graphql-js parses type system definitions and then refuses
			// them in validation.
			if defs := gqlsyntax.NonExecutable(query); len(defs) > 0 {
				errs := make(gqlerror.List, 0, len(defs))
				for i := range defs {
					errs = append(errs, withCode(fromSyntax(&defs[i]), gqlerr.ValidationFailed))
				}
				return nil, errs
			}
		}
		return nil, gqlerror.List{boundMessage(withCode(syntaxError(query, ge), gqlerr.ParseFailed))}
	}
	if se := gqlsyntax.Check(query); se != nil {
		// gqlparser accepts a few strings graphql-js refuses, such as
		// lone surrogate escapes.
		return nil, gqlerror.List{boundMessage(withCode(fromSyntax(se), gqlerr.ParseFailed))}
	}
	if len(doc.Operations) == 0 && len(doc.Fragments) == 0 {
		// The grammar asks for at least one definition; gqlparser accepts
		// an empty document.
		return nil, gqlerror.List{withCode(fromSyntax(gqlsyntax.EmptyDocument(query)), gqlerr.ParseFailed)}
	}
	if ge := CheckValidationBudget(doc, e.vbudget); ge != nil {
		return nil, gqlerror.List{ge}
	}
	if errs := e.validate(doc); len(errs) > 0 {
		// Placing an error scans the document's tokens: place no more
		// than can be reported (some are dropped as duplicates).
		if len(errs) > 2*e.maxErrors {
			errs = errs[:2*e.maxErrors]
		}
		errs = jsValidationErrors(e.ast, query, errs)
		if len(errs) > e.maxErrors {
			errs = errs[:e.maxErrors]
		}
		for _, ge := range errs {
			if _, ok := ge.Extensions["code"]; ok {
				boundMessage(ge) // a bad scalar literal: BAD_USER_INPUT
				continue
			}
			boundMessage(withCode(ge, gqlerr.ValidationFailed))
		}
		return nil, errs
	}
	d := &Document{doc: doc, ops: make([]*Operation, 0, len(doc.Operations))}
	for _, def := range doc.Operations {
		op, perr := e.planOperation(doc, def)
		if perr != nil {
			return nil, gqlerror.List{perr}
		}
		d.ops = append(d.ops, op)
	}
	return d, nil
}

// Operation selects the operation to run: the one named name, or the only
// one when name is empty. Errors carry OPERATION_RESOLUTION_FAILURE.
func (d *Document) Operation(name string) (*Operation, *gqlerror.Error) {
	if name == "" {
		switch len(d.ops) {
		case 1:
			return d.ops[0], nil
		case 0:
			return nil, withCode(gqlerror.Errorf("The document contains no operation."), gqlerr.OperationResolution)
		}
		return nil, withCode(gqlerror.Errorf("Must provide operation name if query contains multiple operations."), gqlerr.OperationResolution)
	}
	for _, op := range d.ops {
		if op.def.Name == name {
			return op, nil
		}
	}
	return nil, boundMessage(withCode(gqlerror.Errorf("Unknown operation named %q.", name), gqlerr.OperationResolution))
}

// syntaxError rewords the parse error ge in graphql-js's words, where
// gqlsyntax knows its form.
func syntaxError(query string, ge *gqlerror.Error) *gqlerror.Error {
	if len(ge.Locations) == 0 {
		return ge
	}
	if se, ok := gqlsyntax.Reword(query, ge.Message, ge.Locations[0].Line, ge.Locations[0].Column); ok {
		return fromSyntax(se)
	}
	return ge
}

// fromSyntax converts a gqlsyntax error.
func fromSyntax(se *gqlsyntax.Error) *gqlerror.Error {
	return &gqlerror.Error{Message: se.Message, Locations: []gqlerror.Location{{Line: se.Line, Column: se.Column}}}
}

// maxMessageBytes bounds the message of a request error: messages quote
// names and values from the request, which may be arbitrarily long.
const maxMessageBytes = 1024

// boundMessage cuts the message of ge to at most maxMessageBytes, at a
// character boundary and marked with an ellipsis, and returns ge.
func boundMessage(ge *gqlerror.Error) *gqlerror.Error {
	if len(ge.Message) <= maxMessageBytes {
		return ge
	}
	cut := maxMessageBytes - len("…")
	for cut > 0 && !utf8.RuneStart(ge.Message[cut]) {
		cut--
	}
	ge.Message = ge.Message[:cut] + "…"
	return ge
}

// toGQLError converts a parser or validator error into a *gqlerror.Error.
func toGQLError(err error) *gqlerror.Error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return ge
	}
	var list gqlerror.List
	if errors.As(err, &list) && len(list) > 0 {
		return list[0]
	}
	return &gqlerror.Error{Message: err.Error(), Err: err}
}

// withCode sets extensions.code on ge and returns it.
func withCode(ge *gqlerror.Error, code string) *gqlerror.Error {
	if ge.Extensions == nil {
		ge.Extensions = map[string]any{}
	}
	ge.Extensions["code"] = code
	return ge
}
