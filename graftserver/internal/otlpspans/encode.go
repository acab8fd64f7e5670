package otlpspans

import (
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// The field numbers of the OTLP messages written here
// (opentelemetry/proto/collector/trace/v1, trace/v1, common/v1,
// resource/v1).
const (
	requestResourceSpans = 1 // ExportTraceServiceRequest.resource_spans

	resourceSpansResource   = 1
	resourceSpansScopeSpans = 2
	resourceSpansSchemaURL  = 3

	resourceAttributes = 1

	scopeSpansScope     = 1
	scopeSpansSpans     = 2
	scopeSpansSchemaURL = 3

	scopeName       = 1
	scopeVersion    = 2
	scopeAttributes = 3

	spanTraceID           = 1
	spanSpanID            = 2
	spanTraceState        = 3
	spanParentSpanID      = 4
	spanName              = 5
	spanKind              = 6
	spanStart             = 7
	spanEnd               = 8
	spanAttributes        = 9
	spanDroppedAttributes = 10
	spanEvents            = 11
	spanDroppedEvents     = 12
	spanLinks             = 13
	spanDroppedLinks      = 14
	spanStatus            = 15
	spanFlags             = 16

	eventTime              = 1
	eventName              = 2
	eventAttributes        = 3
	eventDroppedAttributes = 4

	linkTraceID           = 1
	linkSpanID            = 2
	linkAttributes        = 4
	linkDroppedAttributes = 5
	linkFlags             = 6

	statusMessage = 2
	statusCode    = 3

	kvKey   = 1
	kvValue = 2

	valueString = 1
	valueBool   = 2
	valueInt    = 3
	valueDouble = 4
	valueArray  = 5
	valueKVList = 6
	valueBytes  = 7

	arrayValues = 1 // ArrayValue.values, KeyValueList.values

	// SpanFlags: the span's context says whether it is remote, and
	// whether it is.
	flagsHasIsRemote = 0x100
	flagsIsRemote    = 0x200
)

// begin appends the tag of the length-delimited field num and a byte for
// its length, and returns where its content starts; end then writes the
// content's length there, moving the content only when the length takes
// more than one byte (128 bytes or more).
func begin(b []byte, num protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = append(b, 0)
	return b, len(b)
}

func end(b []byte, at int) []byte {
	n := len(b) - at
	if n < 0x80 {
		b[at-1] = byte(n)
		return b
	}
	sz := protowire.SizeVarint(uint64(n))
	b = append(b, make([]byte, sz-1)...)
	copy(b[at-1+sz:], b[at:at+n])
	protowire.AppendVarint(b[at-1:at-1], uint64(n))
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendUvarint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendFixed64(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

func appendFixed32(b []byte, num protowire.Number, v uint32) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, v)
}

// unixNano is t in nanoseconds since the epoch, 0 before it.
func unixNano(ns int64) uint64 { return uint64(max(0, ns)) }

// count is a dropped count as OTLP's uint32, clamped.
func count(v int) uint64 {
	if v < 0 {
		return 0
	}
	return uint64(min(int64(v), math.MaxUint32))
}

// appendResource appends r as the Resource field of ResourceSpans.
func appendResource(b []byte, r *resource.Resource) []byte {
	if r == nil {
		return b
	}
	b, at := begin(b, resourceSpansResource)
	for it := r.Iter(); it.Next(); {
		b = appendKV(b, resourceAttributes, it.Attribute())
	}
	return end(b, at)
}

// appendScope appends s as the scope field of ScopeSpans.
func appendScope(b []byte, s instrumentation.Scope) []byte {
	if s == (instrumentation.Scope{}) {
		return b
	}
	b, at := begin(b, scopeSpansScope)
	b = appendString(b, scopeName, s.Name)
	b = appendString(b, scopeVersion, s.Version)
	for it := s.Attributes.Iter(); it.Next(); {
		b = appendKV(b, scopeAttributes, it.Attribute())
	}
	return end(b, at)
}

// appendSpan appends s as a Span message (its fields, without a tag).
func appendSpan(b []byte, s sdktrace.ReadOnlySpan) []byte {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	b = appendBytes(b, spanTraceID, tid[:])
	b = appendBytes(b, spanSpanID, sid[:])
	b = appendString(b, spanTraceState, sc.TraceState().String())
	parent := s.Parent()
	if psid := parent.SpanID(); psid.IsValid() {
		b = appendBytes(b, spanParentSpanID, psid[:])
	}
	b = appendString(b, spanName, s.Name())
	b = appendUvarint(b, spanKind, uint64(kindOf(s.SpanKind())))
	b = appendFixed64(b, spanStart, unixNano(s.StartTime().UnixNano()))
	b = appendFixed64(b, spanEnd, unixNano(s.EndTime().UnixNano()))
	for _, kv := range s.Attributes() {
		b = appendKV(b, spanAttributes, kv)
	}
	b = appendUvarint(b, spanDroppedAttributes, count(s.DroppedAttributes()))
	for _, e := range s.Events() {
		var at int
		b, at = begin(b, spanEvents)
		b = appendFixed64(b, eventTime, unixNano(e.Time.UnixNano()))
		b = appendString(b, eventName, e.Name)
		for _, kv := range e.Attributes {
			b = appendKV(b, eventAttributes, kv)
		}
		b = appendUvarint(b, eventDroppedAttributes, count(e.DroppedAttributeCount))
		b = end(b, at)
	}
	b = appendUvarint(b, spanDroppedEvents, count(s.DroppedEvents()))
	for _, l := range s.Links() {
		var at int
		b, at = begin(b, spanLinks)
		ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		b = appendBytes(b, linkTraceID, ltid[:])
		b = appendBytes(b, linkSpanID, lsid[:])
		for _, kv := range l.Attributes {
			b = appendKV(b, linkAttributes, kv)
		}
		b = appendUvarint(b, linkDroppedAttributes, count(l.DroppedAttributeCount))
		b = appendFixed32(b, linkFlags, flags(l.SpanContext.TraceFlags(), l.SpanContext))
		b = end(b, at)
	}
	b = appendUvarint(b, spanDroppedLinks, count(s.DroppedLinks()))
	// The status is always written, as the SDK's exporter writes it.
	st := s.Status()
	b, at := begin(b, spanStatus)
	b = appendString(b, statusMessage, st.Description)
	b = appendUvarint(b, statusCode, statusCodeOf(st.Code))
	b = end(b, at)
	return appendFixed32(b, spanFlags, flags(sc.TraceFlags(), parent))
}

// flags is the span's flags: its trace flags, and whether its parent
// (or, for a link, the linked span) is remote.
func flags(tf trace.TraceFlags, parent trace.SpanContext) uint32 {
	f := uint32(tf) | flagsHasIsRemote
	if parent.IsRemote() {
		f |= flagsIsRemote
	}
	return f
}

func kindOf(k trace.SpanKind) int {
	switch k {
	case trace.SpanKindInternal, trace.SpanKindServer, trace.SpanKindClient, trace.SpanKindProducer, trace.SpanKindConsumer:
		return int(k) // OTLP numbers the kinds as the API does
	}
	return 0
}

func statusCodeOf(c codes.Code) uint64 {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	}
	return 0
}

