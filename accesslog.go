package graft

import (
	"context"
	"log/slog"
	"time"

	"github.com/graftgql/graft/internal/httpapi"
)

// accessLog writes the one access-log line of a request when
// Config.AccessLog is set.
func (r *Router) accessLog(ctx context.Context, p *phaseRun, resp *httpapi.Response) {
	l := r.cfg.AccessLog
	if l == nil {
		return
	}
	info := p.st.info
	l.LogAttrs(ctx, slog.LevelInfo, "graphql request",
		slog.String("method", info.Method),
		slog.Int("status", resp.Status),
		slog.String("operation_name", p.ev.OperationName),
		slog.String("operation_type", p.ev.OperationType),
		slog.Duration("duration", time.Since(p.ev.Start)),
		slog.Int("errors", p.ev.ErrorCount),
		slog.String("request_id", info.RequestID),
		slog.String("remote", info.RemoteAddr),
		slog.Int64("bytes_received", info.BytesReceived),
	)
}
