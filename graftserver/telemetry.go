package graftserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/graftotel"
	"github.com/graftgql/graft/graftserver/internal/otlpspans"
	"github.com/graftgql/graft/internal/envconf"
)

// telemetry is what the OpenTelemetry and metrics variables switched on.
// graftserver checks the OTEL_* variables first, so that a bad one stops
// the server at start-up instead of being ignored, and decides whether to
// trace. It exports OTLP over HTTP in protobuf itself (otlpConfig);
// any other exporter is contrib's autoexport, for which the OpenTelemetry
// SDK reads the variables from the process environment.
type telemetry struct {
	in          *graftotel.Instrumentation // nil: nothing to install
	tp          *graftotel.TracerProvider  // nil: no tracing
	mp          *sdkmetric.MeterProvider   // nil: no metrics
	metrics     http.Handler
	metricsPath string
	maxOpNames  int
}

// parseTelemetry checks the variables and reports the trace exporter they
// ask for ("" for none).
func parseTelemetry(lookup func(string) (string, bool)) (t envconf.Telemetry, exporter string, err error) {
	var errs []error
	if err := envconf.Parse(&t, envconf.Lookup(lookup)); err != nil {
		errs = append(errs, err)
	}
	// autoexport matches the name exactly, so it is taken as spelled.
	switch e := strings.TrimSpace(t.TracesExporter); e {
	case "":
		if t.Endpoint != "" || t.TracesEndpoint != "" {
			exporter = "otlp"
		}
	case "otlp", "console":
		exporter = e
	case "none":
	default:
		errs = append(errs, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: want otlp, console or none, in lower case", t.TracesExporter))
	}
	for _, v := range []struct{ name, value string }{
		{"OTEL_EXPORTER_OTLP_PROTOCOL", t.Protocol}, {"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", t.TracesProtocol},
	} {
		switch strings.TrimSpace(v.value) {
		case "", "http/protobuf", "grpc":
		default:
			errs = append(errs, fmt.Errorf("%s=%q: want http/protobuf (the receiver's port 4318) or grpc (port 4317)", v.name, v.value))
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
	for _, v := range []struct{ name, value string }{
		{"OTEL_EXPORTER_OTLP_COMPRESSION", t.Compression}, {"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", t.TracesCompression},
	} {
		switch strings.TrimSpace(v.value) {
		case "", "gzip", "none":
		default:
			errs = append(errs, fmt.Errorf("%s=%q: want gzip or none", v.name, v.value))
		}
	}
	for _, v := range []struct {
		name  string
		value *envconf.Limit
		max   envconf.Limit
	}{
		{"OTEL_EXPORTER_OTLP_TIMEOUT", t.Timeout, maxExportDelay}, {"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", t.TracesTimeout, maxExportDelay},
		{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", t.MaxBatch, maxQueueSize}, {"OTEL_BSP_MAX_QUEUE_SIZE", t.MaxQueue, maxQueueSize},
	} {
		if v.value != nil && (*v.value == 0 || *v.value > v.max) {
			errs = append(errs, fmt.Errorf("%s=%q: want 1 to %d", v.name, strconv.Itoa(int(*v.value)), v.max))
		}
	}
	if t.MaxBatch != nil && t.MaxQueue != nil && *t.MaxBatch > *t.MaxQueue {
		errs = append(errs, fmt.Errorf("OTEL_BSP_MAX_EXPORT_BATCH_SIZE=%d is more than OTEL_BSP_MAX_QUEUE_SIZE=%d", *t.MaxBatch, *t.MaxQueue))
	}
	for _, v := range []struct{ name, value string }{
		{"OTEL_EXPORTER_OTLP_HEADERS", t.Headers}, {"OTEL_EXPORTER_OTLP_TRACES_HEADERS", t.TracesHeaders},
		{"OTEL_RESOURCE_ATTRIBUTES", t.ResourceAttrs},
	} {
		if v.value == "" {
			continue
		}
		for item := range strings.SplitSeq(v.value, ",") {
			if k, _, ok := strings.Cut(item, "="); !ok || strings.TrimSpace(k) == "" {
				errs = append(errs, fmt.Errorf("%s: %q is not key=value", v.name, strings.TrimSpace(item)))
			}
		}
	}
	switch strings.ToLower(strings.TrimSpace(t.Sampler)) {
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
	if d := t.ExportDelay; d != nil && (*d == 0 || *d > maxExportDelay) {
		errs = append(errs, fmt.Errorf("OTEL_BSP_SCHEDULE_DELAY=%q: want milliseconds, 1 to %d (a day)", strconv.Itoa(int(*d)), maxExportDelay))
	}
	if t.MetricsPath == "" {
		t.MetricsPath = "/metrics"
	} else if !strings.HasPrefix(t.MetricsPath, "/") || strings.ContainsAny(t.MetricsPath, " {}") {
		errs = append(errs, fmt.Errorf("METRICS_PATH=%q: want a path such as /metrics", t.MetricsPath))
	}
	return t, exporter, errors.Join(errs...)
}

// newTelemetry builds the tracer provider (when an exporter is asked
// for), the Prometheus metrics (METRICS_ENABLED) and the instrumentation
// installing both into the router. Console spans go to standard output.
// lookup finds the variables t does not hold (see otlpConfig); the
// export's failures are logged to log.
func newTelemetry(ctx context.Context, t envconf.Telemetry, exporter, serviceName string, lookup func(string) (string, bool), log *slog.Logger) (*telemetry, error) {
	tel := &telemetry{metricsPath: t.MetricsPath}
	if t.MaxOpNames != nil {
		tel.maxOpNames = int(*t.MaxOpNames)
		if tel.maxOpNames == 0 {
			tel.maxOpNames = -1 // every name is "other"
		}
	}
	if exporter != "" {
		res, err := resource.New(ctx,
			resource.WithAttributes(attribute.String("service.name", serviceName)), // unless the environment names it
			resource.WithFromEnv(), resource.WithTelemetrySDK())
		if err != nil {
			return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES or OTEL_SERVICE_NAME: %w", err)
		}
		var export sdktrace.TracerProviderOption
		if cfg, ok := otlpConfig(t, exporter, lookup); ok {
			// OTLP over HTTP in protobuf with the variables graftserver
			// reads: spans are encoded as they end and held as bytes.
			cfg.Error = func(err error) { log.Warn("graft: exporting spans", "err", err) }
			export = sdktrace.WithSpanProcessor(otlpspans.New(cfg))
		} else {
			// autoexport reads OTEL_TRACES_EXPORTER (otlp when unset, as
			// here when only an endpoint is set) and the exporter's own
			// variables.
			exp, err := autoexport.NewSpanExporter(ctx)
			if err != nil {
				return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%s: %w", exporter, err)
			}
			export = sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(exportDelay(t)))
		}
		// The sampler comes from OTEL_TRACES_SAMPLER, handed to graftotel
		// so that it decides before the SDK starts a span: a request
		// the sampler drops costs the SDK nothing.
		tel.tp = graftotel.NewTracerProvider(samplerOf(t), sdktrace.WithResource(res), export)
	}
	if t.MetricsEnabled != nil && bool(*t.MetricsEnabled) {
		mp, h, err := graftotel.PrometheusHandler()
		if err != nil {
			_ = tel.shutdown(ctx)
			return nil, fmt.Errorf("metrics: %w", err)
		}
		tel.mp, tel.metrics = mp, h
	}
	if tel.tp == nil && tel.mp == nil {
		return tel, nil
	}
	opts := graftotel.Options{NoTracing: tel.tp == nil, NoMetrics: tel.mp == nil, MaxOperationNames: tel.maxOpNames}
	if tel.tp != nil {
		opts.TracerProvider = tel.tp
	}
	if tel.mp != nil {
		opts.MeterProvider = tel.mp
	}
	in, err := graftotel.New(opts)
	if err != nil {
		_ = tel.shutdown(ctx)
		return nil, err
	}
	tel.in = in
	return tel, nil
}

// otlpUnread are the OTLP exporter's and batch processor's variables
// graftserver's own span export does not read: when one is set, the
// SDK's exporter and batch processor export the spans, and read it.
var otlpUnread = []string{
	"OTEL_EXPORTER_OTLP_CERTIFICATE", "OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", "OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_CLIENT_KEY", "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY",
	"OTEL_EXPORTER_OTLP_INSECURE", "OTEL_EXPORTER_OTLP_TRACES_INSECURE",
	"OTEL_BSP_EXPORT_TIMEOUT",
}

// otlpConfig is the configuration of graftserver's own span export, and
// whether it serves: traces to OTLP over HTTP in protobuf (the
// protocol's default), with no variable of otlpUnread set. It reads the
// variables the SDK's exporter and batch processor would, with their
// defaults but for OTEL_BSP_SCHEDULE_DELAY's (defaultExportDelay): the
// endpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else
// OTEL_EXPORTER_OTLP_ENDPOINT's /v1/traces, else
// http://localhost:4318/v1/traces), the headers, compression and timeout,
// and the batch's delay and sizes.
func otlpConfig(t envconf.Telemetry, exporter string, lookup func(string) (string, bool)) (otlpspans.Config, bool) {
	protocol := strings.TrimSpace(cmp.Or(t.TracesProtocol, t.Protocol))
	if exporter != "otlp" || (protocol != "" && protocol != "http/protobuf") {
		return otlpspans.Config{}, false
	}
	for _, k := range otlpUnread {
		if v, ok := lookup(k); ok && v != "" {
			return otlpspans.Config{}, false
		}
	}
	cfg := otlpspans.Config{URL: "http://localhost:4318/v1/traces", Delay: exportDelay(t),
		Gzip: strings.TrimSpace(cmp.Or(t.TracesCompression, t.Compression)) == "gzip"}
	if t.TracesEndpoint != "" {
		cfg.URL = t.TracesEndpoint
	} else if t.Endpoint != "" {
		cfg.URL = strings.TrimSuffix(t.Endpoint, "/") + "/v1/traces"
	}
	if h := cmp.Or(t.TracesHeaders, t.Headers); h != "" {
		cfg.Headers = map[string]string{}
		for item := range strings.SplitSeq(h, ",") {
			k, v, _ := strings.Cut(item, "=")
			if uv, err := url.PathUnescape(strings.TrimSpace(v)); err == nil {
				v = uv
			}
			cfg.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if d := t.TracesTimeout; d != nil {
		cfg.Timeout = time.Duration(*d) * time.Millisecond
	} else if d := t.Timeout; d != nil {
		cfg.Timeout = time.Duration(*d) * time.Millisecond
	}
	if n := t.MaxBatch; n != nil {
		cfg.MaxBatch = int(*n)
	}
	if n := t.MaxQueue; n != nil {
		cfg.MaxQueue = int(*n)
	}
	return cfg, true
}

// defaultExportDelay is how long a sampled span waits at most to be
// exported when OTEL_BSP_SCHEDULE_DELAY is unset: the OpenTelemetry
// Collector's batch timeout, where the SDK's is 5 s. The spans waiting
// are held in the server's heap (as objects the garbage collector scans
// on every cycle on the SDK's path, as bytes on graftserver's own): at a
// low sampling ratio, the SDK's five seconds of them can outweigh a small
// server's own live data, and a small heap is collected often. A server sampling many requests fills a batch (512
// spans) sooner and exports it then, so the shorter delay adds exports
// only where spans are few.
const defaultExportDelay = 200 * time.Millisecond

// maxExportDelay is the largest OTEL_BSP_SCHEDULE_DELAY taken, in
// milliseconds.
const maxExportDelay = 24 * 60 * 60 * 1000

// maxQueueSize is the largest OTEL_BSP_MAX_QUEUE_SIZE and
// OTEL_BSP_MAX_EXPORT_BATCH_SIZE taken.
const maxQueueSize = 1 << 20

// exportDelay is the batch timeout of the span exporter:
// OTEL_BSP_SCHEDULE_DELAY, else defaultExportDelay.
func exportDelay(t envconf.Telemetry) time.Duration {
	if t.ExportDelay == nil {
		return defaultExportDelay
	}
	return time.Duration(*t.ExportDelay) * time.Millisecond
}

// samplerOf is the sampler OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG
// name (checked by parseTelemetry), as the SDK reads them: the SDK's
// default, ParentBased(AlwaysSample()), when unset, and a ratio of 1 when
// the argument is missing.
func samplerOf(t envconf.Telemetry) sdktrace.Sampler {
	ratio := func() sdktrace.Sampler {
		r, err := strconv.ParseFloat(strings.TrimSpace(t.SamplerArg), 64)
		if err != nil || r < 0 || r > 1 {
			r = 1
		}
		return sdktrace.TraceIDRatioBased(r)
	}
	switch strings.ToLower(strings.TrimSpace(t.Sampler)) {
	case "always_on":
		return sdktrace.AlwaysSample()
	case "always_off":
		return sdktrace.NeverSample()
	case "traceidratio":
		return ratio()
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample())
	case "parentbased_traceidratio":
		return sdktrace.ParentBased(ratio())
	default: // "" and parentbased_always_on
		return sdktrace.ParentBased(sdktrace.AlwaysSample())
	}
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