// appendKV appends kv as the KeyValue field num.
func appendKV(b []byte, num protowire.Number, kv attribute.KeyValue) []byte {
	b, at := begin(b, num)
	b = appendString(b, kvKey, string(kv.Key))
	b = appendValue(b, kvValue, kv.Value)
	return end(b, at)
}

// appendValue appends v as the AnyValue field num, as the SDK's exporter
// converts it.
func appendValue(b []byte, num protowire.Number, v attribute.Value) []byte {
	b, at := begin(b, num)
	switch v.Type() {
	case attribute.BOOL:
		b = protowire.AppendTag(b, valueBool, protowire.VarintType)
		b = protowire.AppendVarint(b, protowire.EncodeBool(v.AsBool()))
	case attribute.INT64:
		b = protowire.AppendTag(b, valueInt, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(v.AsInt64()))
	case attribute.FLOAT64:
		b = protowire.AppendTag(b, valueDouble, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(v.AsFloat64()))
	case attribute.STRING:
		b = protowire.AppendTag(b, valueString, protowire.BytesType)
		b = protowire.AppendString(b, v.AsString())
	case attribute.BOOLSLICE:
		b = appendArray(b, v.AsBoolSlice(), attribute.BoolValue)
	case attribute.INT64SLICE:
		b = appendArray(b, v.AsInt64Slice(), attribute.Int64Value)
	case attribute.FLOAT64SLICE:
		b = appendArray(b, v.AsFloat64Slice(), attribute.Float64Value)
	case attribute.STRINGSLICE:
		b = appendArray(b, v.AsStringSlice(), attribute.StringValue)
	case attribute.SLICE:
		b = appendArray(b, v.AsSlice(), func(x attribute.Value) attribute.Value { return x })
	case attribute.BYTESLICE:
		b = appendBytes(b, valueBytes, v.AsByteSlice())
	case attribute.MAP:
		var list int
		b, list = begin(b, valueKVList)
		for _, kv := range v.AsMap() {
			b = appendKV(b, arrayValues, kv)
		}
		b = end(b, list)
	case attribute.EMPTY:
		// An AnyValue with no value.
	default:
		b = protowire.AppendTag(b, valueString, protowire.BytesType)
		b = protowire.AppendString(b, "INVALID")
	}
	return end(b, at)
}

// appendArray appends xs as an AnyValue's array_value, each converted
// by value.
func appendArray[T any](b []byte, xs []T, value func(T) attribute.Value) []byte {
	b, at := begin(b, valueArray)
	for _, x := range xs {
		b = appendValue(b, arrayValues, value(x))
	}
	return end(b, at)
}
