package wiretest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeRow is one row of README.md's status table.
type readmeRow struct {
	condition string
	status    int
	allow     string // from "405, `Allow: POST`"
	code      string // the first `CODE` of the code cell, "" for "the resolver's own"
}

var (
	statusRE = regexp.MustCompile("^(\\d{3})(?:, `([A-Za-z-]+): ([^`]*)`)?$")
	codeRE   = regexp.MustCompile("^`([A-Z_]+)`")
)

// readmeStatusTable parses the table of docs/http.md whose header
// is "| condition | status | `extensions.code` |".
func readmeStatusTable(t *testing.T) []readmeRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "http.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "# GraphQL over HTTP")
	header := strings.Index(text[max(start, 0):], "| condition | status | `extensions.code` |")
	if start < 0 || header < 0 {
		t.Fatal("docs/http.md has no status table")
	}
	var rows []readmeRow
	lines := strings.Split(text[start+header:], "\n")
	for _, line := range lines[2:] { // skip the header and the --- row
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("README status row %q: want 3 cells", line)
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		m := statusRE.FindStringSubmatch(cells[1])
		if m == nil {
			t.Fatalf("README status row %q: status cell %q", line, cells[1])
		}
		status, _ := strconv.Atoi(m[1])
		row := readmeRow{condition: cells[0], status: status}
		if m[2] == "Allow" {
			row.allow = m[3]
		}
		if c := codeRE.FindStringSubmatch(cells[2]); c != nil {
			row.code = c[1]
		}
		rows = append(rows, row)
	}
	return rows
}

// TestREADMEStatusTable holds README.md's status table and wire.json
// together: every row is shown by at least one case with its status,
// Allow header and code (or is listed in readmeRowsWithoutCase with the
// reason), and every case's readme names a row.
func TestREADMEStatusTable(t *testing.T) {
	rows := readmeStatusTable(t)
	if len(rows) == 0 {
		t.Fatal("README.md's status table has no rows")
	}
	byCondition := map[string]readmeRow{}
	for _, r := range rows {
		byCondition[r.condition] = r
	}
	shown := map[string]int{}
	for _, c := range Cases() {
		if c.Readme == "" {
			continue
		}
		r, ok := byCondition[c.Readme]
		if !ok {
			t.Errorf("case %q names README row %q, which README.md lacks", c.Name, c.Readme)
			continue
		}
		shown[c.Readme]++
		if c.Want != r.status || c.Allow != r.allow {
			t.Errorf("case %q: status %d, Allow %q; README row %q says %d, Allow %q", c.Name, c.Want, c.Allow, r.condition, r.status, r.allow)
		}
		if r.code != "" && c.Code != r.code {
			t.Errorf("case %q: code %q; README row %q says %s", c.Name, c.Code, r.condition, r.code)
		}
	}
	uncovered := map[string]bool{}
	for _, u := range ReadmeRowsWithoutCase() {
		if _, ok := byCondition[u.Row]; !ok || u.Why == "" {
			t.Errorf("readmeRowsWithoutCase names %q: not a README row, or no reason given", u.Row)
		}
		uncovered[u.Row] = true
	}
	for _, r := range rows {
		if shown[r.condition] == 0 && !uncovered[r.condition] {
			t.Errorf("README row %q (%d %s) is shown by no case of wire.json", r.condition, r.status, r.code)
		}
	}
}

// TestCasesAreWellFormed checks wire.json: unique names, a method, a path
// and a status in every case.
func TestCasesAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Cases() {
		if c.Name == "" || c.Method == "" || !strings.HasPrefix(c.Path, "/") || c.Want < 100 {
			t.Errorf("case %+v: want a name, a method, a path and a status", c)
		}
		if seen[c.Name] {
			t.Errorf("case name %q is used twice", c.Name)
		}
		seen[c.Name] = true
	}
}
