package validate_test

import (
	"fmt"

	"github.com/graftgql/graft/validate"
)

type ExampleSignup struct {
	Name  string   `validate:"min=1,max=50"`
	Email string   `validate:"email"`
	Tags  []string `validate:"max=3,dive,min=1"`
}

// The rules a schema checks on arguments, checked on a struct directly.
func ExampleStruct() {
	err := validate.Struct(ExampleSignup{Name: "", Email: "ada@example", Tags: []string{"x", ""}})
	fmt.Println(err)
	for _, v := range err.(*validate.Error).Violations {
		fmt.Println(v.Field(), v.Constraint)
	}
	// Output:
	// Invalid input: name: must be at least 1 character long; tags[1]: must be at least 1 character long.
	// name min
	// tags[1] min
}
