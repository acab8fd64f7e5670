package graftotel

import (
	"encoding/binary"
	"reflect"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// knownSampler is one of the SDK's own samplers (AlwaysSample,
// NeverSample, TraceIDRatioBased, ParentBased of them), read once from
// the sampler's value, so that a request's decision is taken without the
// sampler's calls: their results are the same, a decision by the trace ID
// or the parent's sampled flag, and the parent's trace state.
type knownSampler struct {
	kind  samplerKind
	bound uint64 // ratio: a trace ID's low 63 bits below it are kept
	// parent: the samplers of a root and of each kind of parent.
	root, remoteSampled, remoteNotSampled, localSampled, localNotSampled *knownSampler
}

type samplerKind int

const (
	alwaysOn samplerKind = iota
	alwaysOff
	ratio
	parent
)

// sdkTracePkg is the package of the SDK's samplers.
const sdkTracePkg = "go.opentelemetry.io/otel/sdk/trace"

// knownSamplerOf reads s, nil when it is not (or holds a sampler that is
// not) one of the SDK's own.
func knownSamplerOf(s sdktrace.Sampler) *knownSampler {
	if s == nil {
		return nil
	}
	return knownSamplerValue(reflect.ValueOf(s))
}

func knownSamplerValue(v reflect.Value) *knownSampler {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	t := v.Type()
	if t.PkgPath() != sdkTracePkg || v.Kind() != reflect.Struct {
		return nil
	}
	switch t.Name() {
	case "alwaysOnSampler":
		return &knownSampler{kind: alwaysOn}
	case "alwaysOffSampler":
		return &knownSampler{kind: alwaysOff}
	case "predeterminedSampler":
		f := v.FieldByName("decision")
		if !f.IsValid() || f.Type() != reflect.TypeFor[sdktrace.SamplingDecision]() || !f.CanUint() {
			return nil
		}
		switch sdktrace.SamplingDecision(f.Uint()) {
		case sdktrace.RecordAndSample:
			return &knownSampler{kind: alwaysOn}
		case sdktrace.Drop:
			return &knownSampler{kind: alwaysOff}
		}
	case "traceIDRatioSampler":
		f := v.FieldByName("traceIDUpperBound")
		if !f.IsValid() || f.Kind() != reflect.Uint64 {
			return nil
		}
		return &knownSampler{kind: ratio, bound: f.Uint()}
	case "parentBased":
		cfg := v.FieldByName("config")
		if !cfg.IsValid() || cfg.Kind() != reflect.Struct {
			return nil
		}
		k := &knownSampler{kind: parent, root: knownSamplerValue(v.FieldByName("root")),
			remoteSampled: knownSamplerValue(cfg.FieldByName("remoteParentSampled")), remoteNotSampled: knownSamplerValue(cfg.FieldByName("remoteParentNotSampled")),
			localSampled: knownSamplerValue(cfg.FieldByName("localParentSampled")), localNotSampled: knownSamplerValue(cfg.FieldByName("localParentNotSampled"))}
		if k.root == nil || k.remoteSampled == nil || k.remoteNotSampled == nil || k.localSampled == nil || k.localNotSampled == nil {
			return nil
		}
		return k
	}
	return nil
}

// samples is the sampler's decision for a span of trace tid under a parent
// with span context psc: RecordAndSample or Drop.
func (k *knownSampler) samples(psc trace.SpanContext, tid trace.TraceID) bool {
	switch k.kind {
	case alwaysOn:
		return true
	case alwaysOff:
		return false
	case ratio:
		return binary.BigEndian.Uint64(tid[8:16])>>1 < k.bound
	}
	switch {
	case !psc.IsValid():
		return k.root.samples(psc, tid)
	case psc.IsRemote() && psc.IsSampled():
		return k.remoteSampled.samples(psc, tid)
	case psc.IsRemote():
		return k.remoteNotSampled.samples(psc, tid)
	case psc.IsSampled():
		return k.localSampled.samples(psc, tid)
	default:
		return k.localNotSampled.samples(psc, tid)
	}
}
