module github.com/graftgql/graft/gqlgen

go 1.26.0

replace github.com/graftgql/graft => ../

require (
	github.com/99designs/gqlgen v0.17.98
	github.com/goccy/go-yaml v1.19.2
	github.com/graftgql/graft v0.0.0-00010101000000-000000000000
	github.com/vektah/gqlparser/v2 v2.5.64
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/caarlos0/env/v11 v11.4.2 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-viper/mapstructure/v2 v2.5.0 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/ws v1.5.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/rs/cors v1.11.1 // indirect
	github.com/sosodev/duration v1.4.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
