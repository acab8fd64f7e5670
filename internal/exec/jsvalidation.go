package exec

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/graftgql/graft/internal/gqlsyntax"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Validation errors as graphql-js 16 gives them. gqlparser's rules word
// their messages as graphql-js does but often point elsewhere: at a field
// where graphql-js points at its argument, after the @ of a directive or
// the quote of a string, at the second of two duplicates where graphql-js
// gives both; some of its rules report errors graphql-js does not (a
// field selected on a scalar is reported both as an unknown field and as
// a leaf with a selection; a variable of an unknown type is also
// misplaced), word others differently (an object literal where a leaf is
// expected is an unknown input field), and an error inside a fragment
// comes once per spread. jsValidationErrors corrects these from the
// document's tokens. The differences it leaves are listed with their
// reasons in e2e/testdata/differential.json.

var (
	reUnknownType      = lazyRegexp(`^Unknown type "([^"]+)"\.`)
	reNonComposite     = lazyRegexp(`cannot condition on non composite type "([^"]+)"\.$`)
	reNonInput         = lazyRegexp(`^Variable "\$[^"]+" cannot be non-input type "([^"]+)"\.$`)
	reUnknownArg       = lazyRegexp(`^Unknown argument "([^"]+)" on `)
	reDupArg           = lazyRegexp(`^There can be only one argument named "([^"]+)"\.$`)
	reDupOperation     = lazyRegexp(`^There can be only one operation named "([^"]*)"\.$`)
	reDupFragment      = lazyRegexp(`^There can be only one fragment named "([^"]+)"\.$`)
	reDupVariable      = lazyRegexp(`^There can be only one variable named "\$([^"]+)"\.$`)
	reDupDirective     = lazyRegexp(`^The directive "@([^"]+)" can only be used once at this location\.$`)
	reVarPosition      = lazyRegexp(`^Variable "\$([^"]+)" of type "([^"]+)" used in position expecting type "[^"]+"\.$`)
	reVarUndefined     = lazyRegexp(`^Variable "\$([^"]+)" is not defined`)
	reVarUnused        = lazyRegexp(`^Variable "\$([^"]+)" is never used`)
	reFieldOnType      = lazyRegexp(`^Cannot query field "[^"]+" on type "([^"]+)"\.`)
	reConflict         = lazyRegexp(`^Fields "([^"]+)" conflict because (they|"[^"]+" and)`)
	reSubConflict      = lazyRegexp(`^Fields "([^"]+)" conflict because subfields "`)
	reSubKey           = lazyRegexp(`subfields "([^"]+)" conflict because`)
	reCycleVia         = lazyRegexp(`^Cannot spread fragment "([^"]+)" within itself via "([^"]+)"`)
	reQuoted           = lazyRegexp(`"([^"]+)"`)
	reNotInputField    = lazyRegexp(`^Field "[^"]+" is not defined by type "([^"]+)"\.$`)
	reLeafSubselection = lazyRegexp(`^Field "[^"]+" must not have a selection since type "[^"]+" has no subfields\.$`)
)

// lazyRegexp returns a pattern compiled on first use: the patterns above
// serve only documents that fail validation, so a server that never sees
// one never compiles them (nor holds them, nor runs the compiler's code
// at start).
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// jsValidation places the validation errors of one document.
type jsValidation struct {
	src    string
	schema *ast.Schema
	toks   []gqlsyntax.Token
}

