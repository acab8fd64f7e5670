package gqlsyntax

// Token is a lexical token of a document, for the callers that place
// validation errors as graphql-js does.
type Token struct {
	// Kind is the punctuator itself ("{", "...", "$", "@"), or Name, Int,
	// Float, String, BlockString or <EOF>.
	Kind string
	// Value is the text of a name or number, the value of a string.
	Value string
	// Start and End are byte offsets in the document.
	Start, End int
}

// Tokens returns the tokens of src up to its first lexical error.
func Tokens(src string) []Token {
	toks, _ := lexAll(src)
	out := make([]Token, len(toks))
	for i, t := range toks {
		out[i] = Token{Kind: string(t.kind), Value: t.value, Start: t.start, End: t.end}
	}
	return out
}

// Offset converts gqlparser's line and column (in runes, the line after
// \r\n starting at the \n) to a byte offset of src.
func Offset(src string, line, column int) int { return offsetOf(src, line, column) }

// Location returns graphql-js's line and column (in UTF-16 code units) of
// the byte offset pos of src.
func Location(src string, pos int) (line, column int) {
	e := locate(src, "", pos)
	return e.Line, e.Column
}

// NonExecutable returns the type system definitions of src (schema,
// scalar, type, interface, union, enum, input, directive and their
// extensions), which graphql-js parses and then refuses with
// "The "Name" definition is not executable." (or "The schema definition
// ..."): each one's message and the location of its first token. Tokens
// are read at the top level only.
func NonExecutable(src string) []Error {
	toks, _ := lexAll(src)
	var out []Error
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case "{", "(", "[":
			depth++
			continue
		case "}", ")", "]":
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		start := i
		if (t.kind == kindString || t.kind == kindBlockString) && i+1 < len(toks) {
			i++
		}
		k := toks[i]
		if k.kind != kindName {
			continue
		}
		j := i
		if k.value == "extend" && j+1 < len(toks) {
			j++
		}
		before := len(out)
		switch toks[j].value {
		case "schema":
			out = append(out, *locate(src, "The schema definition is not executable.", toks[start].start))
		case "scalar", "type", "interface", "union", "enum", "input":
			if j+1 < len(toks) && toks[j+1].kind == kindName {
				out = append(out, *locate(src, `The "`+toks[j+1].value+`" definition is not executable.`, toks[start].start))
			}
		case "directive":
			if j+2 < len(toks) && toks[j+1].kind == "@" && toks[j+2].kind == kindName {
				out = append(out, *locate(src, `The "`+toks[j+2].value+`" definition is not executable.`, toks[start].start))
			}
		}
		if len(out) > before {
			i = j
		}
	}
	return out
}
