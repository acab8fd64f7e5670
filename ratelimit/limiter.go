package ratelimit

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/graftgql/graft"
)

// CodeRateLimited is the extensions.code of the error of an operation
// refused because its key's budget is spent.
const CodeRateLimited = "RATE_LIMITED"

// DefaultWindow is the window of Options.Window when zero.
const DefaultWindow = time.Minute

// KeyFunc returns the key a request is charged to: a user's ID, an API
// key, a client address. ctx carries what Config.Auth put there. An empty
// key leaves the request unlimited.
type KeyFunc func(ctx context.Context, info *graft.RequestInfo) string

// ByClientAddress charges each client address (the host of
// RequestInfo.RemoteAddr). Behind a proxy every client has the proxy's
// address: key by user or API key instead.
func ByClientAddress(_ context.Context, info *graft.RequestInfo) string {
	if info == nil || info.RemoteAddr == "" {
		return ""
	}
	host, _, err := net.SplitHostPort(info.RemoteAddr)
	if err != nil {
		host = info.RemoteAddr
	}
	return "addr:" + host
}

// ByHeader charges each value of the request header name, such as an API
// key; a request without it is charged by ByClientAddress. Check the
// value (Config.Auth) before trusting it as an identity: a client can
// otherwise spread its spending over invented values.
func ByHeader(name string) KeyFunc {
	return func(ctx context.Context, info *graft.RequestInfo) string {
		if info != nil {
			if v := info.Header(name); v != "" {
				return "header:" + v
			}
		}
		return ByClientAddress(ctx, info)
	}
}

// Options configures a Limiter.
type Options struct {
	// Budget is the points each key may spend per Window; it must be
	// positive.
	Budget int64
	// Window is the length of a key's window, which starts with its
	// first charge. Default DefaultWindow.
	Window time.Duration
	// Key says whom a request is charged to. Default ByClientAddress.
	Key KeyFunc
	// Store keeps the spending. Default a MemoryStore of DefaultMaxKeys.
	Store Store
	// Cost returns an operation's cost from its request information
	// (Analysis, OperationName, headers). Default the analysis'
	// Complexity, at least 1.
	Cost func(info *graft.RequestInfo) int64
	// ChargeExecuted charges, once a query or mutation has run, the cost
	// it actually executed: one point per field resolved, counted by the
	// Limiter's FieldMiddleware (which Install adds). The computed cost
	// is charged first, as always, and what was not executed is given
	// back.
	ChargeExecuted bool
	// Logger receives the failures of the store; the request then goes
	// on unlimited. Default slog.Default().
	Logger *slog.Logger
}

// Limiter charges each operation's cost to its key's budget. It is a
// graft.Hook: add it to Config.Hooks, or call Install.
type Limiter struct {
	opts Options
}

