package envconf

import (
	"fmt"
	"reflect"
	"strings"
)

// Var documents one environment variable, read from its field's tags in
// the declaration (see vars.go).
type Var struct {
	Name        string // the variable
	Field       string // the Go field it sets, if any
	Default     string // the library's default
	Graft       string // cmd/graft's default where it differs, else ""
	Description string
}

// Describe lists the variables of spec, a struct (or pointer to one) of
// the declaration, in declaration order.
func Describe(spec any) []Var {
	t := reflect.TypeOf(spec)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var vars []Var
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if name == "" {
			continue
		}
		vars = append(vars, Var{
			Name:        name,
			Field:       f.Tag.Get("field"),
			Default:     f.Tag.Get("default"),
			Graft:       f.Tag.Get("graft"),
			Description: f.Tag.Get("help"),
		})
	}
	return vars
}

// Section is a titled group of variables, as --help and the README show
// them.
type Section struct {
	Title  string // what reads them
	Struct string // the struct whose fields they set, if any
	Reader string // the entries that read them, as the table says it
	Vars   []Var
}

// Sections lists every variable graft reads, grouped by what reads them.
func Sections() []Section {
	return []Section{
		{"The router (graft.ConfigFromEnv and graftserver)", "graft.Config", "library, graftserver", Describe(Router{})},
		{"The server (graft.ServeOptionsFromEnv and graftserver)", "graft.ServeOptions", "library, graftserver", Describe(Serve{})},
		{"Persisted queries (persisted.ConfigFromEnv and graftserver)", "persisted.Options", "library, graftserver", Describe(Persisted{})},
		{"The production server (graftserver only)", "", "graftserver", Describe(Server{})},
		{"OpenTelemetry and metrics (graftserver only)", "", "graftserver", Describe(Telemetry{})},
		{"cmd/graft only", "", "cmd/graft", Describe(Example{})},
	}
}

// Markdown renders every section as the README's configuration table.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| variable | read by | field | default | `graftserver` | meaning |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, s := range Sections() {
		for _, v := range s.Vars {
			field := ""
			if v.Field != "" {
				field = "`" + s.Struct + "." + v.Field + "`"
			}
			graft := v.Graft
			if graft == "" {
				graft = v.Default
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", v.Name, s.Reader, field, cell(v.Default), cell(graft), v.Description)
		}
	}
	return b.String()
}

// cell quotes a default for a Markdown table: values in code, prose as is.
func cell(s string) string {
	if s == "" || strings.Contains(s, " ") && !strings.HasPrefix(s, "public,") {
		return s
	}
	return "`" + s + "`"
}
