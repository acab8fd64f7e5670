package costlru

import (
	"fmt"
	"testing"
)

func TestCostBound(t *testing.T) {
	var lastEvictions uint64
	c, err := New[string, int](100, 10, 4, func(_, n uint64) { lastEvictions = n }, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if !c.Add(fmt.Sprint(i), i, 3) {
			t.Fatalf("Add(%d) refused", i)
		}
	}
	st := c.Stats()
	if st.Entries != 3 || st.Cost != 9 || st.Evictions != 2 || lastEvictions != 2 {
		t.Fatalf("stats = %+v, onEvict saw %d; want 3 entries costing 9 after 2 evictions", st, lastEvictions)
	}
	if _, ok := c.Get("0"); ok {
		t.Error("the oldest entry survived")
	}
	if v, ok := c.Get("4"); !ok || v != 4 {
		t.Errorf("Get(4) = %v, %v", v, ok)
	}
	if c.Add("big", 0, 5) {
		t.Error("an entry over the per-entry cost was stored")
	}
	if st := c.Stats(); st.Refused != 1 || st.Entries != 3 {
		t.Errorf("after a refused entry: %+v", st)
	}
}

func TestReplaceKeepsCost(t *testing.T) {
	c, err := New[string, int](100, 100, 100, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Add("a", 1, 10)
	c.Add("a", 2, 20)
	if st := c.Stats(); st.Entries != 1 || st.Cost != 20 || st.Evictions != 0 {
		t.Fatalf("stats = %+v, want one entry costing 20, no eviction", st)
	}
}

func TestEntryBound(t *testing.T) {
	c, err := New[int, int](2, 100, 100, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c.Add(i, i, 1)
	}
	if st := c.Stats(); st.Entries != 2 || st.Cost != 2 || st.Evictions != 1 {
		t.Fatalf("stats = %+v", st)
	}
}

func TestBadBounds(t *testing.T) {
	for _, b := range [][3]int64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}} {
		if _, err := New[int, int](int(b[0]), b[1], b[2], nil, nil); err == nil {
			t.Errorf("New%v: no error", b)
		}
	}
}

// TestOnRemove checks that onRemove sees every value that leaves the
// cache, evicted by either bound or replaced under its key, and none that
// stays or was refused.
func TestOnRemove(t *testing.T) {
	var removed []int
	c, err := New[string, int](2, 10, 9, nil, func(v int) { removed = append(removed, v) })
	if err != nil {
		t.Fatal(err)
	}
	c.Add("a", 1, 1)
	c.Add("b", 2, 1)
	c.Add("c", 3, 1)  // over two entries: 1 leaves
	c.Add("b", 4, 1)  // replaces 2
	c.Add("d", 5, 9)  // over two entries: 3 leaves
	c.Add("e", 6, 10) // refused
	c.Add("f", 7, 2)  // 4 leaves for the entries, then 5 for the cost
	if fmt.Sprint(removed) != "[1 2 3 4 5]" {
		t.Fatalf("onRemove saw %v, want [1 2 3 4 5]", removed)
	}
	if v, ok := c.Get("f"); !ok || v != 7 || c.Len() != 1 {
		t.Fatalf("Get(f) = %v, %v with %d entries", v, ok, c.Len())
	}
}
