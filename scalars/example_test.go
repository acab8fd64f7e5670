package scalars_test

import (
	"context"
	"fmt"

	"github.com/graftgql/graft/scalars"
	"github.com/graftgql/graft/schema"
)

type ExampleEvent struct {
	ID    scalars.UUID `graphql:"id"`
	On    scalars.Date
	Lasts scalars.Duration
	Extra scalars.JSON
}

// Declare the scalars a schema uses; fields of their Go types take them.
func Example() {
	b := schema.New()
	scalars.Declare(b, "UUID", "Date", "Duration", "JSON")
	schema.Object[ExampleEvent](b, "Event")
	schema.QueryNoArgs(b, "events", func(context.Context) ([]ExampleEvent, error) { return nil, nil })
	s, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s.SDL())
	// Output:
	// scalar Date @specifiedBy(url: "https://the-guild.dev/graphql/scalars/docs/scalars/date")
	//
	// scalar Duration @specifiedBy(url: "https://the-guild.dev/graphql/scalars/docs/scalars/duration")
	//
	// type Event {
	//   id: UUID!
	//   on: Date!
	//   lasts: Duration!
	//   extra: JSON
	// }
	//
	// scalar JSON @specifiedBy(url: "https://the-guild.dev/graphql/scalars/docs/scalars/json")
	//
	// type Query {
	//   events: [Event!]!
	// }
	//
	// scalar UUID @specifiedBy(url: "https://the-guild.dev/graphql/scalars/docs/scalars/uuid")
}

func ExampleParseDuration() {
	d, err := scalars.ParseDuration("P1DT2H30M")
	fmt.Println(int64(d)/1e9, err)
	_, err = scalars.ParseDuration("P1M")
	fmt.Println(err)
	// Output:
	// 95400 <nil>
	// years and months have no fixed length; use weeks, days or hours
}

func ExampleDate() {
	d, _ := scalars.ParseDate("2000-01-02")
	fmt.Println(d, d.Compare(scalars.Date{Year: 2000, Month: 1, Day: 1}))
	// Output: 2000-01-02 1
}
