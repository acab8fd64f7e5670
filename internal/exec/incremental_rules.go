package exec

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
)

// The validation rules of graphql-js 17 for @defer and @stream. They apply
// to schemas that declare the directives (schema.Builder.
// EnableIncrementalDelivery); gqlparser's built-in @defer stays unknown
// (noDeferRule).

// declared reports whether d is the schema's own @defer or @stream.
func declared(d *ast.Directive) bool {
	return (d.Name == "defer" || d.Name == "stream") && d.Definition != nil && !builtIn(d.Definition.Position)
}

// deferStreamOnRootRule refuses @defer on a fragment whose parent type is
// the mutation or subscription root, and @stream on their fields.
func (e *Engine) deferStreamOnRootRule(observers *core.Events, addError core.AddErrFunc) {
	check := func(parent *ast.Definition, dirs ast.DirectiveList, name, what string) {
		d := dirs.ForName(name)
		if d == nil || parent == nil || !declared(d) {
			return
		}
		if e.ast.Mutation != nil && parent.Name == e.ast.Mutation.Name {
			addError(core.Message(`%s directive cannot be used on root mutation type "%s".`, what, parent.Name), core.At(d.Position))
		}
		if e.ast.Subscription != nil && parent.Name == e.ast.Subscription.Name {
			addError(core.Message(`%s directive cannot be used on root subscription type "%s".`, what, parent.Name), core.At(d.Position))
		}
	}
	observers.OnInlineFragment(func(_ *core.Walker, f *ast.InlineFragment) {
		check(f.ObjectDefinition, f.Directives, "defer", "Defer")
	})
	observers.OnFragmentSpread(func(_ *core.Walker, f *ast.FragmentSpread) {
		check(f.ObjectDefinition, f.Directives, "defer", "Defer")
	})
	observers.OnField(func(_ *core.Walker, f *ast.Field) {
		check(f.ObjectDefinition, f.Directives, "stream", "Stream")
	})
}

// streamOnListRule refuses @stream on a field whose type is not a list.
func streamOnListRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnField(func(_ *core.Walker, f *ast.Field) {
		d := f.Directives.ForName("stream")
		if d == nil || !declared(d) || f.Definition == nil || f.ObjectDefinition == nil {
			return
		}
		if f.Definition.Type.Elem == nil {
			addError(core.Message(`Directive "@stream" cannot be used on non-list field "%s.%s".`, f.ObjectDefinition.Name, f.Name), core.At(d.Position))
		}
	})
}

// deferStreamLabelRule requires labels to be static strings, unique in
// the document.
func deferStreamLabelRule(observers *core.Events, addError core.AddErrFunc) {
	known := map[string]*ast.Directive{}
	observers.OnDirective(func(_ *core.Walker, d *ast.Directive) {
		if !declared(d) {
			return
		}
		a := d.Arguments.ForName("label")
		if a == nil || a.Value == nil {
			return
		}
		if a.Value.Kind != ast.StringValue {
			addError(core.Message(`Directive "%s"'s label argument must be a static string.`, d.Name), core.At(d.Position))
			return
		}
		if prev, ok := known[a.Value.Raw]; ok {
			if prev != d {
				addError(core.Message(`Defer/Stream directive label argument must be unique.`), core.At(d.Position))
			}
			return
		}
		known[a.Value.Raw] = d
	})
}

// deferStreamOnValidOperationsRule refuses @defer and @stream anywhere in
// a subscription unless their if: can be false (a variable or false).
func deferStreamOnValidOperationsRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnOperation(func(w *core.Walker, op *ast.OperationDefinition) {
		if op.Operation != ast.Subscription {
			return
		}
		visited := map[string]bool{}
		var walk func(set ast.SelectionSet)
		walk = func(set ast.SelectionSet) {
			for _, sel := range set {
				var dirs ast.DirectiveList
				var sub ast.SelectionSet
				switch s := sel.(type) {
				case *ast.Field:
					dirs, sub = s.Directives, s.SelectionSet
				case *ast.InlineFragment:
					dirs, sub = s.Directives, s.SelectionSet
				case *ast.FragmentSpread:
					dirs = s.Directives
					if !visited[s.Name] {
						visited[s.Name] = true
						if def := w.Document.Fragments.ForName(s.Name); def != nil {
							sub = def.SelectionSet
						}
					}
				}
				if canBeSkipped(dirs) {
					continue
				}
				for _, d := range dirs {
					if !declared(d) || ifCanBeFalse(d) {
						continue
					}
					what := "Defer"
					if d.Name == "stream" {
						what = "Stream"
					}
					addError(core.Message("%s directive not supported on subscription operations. Disable `@%s` by setting the `if` argument to `false`.", what, d.Name), core.At(d.Position))
				}
				walk(sub)
			}
		}
		walk(op.SelectionSet)
	})
}

// ifCanBeFalse reports whether the if: of d is a variable or false.
func ifCanBeFalse(d *ast.Directive) bool {
	a := d.Arguments.ForName("if")
	if a == nil || a.Value == nil {
		return false
	}
	return a.Value.Kind == ast.Variable || a.Value.Kind == ast.BooleanValue && a.Value.Raw == "false"
}

// canBeSkipped reports whether @skip or @include may leave the selection
// out.
func canBeSkipped(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		a := d.Arguments.ForName("if")
		if a == nil || a.Value == nil {
			return d.Name == "skip"
		}
		if a.Value.Kind != ast.BooleanValue {
			return true
		}
		if (a.Value.Raw == "true") == (d.Name == "skip") {
			return true
		}
	}
	return false
}