// New returns a Limiter, or an error for options that cannot work.
func New(opts Options) (*Limiter, error) {
	if opts.Budget <= 0 {
		return nil, errors.New("ratelimit: Budget must be positive")
	}
	if opts.Window < 0 {
		return nil, errors.New("ratelimit: Window must not be negative")
	}
	if opts.Window == 0 {
		opts.Window = DefaultWindow
	}
	if opts.Key == nil {
		opts.Key = ByClientAddress
	}
	if opts.Store == nil {
		opts.Store = NewMemoryStore(0)
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Limiter{opts: opts}, nil
}

// Install adds the Limiter to cfg's hooks and, with ChargeExecuted, its
// FieldMiddleware to cfg's field middleware.
func (l *Limiter) Install(cfg *graft.Config) {
	cfg.Hooks = append(cfg.Hooks, l)
	if l.opts.ChargeExecuted {
		cfg.FieldMiddleware = append(cfg.FieldMiddleware, l.FieldMiddleware())
	}
}

// Cost is what extensions.cost reports.
type Cost struct {
	// Requested is the operation's computed cost.
	Requested int64 `json:"requested"`
	// Executed is the cost it executed, with Options.ChargeExecuted.
	Executed *int64 `json:"executed,omitempty"`
	// Limit is the budget per window.
	Limit int64 `json:"limit"`
	// Remaining is what is left of it after this operation.
	Remaining int64 `json:"remaining"`
	// ResetAt is when the window ends (RFC 3339, UTC).
	ResetAt string `json:"resetAt"`
}

// charge is what Before hands to After through the context.
type charge struct {
	key      string
	cost     int64
	reset    time.Time
	executed atomic.Int64
}

type chargeKey struct{}

// Before charges the operation's cost when it is about to run
// (graft.PhaseExecuted), or refuses it with 429.
func (l *Limiter) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	if ev.Phase != graft.PhaseExecuted {
		return nil, nil
	}
	key := l.opts.Key(ctx, ev.Request)
	if key == "" {
		return nil, nil
	}
	cost := l.cost(ev.Request)
	u, err := l.opts.Store.Spend(ctx, key, cost, l.opts.Budget, l.opts.Window)
	if err != nil {
		l.opts.Logger.WarnContext(ctx, "ratelimit: the store failed; the operation runs unlimited", "error", err)
		return nil, nil
	}
	c := l.report(cost, u, nil)
	if !u.Allowed {
		retry := max(int64((time.Until(u.Reset)+time.Second-1)/time.Second), 1)
		msg := "Rate limit exceeded: the operation costs " + strconv.FormatInt(cost, 10) + " points and " +
			strconv.FormatInt(c.Remaining, 10) + " of the budget of " + strconv.FormatInt(l.opts.Budget, 10) +
			" remain until " + c.ResetAt + "."
		if cost > l.opts.Budget {
			msg = "Rate limit exceeded: the operation costs " + strconv.FormatInt(cost, 10) +
				" points, more than the whole budget of " + strconv.FormatInt(l.opts.Budget, 10) + " per window."
		}
		return nil, &graft.Refusal{
			Status: http.StatusTooManyRequests,
			Header: http.Header{"Retry-After": {strconv.FormatInt(retry, 10)}},
			Err:    &graft.Error{Message: msg, Code: CodeRateLimited, Details: map[string]any{"cost": c}},
		}
	}
	graft.SetExtension(ctx, "cost", c)
	ch := &charge{key: key, cost: cost, reset: u.Reset}
	return context.WithValue(ctx, chargeKey{}, ch), nil
}

// After gives back, with ChargeExecuted, what a query or mutation did not
// execute of its computed cost.
func (l *Limiter) After(ctx context.Context, ev *graft.HookEvent) {
	if !l.opts.ChargeExecuted || ev.Phase != graft.PhaseExecuted || ev.OperationType == "subscription" {
		return
	}
	ch, _ := ctx.Value(chargeKey{}).(*charge)
	if ch == nil {
		return
	}
	executed := ch.executed.Load()
	u, err := l.opts.Store.Spend(ctx, ch.key, executed-ch.cost, l.opts.Budget, l.opts.Window)
	if err != nil {
		l.opts.Logger.WarnContext(ctx, "ratelimit: the store failed", "error", err)
		return
	}
	graft.SetExtension(ctx, "cost", l.report(ch.cost, u, &executed))
}

// cost returns the operation's cost.
func (l *Limiter) cost(info *graft.RequestInfo) int64 {
	if l.opts.Cost != nil {
		return max(l.opts.Cost(info), 0)
	}
	if info == nil {
		return 1
	}
	return max(int64(info.Analysis.Complexity), 1)
}

// report is the extensions.cost of a charge.
func (l *Limiter) report(requested int64, u Usage, executed *int64) Cost {
	return Cost{
		Requested: requested,
		Executed:  executed,
		Limit:     l.opts.Budget,
		Remaining: max(l.opts.Budget-u.Spent, 0),
		ResetAt:   u.Reset.UTC().Format(time.RFC3339),
	}
}

// FieldMiddleware counts the fields each operation resolves, for
// Options.ChargeExecuted. Install adds it.
func (l *Limiter) FieldMiddleware() graft.FieldMiddleware {
	return graft.FieldMiddleware{Func: func(ctx context.Context, _ *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
		if ch, _ := ctx.Value(chargeKey{}).(*charge); ch != nil {
			ch.executed.Add(1)
		}
		return next(ctx)
	}}
}
