// Package scalars declares the standard custom scalars of GraphQL schemas,
// with the names, semantics and @specifiedBy URLs of the graphql-scalars
// library (https://the-guild.dev/graphql/scalars), each with its Go type:
//
//	JSON          JSON (= any)        any JSON value
//	JSONObject    JSONObject          a JSON object (map[string]any)
//	UUID          UUID                RFC 9562 UUID, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
//	BigInt        BigInt              a 64-bit integer; a JSON string beyond ±2^53
//	Date          Date                an RFC 3339 full-date, "2006-01-02"
//	Time          Time                an RFC 3339 full-time, "15:04:05Z"
//	Duration      Duration            an ISO 8601 duration, "PT1H30M"
//	URL           URL                 an absolute URL
//	EmailAddress  EmailAddress        an email address (the HTML form's rule)
//	Byte          Byte                bytes as standard base64
//
// Declare adds the ones a schema uses to a builder; fields and arguments
// of those Go types then have that scalar type:
//
//	b := schema.New()
//	scalars.Declare(b, "Date", "UUID")
//	// a struct field of type scalars.Date is a Date!, *scalars.Date a Date
//
// Input values (literals and variables) that a scalar refuses fail the
// request before anything runs, with extensions.code BAD_USER_INPUT and a
// message naming the scalar: `Expected type "UUID". UUID cannot represent
// "x": ...`. Writing a Go value the scalar cannot represent (a Date with
// month 13, a JSON value holding a channel) is a field error at its path,
// never a panic. DateTime, graft's scalar for time.Time, is not part of
// this package and is unchanged.
//
// BigInt is an int64: JSON numbers are exact only up to 2^53 in
// JavaScript, so values beyond ±(2^53-1) are written as JSON strings, and
// inputs are accepted as integers or as strings of digits. With
// Options.BigIntStrings every value is written as a string.
package scalars
