package exec

import (
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Planning @defer and @stream (incremental delivery).
//
// A deferred fragment (deferSite) is planned twice. Its fields stay in
// the plan of the object they are selected on, each occurrence carrying a
// condition on a variable no request can name (deferSite.active), true
// only while the request delivers incrementally and the fragment's if:
// holds: then the fields are skipped there, by the same check as @skip,
// in every writer; otherwise (a client that takes one JSON response, or
// if: false) they are written in place as if the directive were absent.
// The object plan also lists the fragment (deferReg) with a plan of its
// own fields (deferReg.plan): the payload that delivers it later. Fields
// the object's plan already delivers unconditionally are left out of it.
// Nested deferred fragments of the same level are chained: a field in
// both is deferred by the outermost active one, and the inner fragment
// starts when the outer one is written.

// deferSite is one @defer of the document whose if: is not the constant
// false.
type deferSite struct {
	index    int
	label    string
	hasLabel bool
	// ifVar is the variable of if:, or "" when it is constantly true.
	ifVar string
	// active is the variable, set per request, that is true when the
	// fragment is delivered later.
	active string
	// conds are the variable @skip and @include conditions on the
	// fragment and around it.
	conds []condition
}

// deferReg is a deferred fragment an object written with a plan may
// start.
type deferReg struct {
	site *deferSite
	// outer are the deferred fragments of the same level around it: it
	// starts only when none of them is active (otherwise it starts when
	// they are written).
	outer []*deferSite
	// plan is the fragment's payload: its fields on the object type.
	plan *objectPlan
}

// streamSite is the @stream of a field.
type streamSite struct {
	label    string
	hasLabel bool
	ifVar    string // "" when constantly true
	count    int    // initialCount
	countVar string // the variable of initialCount, or ""
}

// incPlan is what an operation with @defer or @stream keeps for its
// requests.
type incPlan struct {
	sites []*deferSite // by index
}

// newIncPlan gathers the deferred fragments planned by p.
func newIncPlan(p *planner) *incPlan {
	ip := &incPlan{sites: make([]*deferSite, len(p.sites))}
	for _, s := range p.sites {
		ip.sites[s.index] = s
	}
	return ip
}

// deferChain returns chain extended by the fragment node's @defer, or
// chain itself when the fragment is not deferred. conds are the
// fragment's conditions. Introspection types, and the objects of a raw
// value (written in place by raw.go), are never deferred.
func (p *planner) deferChain(objName string, node ast.Selection, dirs ast.DirectiveList, conds []condition, chain []*deferSite) []*deferSite {
	d := dirs.ForName("defer")
	if d == nil || d.Definition == nil || builtIn(d.Definition.Position) || strings.HasPrefix(objName, "__") || p.noDefer > 0 {
		return chain
	}
	ifVar := ""
	if a := d.Arguments.ForName("if"); a != nil && a.Value != nil {
		switch a.Value.Kind {
		case ast.Variable:
			ifVar = a.Value.Raw
		case ast.BooleanValue:
			if a.Value.Raw == "false" {
				return chain
			}
		}
	}
	s := p.sites[node]
	if s == nil {
		if p.sites == nil {
			p.sites = map[ast.Selection]*deferSite{}
		}
		s = &deferSite{index: len(p.sites), ifVar: ifVar, conds: conds}
		s.active = "\x00defer" + strconv.Itoa(s.index)
		if a := d.Arguments.ForName("label"); a != nil && a.Value != nil && a.Value.Kind == ast.StringValue {
			s.label, s.hasLabel = a.Value.Raw, true
		}
		p.sites[node] = s
	}
	return append(chain[:len(chain):len(chain)], s)
}

// chainKey identifies a chain of deferred fragments.
func chainKey(chain []*deferSite) string {
	if len(chain) == 0 {
		return ""
	}
	var b strings.Builder
	for _, s := range chain {
		b.WriteString("|d")
		b.WriteString(strconv.Itoa(s.index))
	}
	return b.String()
}

// deferConditions returns conds with, for each deferred fragment of
// defers, the condition that it is not active.
func deferConditions(conds []condition, defers []*deferSite) []condition {
	if len(defers) == 0 {
		return conds
	}
	all := make([]condition, 0, len(conds)+len(defers))
	all = append(all, conds...)
	for _, d := range defers {
		all = append(all, condition{variable: d.active, include: false})
	}
	return all
}

// streamOf returns the @stream of the first occurrence of c that has one
// whose if: is not the constant false.
func (p *planner) streamOf(c *collected) *streamSite {
	for _, o := range c.occ {
		d := o.field.Directives.ForName("stream")
		if d == nil || d.Definition == nil || builtIn(d.Definition.Position) {
			continue
		}
		st := &streamSite{}
		if a := d.Arguments.ForName("if"); a != nil && a.Value != nil {
			switch a.Value.Kind {
			case ast.Variable:
				st.ifVar = a.Value.Raw
			case ast.BooleanValue:
				if a.Value.Raw == "false" {
					continue
				}
			}
		}
		if a := d.Arguments.ForName("initialCount"); a != nil && a.Value != nil {
			switch a.Value.Kind {
			case ast.Variable:
				st.countVar = a.Value.Raw
			case ast.IntValue:
				st.count, _ = strconv.Atoi(a.Value.Raw)
			}
		}
		if a := d.Arguments.ForName("label"); a != nil && a.Value != nil && a.Value.Kind == ast.StringValue {
			st.label, st.hasLabel = a.Value.Raw, true
		}
		p.streams++
		return st
	}
	return nil
}

// planDefers lists on op the deferred fragments of keys, each with the
// plan of its payload.
func (p *planner) planDefers(op *objectPlan, keys []*collected) {
	seen := map[*deferSite]bool{}
	for _, c := range keys {
		for _, o := range c.occ {
			for k, s := range o.defers {
				if !seen[s] {
					seen[s] = true
					op.defers = append(op.defers, &deferReg{site: s, outer: o.defers[:k]})
				}
			}
		}
	}
	for _, reg := range op.defers {
		if p.err != nil {
			return
		}
		dk := deferredKeys(keys, reg)
		for range dk {
			if !p.spend() {
				return
			}
		}
		reg.plan = p.buildObject(op.typeName, dk)
	}
}

// deferredKeys returns the keys of reg's payload: those selected inside
// the fragment, with the chains below it, less those delivered before it
// in any case.
func deferredKeys(keys []*collected, reg *deferReg) []*collected {
	var out []*collected
	for _, c := range keys {
		var occ []occurrence
		earlier := false
		for _, o := range c.occ {
			if len(o.conds) == 0 && isPrefix(o.defers, reg.outer) {
				earlier = true
				break
			}
			if k := slices.Index(o.defers, reg.site); k >= 0 {
				occ = append(occ, occurrence{field: o.field, conds: o.conds, defers: o.defers[k+1:]})
			}
		}
		if !earlier && len(occ) > 0 {
			out = append(out, &collected{key: c.key, occ: occ})
		}
	}
	return out
}

// isPrefix reports whether a is a prefix of b.
func isPrefix(a, b []*deferSite) bool {
	return len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// markDefers runs markWork and markFast on the payload plans below op.
func markDefers(op *objectPlan, seen map[*objectPlan]bool) {
	if seen[op] {
		return
	}
	seen[op] = true
	for _, reg := range op.defers {
		markWork(reg.plan)
		markFast(reg.plan)
		markDefers(reg.plan, seen)
	}
	for _, f := range op.fields {
		if f.sub == nil {
			continue
		}
		if f.sub.object != nil {
			markDefers(f.sub.object, seen)
		}
		for _, t := range f.sub.byType {
			markDefers(t, seen)
		}
	}
}
