package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/envconf"
	graftotel "github.com/graftgql/graft/graftotel"
)

// telemetry is what the OpenTelemetry and metrics variables switched on.
// The OTEL_* variables are read by the OpenTelemetry SDK itself (the
// OTLP exporter its endpoint, headers and timeout, the tracer provider
// its sampler, the resource its service name and attributes); cmd/graft
// checks their values first, so that a bad one stops the server at
// start-up instead of being ignored, and decides whether to trace.
type telemetry struct {
	in          *graftotel.Instrumentation // nil: nothing to install
	tp          *sdktrace.TracerProvider   // nil: no tracing
	mp          *sdkmetric.MeterProvider   // nil: no metrics
	metrics     http.Handler
	metricsPath string
}

// parseTelemetry checks the variables and reports what they ask for.
func parseTelemetry(lookup env) (t envconf.Telemetry, exporters []string, err error) {
	var errs []error
	if err := envconf.Parse(&t, envconf.Lookup(lookup)); err != nil {
		errs = append(errs, err)
	}
	for item := range strings.SplitSeq(strings.ToLower(t.TracesExporter), ",") {
		switch item = strings.TrimSpace(item); item {
		case "":
		case "otlp", "console":
			exporters = append(exporters, item)
		case "none":
			if strings.Contains(t.TracesExporter, ",") {
				errs = append(errs, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: none cannot be listed with other exporters", t.TracesExporter))
			}
		default:
			errs = append(errs, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: want otlp, console or none (a comma-separated list of otlp and console)", t.TracesExporter))
		}
	}
	if strings.TrimSpace(t.TracesExporter) == "" && (t.Endpoint != "" || t.TracesEndpoint != "") {
		exporters = []string{"otlp"}
	}
	for _, v := range []struct{ name, value string }{
		{"OTEL_EXPORTER_OTLP_PROTOCOL", t.Protocol}, {"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", t.TracesProtocol},
	} {
		switch strings.ToLower(strings.TrimSpace(v.value)) {
		case "", "http/protobuf":
		case "grpc", "http/json":
			errs = append(errs, fmt.Errorf("%s=%q: cmd/graft exports OTLP over HTTP with protobuf only; set http/protobuf and point the endpoint at the receiver's HTTP port (4318)", v.name, v.value))
		default:
			errs = append(errs, fmt.Errorf("%s=%q: want http/protobuf", v.name, v.value))
		}
	}
	for _, v := range []struct{ name, value string }{
		{"OTEL_EXPORTER_OTLP_ENDPOINT", t.Endpoint}, {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", t.TracesEndpoint},
	} {
		if v.value == "" {
			continue
		}
		if u, err := url.Parse(v.value); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%s=%q: want an http:// or https:// URL such as http://localhost:4318", v.name, v.value))
		}
	}
	if t.Headers != "" {
		for item := range strings.SplitSeq(t.Headers, ",") {
			if k, _, ok := strings.Cut(item, "="); !ok || strings.TrimSpace(k) == "" {
				errs = append(errs, fmt.Errorf("OTEL_EXPORTER_OTLP_HEADERS: %q is not key=value", strings.TrimSpace(item)))
			}
		}
	}
	if t.ResourceAttrs != "" {
		for item := range strings.SplitSeq(t.ResourceAttrs, ",") {
			if k, _, ok := strings.Cut(item, "="); !ok || strings.TrimSpace(k) == "" {
				errs = append(errs, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %q is not key=value", strings.TrimSpace(item)))
			}
		}
	}
	sampler := strings.ToLower(strings.TrimSpace(t.Sampler))
	switch sampler {
	case "", "always_on", "always_off", "parentbased_always_on", "parentbased_always_off":
	case "traceidratio", "parentbased_traceidratio":
		if arg := strings.TrimSpace(t.SamplerArg); arg != "" {
			if r, err := strconv.ParseFloat(arg, 64); err != nil || r < 0 || r > 1 {
				errs = append(errs, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG=%q: want a ratio from 0 to 1", t.SamplerArg))
			}
		}
	default:
		errs = append(errs, fmt.Errorf("OTEL_TRACES_SAMPLER=%q: want always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio", t.Sampler))
	}
	if t.MetricsPath == "" {
		t.MetricsPath = "/metrics"
	} else if !strings.HasPrefix(t.MetricsPath, "/") || strings.ContainsAny(t.MetricsPath, " {}") {
		errs = append(errs, fmt.Errorf("METRICS_PATH=%q: want a path such as /metrics", t.MetricsPath))
	}
	return t, exporters, errors.Join(errs...)
}

// newTelemetry builds the tracer provider (when an exporter is asked
// for), the Prometheus metrics (METRICS_ENABLED) and the instrumentation
// installing both into the router. Console spans go to stdout.
func newTelemetry(ctx context.Context, t envconf.Telemetry, exporters []string, stdout io.Writer) (*telemetry, error) {
	tel := &telemetry{metricsPath: t.MetricsPath}
	if len(exporters) > 0 {
		res, err := resource.New(ctx,
			resource.WithAttributes(attribute.String("service.name", "graft")), // unless the environment names it
			resource.WithFromEnv(), resource.WithTelemetrySDK())
		if err != nil {
			return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES or OTEL_SERVICE_NAME: %w", err)
		}
		opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
		for _, name := range exporters {
			var exp sdktrace.SpanExporter
			switch name {
			case "otlp":
				exp, err = otlptracehttp.New(ctx)
			case "console":
				exp, err = stdouttrace.New(stdouttrace.WithWriter(stdout))
			}
			if err != nil {
				return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%s: %w", name, err)
			}
			opts = append(opts, sdktrace.WithBatcher(exp))
		}
		tel.tp = sdktrace.NewTracerProvider(opts...) // the sampler from OTEL_TRACES_SAMPLER
	}
	metricsOn := t.MetricsEnabled != nil && bool(*t.MetricsEnabled)
	if metricsOn {
		mp, h, err := graftotel.PrometheusHandler()
		if err != nil {
			tel.shutdown(ctx)
			return nil, fmt.Errorf("metrics: %w", err)
		}
		tel.mp, tel.metrics = mp, h
	}
	if tel.tp == nil && tel.mp == nil {
		return tel, nil
	}
	opts := graftotel.Options{NoTracing: tel.tp == nil, NoMetrics: tel.mp == nil}
	if tel.tp != nil {
		opts.TracerProvider = tel.tp
	}
	if tel.mp != nil {
		opts.MeterProvider = tel.mp
	}
	in, err := graftotel.New(opts)
	if err != nil {
		tel.shutdown(ctx)
		return nil, err
	}
	tel.in = in
	return tel, nil
}

// install adds the instrumentation to cfg.
func (tel *telemetry) install(cfg *graft.Config) {
	if tel.in != nil {
		tel.in.Install(cfg)
	}
}

// observe reports the router's open subscriptions in the metrics.
func (tel *telemetry) observe(r *graft.Router) error {
	if tel.in == nil {
		return nil
	}
	return tel.in.ObserveRouter(r)
}

// shutdown flushes the spans still batched and stops the providers,
// within ctx's deadline.
func (tel *telemetry) shutdown(ctx context.Context) error {
	var errs []error
	if tel.tp != nil {
		errs = append(errs, tel.tp.Shutdown(ctx))
	}
	if tel.mp != nil {
		errs = append(errs, tel.mp.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// shutdownWithin flushes within grace (the server's ShutdownGrace).
func (tel *telemetry) shutdownWithin(grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	return tel.shutdown(ctx)
}