// jsValidationErrors returns errs corrected as the comment above says.
func jsValidationErrors(s *ast.Schema, src string, errs gqlerror.List) gqlerror.List {
	v := &jsValidation{src: src, schema: s, toks: gqlsyntax.Tokens(src)}
	dupVars := map[string]bool{}
	for _, ge := range errs {
		if m := reDupVariable().FindStringSubmatch(ge.Message); m != nil {
			dupVars[m[1]] = true
		}
	}
	out := errs[:0]
	var seen map[string]bool
	for _, ge := range errs {
		if m := reFieldOnType().FindStringSubmatch(ge.Message); m != nil {
			// graphql-js checks fields only where the parent type is
			// composite; a selection on a leaf is ScalarLeafs' error.
			if t := s.Types[m[1]]; t != nil && !t.IsCompositeType() {
				continue
			}
		}
		if strings.HasPrefix(ge.Message, `Directive "@defer" may not be used on `) && (s.Directives["defer"] == nil || builtIn(s.Directives["defer"].Position)) {
			continue // @defer is unknown (noDeferRule)
		}
		if ge.Message == `There can be only one operation named "".` {
			continue // LoneAnonymousOperation reports it
		}
		if m := reVarUnused().FindStringSubmatch(ge.Message); m != nil && dupVars[m[1]] {
			continue // the second definition of a duplicated variable
		}
		if m := reDupDirective().FindStringSubmatch(ge.Message); m != nil && s.Directives[m[1]] == nil {
			continue // an unknown directive: KnownDirectives' error
		}
		if m := reVarPosition().FindStringSubmatch(ge.Message); m != nil && s.Types[strings.Trim(m[2], "[]!")] == nil {
			continue // a variable of an unknown type: KnownTypeNames' error
		}
		placed := false
		if m := reNotInputField().FindStringSubmatch(ge.Message); m != nil && len(ge.Locations) == 1 {
			if t := s.Types[m[1]]; t != nil && (t.Kind == ast.Scalar || t.Kind == ast.Enum) {
				// An object literal where a leaf is expected: graphql-js
				// reports the object once, as a value the type cannot
				// represent.
				if msg, at, ok := v.leafObject(t, ge.Locations[0]); ok {
					ge.Message, ge.Locations, placed = msg, []gqlerror.Location{at}, true
				}
			}
		}
		if len(ge.Locations) == 1 && !placed {
			ge.Locations = v.locations(ge.Message, ge.Locations[0])
		}
		if len(errs) > 1 {
			// gqlparser checks a fragment's selections again at each
			// of its spreads; graphql-js reports each node once.
			key := errorKey(ge)
			if seen[key] {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[key] = true
		}
		out = append(out, ge)
	}
	return out
}

// errorKey is ge's message and locations.
func errorKey(ge *gqlerror.Error) string {
	b := []byte(ge.Message)
	for _, l := range ge.Locations {
		b = fmt.Appendf(b, "\x00%d:%d", l.Line, l.Column)
	}
	return string(b)
}

// token returns the index of the token that starts at or holds the byte
// offset off, or -1.
func (v *jsValidation) token(off int) int {
	for i, t := range v.toks {
		if t.End > off {
			return i
		}
	}
	return -1
}

func (v *jsValidation) loc(i int) gqlerror.Location {
	line, col := gqlsyntax.Location(v.src, v.toks[i].Start)
	return gqlerror.Location{Line: line, Column: col}
}

// isName reports whether token i is the name value.
func (v *jsValidation) isName(i int, value string) bool {
	return i >= 0 && i < len(v.toks) && v.toks[i].Kind == "Name" && v.toks[i].Value == value
}

func (v *jsValidation) isKind(i int, kind string) bool {
	return i >= 0 && i < len(v.toks) && v.toks[i].Kind == kind
}

// forward returns the first token from i on (within a short distance)
// for which ok holds, or -1.
func (v *jsValidation) forward(i int, ok func(int) bool) int {
	for j := i; j >= 0 && j < len(v.toks) && j < i+16; j++ {
		if ok(j) {
			return j
		}
	}
	return -1
}

// selectionSetOf returns the "{" that opens the selection set of the
// field at token i, past its arguments and directives however long, or
// -1 when it has none.
func (v *jsValidation) selectionSetOf(i int) int {
	depth := 0
	for j := i; j >= 0 && j < len(v.toks); j++ {
		switch v.toks[j].Kind {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		case "{":
			if depth == 0 {
				return j
			}
			depth++ // an input object's braces
		case "}":
			if depth == 0 {
				return -1
			}
			depth--
		}
	}
	return -1
}

// first returns the first token of the document for which ok holds, or
// -1.
func (v *jsValidation) first(ok func(int) bool) int {
	for j := range v.toks {
		if ok(j) {
			return j
		}
	}
	return -1
}

// backward returns the nearest token before i for which ok holds, or -1.
func (v *jsValidation) backward(i int, ok func(int) bool) int {
	for j := i - 1; j >= 0; j-- {
		if ok(j) {
			return j
		}
	}
	return -1
}

// locations returns graphql-js's locations for an error that gqlparser
// placed at l.
func (v *jsValidation) locations(msg string, l gqlerror.Location) []gqlerror.Location {
	i := v.token(gqlsyntax.Offset(v.src, l.Line, l.Column))
	if i < 0 {
		return []gqlerror.Location{l}
	}
	// gqlparser points at the name of a directive, graphql-js at its @;
	// and at the name of a fragment spread or the "on" of an inline
	// fragment, graphql-js at the "...".
	if v.isKind(i-1, "@") {
		i--
	} else if v.isKind(i-1, "...") && !strings.HasPrefix(msg, "Unknown fragment") {
		i--
	}
	one := func(j int) []gqlerror.Location {
		if j < 0 {
			return []gqlerror.Location{l}
		}
		return []gqlerror.Location{v.loc(j)}
	}
	two := func(first, second int) []gqlerror.Location {
		if first < 0 || second < 0 {
			return one(second)
		}
		return []gqlerror.Location{v.loc(first), v.loc(second)}
	}
	argNamed := func(name string) func(int) bool {
		return func(j int) bool { return v.isName(j, name) && v.isKind(j+1, ":") }
	}
	varDefined := func(name string) func(int) bool {
		return func(j int) bool { return v.isKind(j, "$") && v.isName(j+1, name) && v.isKind(j+2, ":") }
	}
	namedAfter := func(keywords ...string) func(name string) func(int) bool {
		return func(name string) func(int) bool {
			return func(j int) bool {
				if !v.isName(j, name) || j == 0 || v.toks[j-1].Kind != "Name" {
					return false
				}
				for _, k := range keywords {
					if v.toks[j-1].Value == k {
						return true
					}
				}
				return false
			}
		}
	}
	switch {
	case strings.HasPrefix(msg, "Field ") && reLeafSubselection().MatchString(msg):
		// graphql-js points at the selection set.
		return one(v.selectionSetOf(i))
	}
	if m := firstMatch(msg, reUnknownType, reNonComposite, reNonInput); m != "" {
		name := strings.Trim(m, "[]!")
		return one(v.forward(i, func(j int) bool { return v.isName(j, name) }))
	}
	if m := reUnknownArg().FindStringSubmatch(msg); m != nil {
		return one(v.forward(i, argNamed(m[1])))
	}
	if m := reDupArg().FindStringSubmatch(msg); m != nil {
		second := v.forward(i, argNamed(m[1]))
		return two(v.backward(second, argNamed(m[1])), second)
	}
	if m := reDupOperation().FindStringSubmatch(msg); m != nil {
		named := namedAfter("query", "mutation", "subscription")(m[1])
		second := v.forward(i, named)
		return two(v.first(named), second)
	}
	if m := reDupFragment().FindStringSubmatch(msg); m != nil {
		named := namedAfter("fragment")(m[1])
		return two(v.first(named), v.forward(i, named))
	}
	if m := reDupVariable().FindStringSubmatch(msg); m != nil {
		second := v.forward(i, varDefined(m[1]))
		first := v.backward(second, varDefined(m[1]))
		if first < 0 || second < 0 {
			return one(second)
		}
		return two(first+1, second+1) // graphql-js points at the names
	}
	if m := reDupDirective().FindStringSubmatch(msg); m != nil {
		first := v.backward(i, func(j int) bool { return v.isKind(j, "@") && v.isName(j+1, m[1]) })
		return two(first, i)
	}
	if m := firstMatch(msg, reConflict, reSubConflict); m != "" {
		// The first selection of the response key, in this selection set
		// or a fragment beside it: graphql-js gives both, each followed by
		// its conflicting sub-selections.
		first := v.firstSelection(i, m)
		if first < 0 {
			return one(i)
		}
		var subKeys []string
		for _, sm := range reSubKey().FindAllStringSubmatch(msg, -1) {
			subKeys = append(subKeys, sm[1])
		}
		a, b := v.subSelections(first, subKeys), v.subSelections(i, subKeys)
		if a == nil || b == nil {
			return one(i)
		}
		return append(a, b...)
	}
	if m := reCycleVia().FindStringSubmatch(msg); m != nil {
		// graphql-js gives the spread of each fragment of the cycle in
		// the one before it: the first via inside the fragment that
		// cycles, each next via inside the one before, and last (where
		// gqlparser points) the cycling fragment's own spread.
		names := []string{m[1]}
		for _, q := range reQuoted().FindAllStringSubmatch(msg[strings.Index(msg, " via ")+5:], -1) {
			names = append(names, q[1])
		}
		var out []gqlerror.Location
		for k := 0; k+1 < len(names); k++ {
			j := v.spreadIn(names[k], names[k+1])
			if j < 0 {
				return one(i)
			}
			out = append(out, v.loc(j))
		}
		return append(out, v.loc(i))
	}
	if m := reVarPosition().FindStringSubmatch(msg); m != nil {
		return two(v.backward(i, varDefined(m[1])), i)
	}
	if reVarUndefined().MatchString(msg) {
		// The second location is the operation's start.
		depth, op := 0, -1
		for j := 0; j < i; j++ {
			switch v.toks[j].Kind {
			case "Name":
				// An operation's keyword: the variable may be in its
				// header (a directive on the operation).
				if depth == 0 && (j == 0 || v.toks[j-1].Kind == "}") {
					switch v.toks[j].Value {
					case "query", "mutation", "subscription":
						op = j
					}
				}
			case "{":
				if depth == 0 {
					op = j
					if j > 0 && v.toks[j-1].Kind != "}" {
						op = v.backward(j, func(k int) bool {
							return v.toks[k].Kind == "Name" && (v.toks[k].Value == "query" || v.toks[k].Value == "mutation" || v.toks[k].Value == "subscription")
						})
					}
				}
				depth++
			case "}":
				depth--
			}
		}
		return two(i, op)
	}
	return one(i)
}

// spreadIn returns the first spread of fragment name inside the
// definition of fragment def, or -1.
func (v *jsValidation) spreadIn(def, name string) int {
	start := v.first(func(j int) bool { return v.isName(j, "fragment") && v.isName(j+1, def) })
	if start < 0 {
		return -1
	}
	depth := 0
	for j := start; j < len(v.toks); j++ {
		switch v.toks[j].Kind {
		case "{":
			depth++
		case "}":
			if depth--; depth == 0 {
				return -1 // the end of the fragment
			}
		case "...":
			if v.isName(j+1, name) {
				return j
			}
		}
	}
	return -1
}

// firstSelection returns the nearest selection of the response key
// before token i, in its selection set or one beside it, or -1.
func (v *jsValidation) firstSelection(i int, key string) int {
	rel, paren := 0, 0
	return v.backward(i, func(j int) bool {
		switch v.toks[j].Kind {
		case "}":
			rel++
		case "{":
			rel--
		case ")":
			paren++
		case "(":
			paren--
		}
		return rel <= 0 && paren == 0 && v.isResponseKey(j, key)
	})
}

// isResponseKey reports whether token j names the response key key: an
// alias, or a field name without alias.
func (v *jsValidation) isResponseKey(j int, key string) bool {
	return v.isName(j, key) && !v.isKind(j-1, ":") && !v.isKind(j-1, "$") && !v.isKind(j-1, "@") &&
		!v.isName(j-1, "on") && !v.isKind(j-1, "...")
}

// subSelections returns the locations of the field at token i and of the
// chain of sub-selections keys within it, or nil when one is not found.
func (v *jsValidation) subSelections(i int, keys []string) []gqlerror.Location {
	locs := []gqlerror.Location{v.loc(i)}
	cur := i
	for _, key := range keys {
		// The field's selection set: the first { after it, past its
		// arguments.
		open, paren := -1, 0
		for j := cur + 1; j < len(v.toks) && open < 0; j++ {
			switch v.toks[j].Kind {
			case "(":
				paren++
			case ")":
				paren--
			case "{":
				if paren == 0 {
					open = j
				}
			case "}":
				if paren == 0 {
					return nil
				}
			}
		}
		if open < 0 {
			return nil
		}
		depth, found := 0, -1
		for j := open; j < len(v.toks); j++ {
			switch v.toks[j].Kind {
			case "{":
				depth++
			case "}":
				depth--
			case "(":
				paren++
			case ")":
				paren--
			}
			if depth == 0 {
				break
			}
			if paren == 0 && v.isResponseKey(j, key) {
				found = j
				break
			}
		}
		if found < 0 {
			return nil
		}
		locs = append(locs, v.loc(found))
		cur = found
	}
	return locs
}

// firstMatch returns the first submatch of msg by any of res, or "".
func firstMatch(msg string, res ...func() *regexp.Regexp) string {
	for _, re := range res {
		if m := re().FindStringSubmatch(msg); m != nil {
			return m[1]
		}
	}
	return ""
}

// leafObject returns graphql-js's error for the object literal holding
// the member gqlparser reported at l, where a value of the leaf type t is
// expected: its message and the location of the object (the outermost of
// nested ones).
func (v *jsValidation) leafObject(t *ast.Definition, l gqlerror.Location) (string, gqlerror.Location, bool) {
	i := v.token(gqlsyntax.Offset(v.src, l.Line, l.Column))
	open := v.opener(i)
	if open < 0 || v.toks[open].Kind != "{" {
		return "", l, false
	}
	for {
		up := v.opener(open)
		if up < 0 || v.toks[up].Kind != "{" || !v.isKind(open-1, ":") {
			break
		}
		open = up
	}
	lit, ok := v.printValue(open)
	if !ok {
		return "", l, false
	}
	var msg string
	switch t.Name {
	case "String":
		msg = "String cannot represent a non string value: " + lit
	case "Boolean":
		msg = "Boolean cannot represent a non boolean value: " + lit
	case "Int":
		msg = "Int cannot represent non-integer value: " + lit
	case "Float":
		msg = "Float cannot represent non numeric value: " + lit
	case "ID":
		msg = "ID cannot represent a non-string and non-integer value: " + lit
	default:
		if t.Kind != ast.Enum {
			return "", l, false // a custom scalar: its own rule's
		}
		msg = `Enum "` + t.Name + `" cannot represent non-enum value: ` + lit + "."
	}
	return msg, v.loc(open), true
}

// opener returns the "{", "[" or "(" that encloses token i, or -1.
func (v *jsValidation) opener(i int) int {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch v.toks[j].Kind {
		case "}", "]", ")":
			depth++
		case "{", "[", "(":
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return -1
}

// printValue prints the value literal that starts at token i as
// graphql-js's print does: {a: 1, b: [x, "s"]}.
func (v *jsValidation) printValue(i int) (string, bool) {
	var b strings.Builder
	end, ok := v.writeValue(&b, i, 0)
	return b.String(), ok && end > i
}

// writeValue writes the value at token i to b and returns the index of
// the token after it.
func (v *jsValidation) writeValue(b *strings.Builder, i, depth int) (int, bool) {
	if i >= len(v.toks) || depth > 32 {
		return i, false
	}
	t := v.toks[i]
	switch t.Kind {
	case "{", "[":
		closer := "}"
		if t.Kind == "[" {
			closer = "]"
		}
		b.WriteString(t.Kind)
		j := i + 1
		for n := 0; ; n++ {
			if j >= len(v.toks) {
				return j, false
			}
			if v.toks[j].Kind == closer {
				b.WriteString(closer)
				return j + 1, true
			}
			if n > 0 {
				b.WriteString(", ")
			}
			if t.Kind == "{" {
				if !v.isKind(j, "Name") || !v.isKind(j+1, ":") {
					return j, false
				}
				b.WriteString(v.toks[j].Value + ": ")
				j += 2
			}
			var ok bool
			if j, ok = v.writeValue(b, j, depth+1); !ok {
				return j, false
			}
		}
	case "$":
		if !v.isKind(i+1, "Name") {
			return i, false
		}
		b.WriteString("$" + v.toks[i+1].Value)
		return i + 2, true
	case "String", "BlockString":
		b.WriteString(gqlsyntax.Quote(t.Value))
		return i + 1, true
	case "Name", "Int", "Float":
		b.WriteString(t.Value)
		return i + 1, true
	}
	return i, false
}
