package graft

import (
	"fmt"
	"time"

	"github.com/graftgql/graft/internal/envconf"
)

// ConfigFromEnv reads a Config from the process environment; it is
// Config{}.WithEnv(nil). README.md's configuration table lists every
// variable with its default.
func ConfigFromEnv() (Config, error) { return Config{}.WithEnv(nil) }

// ConfigFromLookup is ConfigFromEnv reading variables through lookup
// (os.LookupEnv when nil), for tests and other sources.
func ConfigFromLookup(lookup func(string) (string, bool)) (Config, error) {
	return Config{}.WithEnv(lookup)
}

// WithEnv returns c with every variable that is set (through lookup, or
// os.LookupEnv when nil) written over the field it configures, and the
// defaults filled in. A variable that is unset or empty keeps c's value,
// so an application supplies its own defaults by setting fields before the
// call:
//
//	cfg, err := graft.Config{Complexity: limits.Config{MaxDepth: 10}}.WithEnv(nil)
//
// and an explicit GRAPHQL_MAX_DEPTH=0 still switches that limit off, since
// a zero depth, complexity, field, alias or directive limit is unlimited
// (0 for a size, the timeout or the cache size takes the default). A bad value is an error naming the variable
// and the value; every bad variable is reported at once.
func (c Config) WithEnv(lookup func(string) (string, bool)) (Config, error) {
	var s envconf.Router
	if err := envconf.Parse(&s, lookup); err != nil {
		return Config{}, err
	}
	setString(&c.Path, s.Path)
	if s.GraphiQLEnabled != nil {
		c.GraphiQL = nil
		if *s.GraphiQLEnabled {
			c.GraphiQL = &GraphiQLConfig{}
		}
	}
	if c.GraphiQL != nil {
		g := *c.GraphiQL
		setString(&g.Path, s.GraphiQLPath)
		setString(&g.Endpoint, s.GraphiQLEndpoint)
		setString(&g.AssetBaseURL, s.GraphiQLAssetBaseURL)
		setString(&g.FrameAncestors, s.GraphiQLFrameAnc)
		setString(&g.Assets, s.GraphiQLAssets)
		c.GraphiQL = &g
	}
	setInt(&c.Complexity.MaxDepth, s.MaxDepth)
	setInt(&c.Complexity.MaxComplexity, s.MaxComplexity)
	setInt(&c.Complexity.MaxFields, s.MaxFields)
	setInt(&c.Complexity.MaxAliases, s.MaxAliases)
	setInt(&c.Complexity.MaxDirectives, s.MaxDirectives)
	setBool(&c.ReportComplexity, s.ReportComplexity)
	if s.MaxBodyBytes != nil {
		c.MaxBodyBytes = int64(*s.MaxBodyBytes)
	}
	setInt(&c.MaxTokens, s.MaxTokens)
	setInt(&c.MaxResponseBytes, s.MaxResponseBytes)
	if s.Introspection != nil {
		c.DisableIntrospection = !bool(*s.Introspection)
	}
	setInt(&c.DocumentCacheSize, s.DocumentCacheSize)
	if s.DocumentCacheBytes != nil {
		c.DocumentCacheBytes = int64(*s.DocumentCacheBytes)
	}
	setInt(&c.MaxInFlight, s.MaxInFlight)
	setInt(&c.MaxBatch, s.MaxBatch)
	if s.MaxBufferedBytes != nil {
		c.MaxBufferedBytes = int64(*s.MaxBufferedBytes)
	}
	setDuration(&c.Timeout, s.Timeout)
	setBool(&c.MaskErrors, s.MaskErrors)
	if s.StatusCodes != "" {
		switch StatusCodes(s.StatusCodes) {
		case StatusCodesApollo, StatusCodesSpec, StatusCodesLegacy:
			c.StatusCodes = StatusCodes(s.StatusCodes)
		case statusCodesSeed:
			c.StatusCodes = StatusCodesApollo
		default:
			return Config{}, fmt.Errorf("graft: GRAPHQL_STATUS_CODES=%q: want apollo, spec or legacy", s.StatusCodes)
		}
	} else if s.SpecStatusCodes != nil && bool(*s.SpecStatusCodes) {
		c.StatusCodes = StatusCodesLegacy // the boolean this variable replaced
	}
	setInt64(&c.Uploads.MaxFileBytes, s.UploadMaxFileBytes)
	setInt(&c.Uploads.MaxFiles, s.UploadMaxFiles)
	setInt64(&c.Uploads.MaxBytes, s.UploadMaxBytes)
	setInt(&c.Uploads.MaxParts, s.UploadMaxParts)
	setInt(&c.Uploads.MaxMapPaths, s.UploadMaxMapPaths)
	setInt64(&c.Uploads.MaxOperationsBytes, s.UploadMaxOpsBytes)
	setInt(&c.Uploads.MaxOperationsDepth, s.UploadMaxOpsDepth)
	setInt64(&c.Uploads.MemoryFileBytes, s.UploadMemoryFile)
	setInt64(&c.Uploads.MaxMemoryBytes, s.UploadMaxMemory)
	setInt64(&c.Uploads.MaxDiskBytes, s.UploadMaxDisk)
	setString(&c.Uploads.TempDir, s.UploadTempDir)
	if s.CSRF != nil {
		c.CSRF = nil
		if *s.CSRF {
			c.CSRF = &CSRFConfig{}
		}
	}
	return c.withDefaults()
}

// ServeOptionsFromEnv reads the server's own settings (PORT, HOST,
// SHUTDOWN_GRACE, SHUTDOWN_DELAY) from the process environment; it is
// ServeOptions{}.WithEnv(nil).
func ServeOptionsFromEnv() (ServeOptions, error) { return ServeOptions{}.WithEnv(nil) }

// WithEnv returns o with every variable that is set (through lookup, or
// os.LookupEnv when nil) written over its field: PORT, HOST,
// SHUTDOWN_GRACE and SHUTDOWN_DELAY. Unset variables keep o's values; zero fields still take
// Serve's defaults. A bad value is an error naming the variable and the
// value.
func (o ServeOptions) WithEnv(lookup func(string) (string, bool)) (ServeOptions, error) {
	var s envconf.Serve
	if err := envconf.Parse(&s, lookup); err != nil {
		return ServeOptions{}, err
	}
	if s.Port != nil {
		o.Port = int(*s.Port)
	}
	setString(&o.Host, s.Host)
	setDuration(&o.ShutdownGrace, s.ShutdownGrace)
	setDuration(&o.ShutdownDelay, s.ShutdownDelay)
	return o, nil
}

func setString(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

func setInt(dst *int, v *envconf.Limit) {
	if v != nil {
		*dst = int(*v)
	}
}

func setBool(dst *bool, v *envconf.Bool) {
	if v != nil {
		*dst = bool(*v)
	}
}

func setDuration(dst *time.Duration, v *envconf.Duration) {
	if v != nil {
		*dst = time.Duration(*v)
	}
}

func setInt64(dst *int64, v *envconf.Limit) {
	if v != nil {
		*dst = int64(*v)
	}
}
