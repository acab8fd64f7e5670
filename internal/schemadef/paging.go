package schemadef

import "math"

// Paging describes a field that returns one page of a list, such as a
// Relay connection, for the complexity analysis (see PageCost).
type Paging struct {
	// SizeArgs are the arguments that give the page size, in order of
	// preference: the first one given (not null) counts.
	SizeArgs []string
	// ItemFields are the fields of the result paid once per item of the
	// page: for a connection, edges and nodes.
	ItemFields []string
	// DefaultSize is the page size when no size argument is given.
	DefaultSize int
	// MaxSize caps the page size; zero means no cap.
	MaxSize int
}

// Size returns the page size a field with these coerced arguments asks
// for: the first size argument given, else DefaultSize, clamped to
// 0..MaxSize.
func (p *Paging) Size(args map[string]any) int {
	n := int64(p.DefaultSize)
	for _, name := range p.SizeArgs {
		if v, ok := args[name].(int64); ok {
			n = v
			break
		}
		if v, ok := args[name].(int); ok {
			n = int64(v)
			break
		}
	}
	if p.MaxSize > 0 && n > int64(p.MaxSize) {
		n = int64(p.MaxSize)
	}
	return int(max(0, min(n, math.MaxInt)))
}

// IsItemField reports whether name is one of the item fields.
func (p *Paging) IsItemField(name string) bool {
	for _, f := range p.ItemFields {
		if f == name {
			return true
		}
	}
	return false
}

// PageCost declares a field that returns one page of a list: its cost is
// 1, plus the page size times the cost of what is selected under the item
// fields, plus the cost of the other selected fields once.
func PageCost(p Paging) Option {
	return func(o *options) { o.page = &p }
}
