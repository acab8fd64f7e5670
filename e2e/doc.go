// Package e2e holds graft's black-box tests with real clients: the
// graphql-http conformance audits, Apollo Client's persisted-query link
// and GraphiQL in headless Chromium, each run by Node against a router
// started by the Go tests. See README.md for how to run them.
package e2e
