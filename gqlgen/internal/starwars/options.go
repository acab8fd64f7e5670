package starwars

import "github.com/graftgql/graft/gqlgen"

// LoadOptions are what gqlgen's generated Config took besides the root
// resolver, given to gqlgen.Load: the functions of the schema's
// directives and the Date scalar's MarshalDate and UnmarshalDate.
func LoadOptions() []gqlgen.LoadOption {
	return []gqlgen.LoadOption{
		gqlgen.Directive("secret", Secret),
		gqlgen.Directive("units", Units),
		gqlgen.Directive("upper", Upper),
		gqlgen.Scalar("Date", MarshalDate, UnmarshalDate),
	}
}
