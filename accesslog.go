package graft

import (
	"context"
	"log/slog"
	"time"

	"github.com/graftgql/graft/accesslog"
)

// AccessLogHook returns the Hook that writes one line to l for every
// answer, refusals included, in its PhaseAnswered: method, status,
// operation name and type, duration_ms, error count, request ID, client
// address and, for an operation of an HTTP batch, its position
// (batch_item). A logger over an accesslog.Handler takes its fast path
// (formatted without allocating, written through its buffered writer);
// any other logger gets a record with the same attributes.
// Config.AccessLog installs it after Config.Hooks; an application that
// wants another format or place in the order installs its own hook
// instead.
func AccessLogHook(l *slog.Logger) Hook {
	h, _ := l.Handler().(*accesslog.Handler)
	return accessLogHook{l, h}
}

type accessLogHook struct {
	l    *slog.Logger
	fast *accesslog.Handler // l's handler, when it is an accesslog.Handler
}

func (accessLogHook) Before(context.Context, *HookEvent) (context.Context, error) { return nil, nil }

// Phases says the access log observes only PhaseAnswered (HookPhases).
func (accessLogHook) Phases() []Phase { return []Phase{PhaseAnswered} }

func (h accessLogHook) After(ctx context.Context, ev *HookEvent) {
	if ev.Phase != PhaseAnswered {
		return
	}
	info := ev.Request
	now := time.Now()
	e := accesslog.Entry{
		Time:          now,
		Method:        info.Method,
		Status:        ev.Status,
		OperationName: ev.OperationName,
		OperationType: ev.OperationType,
		Duration:      now.Sub(ev.Start),
		Errors:        ev.ErrorCount,
		RequestID:     info.RequestID,
		Remote:        info.RemoteAddr,
		BytesReceived: info.BytesReceived,
		BatchItem:     info.BatchItem,
	}
	if h.fast != nil {
		h.fast.Log(&e)
		return
	}
	var buf [10]slog.Attr
	h.l.LogAttrs(ctx, slog.LevelInfo, accesslog.Message, e.AppendAttrs(buf[:0])...)
}
