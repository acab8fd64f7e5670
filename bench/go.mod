module github.com/graftgql/graft/bench

go 1.26.0

replace github.com/graftgql/graft => ../

require (
	github.com/99designs/gqlgen v0.17.98
	github.com/graph-gophers/dataloader/v7 v7.1.0
	github.com/valyala/fasthttp v1.78.0
	github.com/vektah/gqlparser/v2 v2.5.64
	github.com/vikstrous/dataloadgen v0.0.10
)

require (
	github.com/caarlos0/env/v11 v11.4.2 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/ws v1.5.0 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/molecule-man/go-brrr v1.3.1 // indirect
	github.com/rs/cors v1.11.1 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	go.opentelemetry.io/otel v1.47.0 // indirect
	go.opentelemetry.io/otel/trace v1.47.0 // indirect
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-viper/mapstructure/v2 v2.5.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/graftgql/graft v0.0.0-00010101000000-000000000000
	github.com/graftgql/graft/gqlgen v0.0.0-00010101000000-000000000000
	github.com/graph-gophers/graphql-go v1.11.0
	github.com/graphql-go/graphql v0.8.1
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/sosodev/duration v1.4.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

replace github.com/graftgql/graft/gqlgen => ../gqlgen
