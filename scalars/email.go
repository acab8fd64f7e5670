package scalars

import (
	"fmt"

	"github.com/graftgql/graft/internal/coerce"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/internal/validate"
)

// EmailAddress is the Go type of the EmailAddress scalar: an address that
// the HTML form rule for type=email accepts (what graphql-scalars
// checks): a local part of letters, digits and .!#$%&'*+/=?^_`{|}~-, an
// @, and host labels of letters, digits and inner hyphens. Writing an
// address that does not pass is a field error.
type EmailAddress string

// ValidEmail reports whether s is an address the EmailAddress scalar
// accepts.
func ValidEmail(s string) bool { return validate.Email(s) }

func appendEmail(buf []byte, v *EmailAddress) ([]byte, error) {
	if !ValidEmail(string(*v)) {
		return buf, fmt.Errorf("EmailAddress cannot represent %q: not an email address", string(*v))
	}
	return schemadef.AppendJSONString(buf, string(*v)), nil
}

func parseEmail(v any) (EmailAddress, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("EmailAddress cannot represent a non string value: %s", coerce.Describe(v))
	}
	if !ValidEmail(s) {
		return "", fmt.Errorf("EmailAddress cannot represent %s: not an email address", coerce.Describe(v))
	}
	return EmailAddress(s), nil
}
