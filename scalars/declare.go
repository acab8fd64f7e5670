package scalars

import (
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

// specifiedBy is the graphql-scalars documentation page of each scalar,
// its @specifiedBy URL.
var specifiedBy = map[string]string{
	"JSON":         "https://the-guild.dev/graphql/scalars/docs/scalars/json",
	"JSONObject":   "https://the-guild.dev/graphql/scalars/docs/scalars/json-object",
	"UUID":         "https://the-guild.dev/graphql/scalars/docs/scalars/uuid",
	"BigInt":       "https://the-guild.dev/graphql/scalars/docs/scalars/big-int",
	"Date":         "https://the-guild.dev/graphql/scalars/docs/scalars/date",
	"Time":         "https://the-guild.dev/graphql/scalars/docs/scalars/time",
	"Duration":     "https://the-guild.dev/graphql/scalars/docs/scalars/duration",
	"URL":          "https://the-guild.dev/graphql/scalars/docs/scalars/url",
	"EmailAddress": "https://the-guild.dev/graphql/scalars/docs/scalars/email-address",
	"Byte":         "https://the-guild.dev/graphql/scalars/docs/scalars/byte",
}

// Names lists the names Declare accepts, in the order of the package
// documentation.
var Names = []string{"JSON", "JSONObject", "UUID", "BigInt", "Date", "Time", "Duration", "URL", "EmailAddress", "Byte"}

// Options changes how Declare's scalars write values; the zero value
// follows graphql-scalars.
type Options struct {
	// BigIntStrings writes every BigInt as a JSON string, not only those
	// beyond ±(2^53-1), for clients that read all of them the same way.
	BigIntStrings bool
}

// Declare adds the named scalars (see Names) to b, with their Go types
// and @specifiedBy URLs. An unknown name is a mistake that b.Build
// reports.
func Declare(b *schema.Builder, names ...string) { Options{}.Declare(b, names...) }

// Declare adds the named scalars to b, as the package's Declare does,
// with these options.
func (o Options) Declare(b *schema.Builder, names ...string) {
	d := schemadef.BuilderOf(b)
	for _, name := range names {
		url := schemadef.SpecifiedBy(specifiedBy[name])
		switch name {
		case "JSON":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[JSON]{Append: appendJSON, Parse: parseJSON}, url)
		case "JSONObject":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[JSONObject]{Append: appendJSONObject, Parse: parseJSONObject}, url)
		case "UUID":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[UUID]{Append: appendUUID, Parse: parseUUID}, url)
		case "BigInt":
			appendBig := appendBigInt
			if o.BigIntStrings {
				appendBig = appendBigIntString
			}
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[BigInt]{Append: appendBig, Parse: parseBigInt}, url)
		case "Date":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[Date]{Append: appendDate, Parse: parseDate}, url)
		case "Time":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[Time]{Append: appendTime, Parse: parseTime}, url)
		case "Duration":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[Duration]{Append: appendDuration, Parse: parseDuration}, url)
		case "URL":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[URL]{Append: appendURL, Parse: parseURL}, url)
		case "EmailAddress":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[EmailAddress]{Append: appendEmail, Parse: parseEmail}, url)
		case "Byte":
			schemadef.ScalarFuncs(d, name, schemadef.ScalarCodec[Byte]{Append: appendByte, Parse: parseByte}, url)
		default:
			d.Errorf(name, "", "scalars: unknown scalar %q; want one of %v", name, Names)
		}
	}
}
