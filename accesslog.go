package graft

import (
	"context"
	"log/slog"
	"time"
)

// AccessLogHook returns the Hook that writes one line to l for every
// answer, refusals included, in its PhaseAnswered: method, status,
// operation name and type, duration, error count, request ID, client
// address and, for an operation of an HTTP batch, its position
// (batch_item). Config.AccessLog installs it after Config.Hooks; an
// application that wants another format or place in the order installs
// its own hook instead.
func AccessLogHook(l *slog.Logger) Hook { return accessLogHook{l} }

type accessLogHook struct{ l *slog.Logger }

func (accessLogHook) Before(context.Context, *HookEvent) (context.Context, error) { return nil, nil }

func (h accessLogHook) After(ctx context.Context, ev *HookEvent) {
	if ev.Phase != PhaseAnswered {
		return
	}
	info := ev.Request
	attrs := [10]slog.Attr{
		slog.String("method", info.Method),
		slog.Int("status", ev.Status),
		slog.String("operation_name", ev.OperationName),
		slog.String("operation_type", ev.OperationType),
		slog.Duration("duration", time.Since(ev.Start)),
		slog.Int("errors", ev.ErrorCount),
		slog.String("request_id", info.RequestID),
		slog.String("remote", info.RemoteAddr),
	}
	n := 8
	if info.BatchItem > 0 {
		attrs[n] = slog.Int("batch_item", info.BatchItem)
		n++
	}
	h.l.LogAttrs(ctx, slog.LevelInfo, "graphql request", attrs[:n]...)
}
