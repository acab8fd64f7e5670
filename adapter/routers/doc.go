// Package routers shows, in its tests, the graft router mounted under a
// prefix in gin and echo. It is a separate module so that the main module
// does not depend on those frameworks; CI runs it with
// `cd adapter/routers && go test ./...`.
package routers
