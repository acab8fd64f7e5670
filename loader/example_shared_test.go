package loader_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/graftgql/graft/loader"
)

type tokenKey struct{}

// Requests fetching the same users at the same moment share one upstream
// call, per authorization token: a user never gets an answer fetched with
// another's token.
func ExampleShared() {
	fetchUsers := func(ctx context.Context, ids []string) ([]string, []error) {
		token, _ := ctx.Value(tokenKey{}).(string)
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = strings.ToUpper(id) + " (as " + token + ")"
		}
		return names, nil
	}
	// One per process.
	users := loader.NewShared(fetchUsers, loader.SharedOptions{
		Scope: func(ctx context.Context) string { t, _ := ctx.Value(tokenKey{}).(string); return t },
	})
	// One per request, fetching through the shared one.
	ctx := context.WithValue(context.Background(), tokenKey{}, "alice-token")
	l := loader.New(users.Fetch)
	name, err := l.Load(ctx, "u1")
	fmt.Println(name, err)
	// Output: U1 (as alice-token) <nil>
}
