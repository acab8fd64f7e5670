module github.com/graftgql/graft

go 1.26

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/vektah/gqlparser/v2 v2.5.64 // indirect
)
