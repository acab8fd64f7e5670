package graft

import (
	"context"
	"log/slog"
	"time"

	"github.com/graftgql/graft/accesslog"
	"github.com/graftgql/graft/internal/httpapi"
)

// accessLog writes the one access-log line of a request when
// Config.AccessLog is set: through accesslog.Handler.Log, which formats
// without allocating, when the logger's handler is an accesslog.Handler,
// else as a record with the same attributes.
func (r *Router) accessLog(ctx context.Context, p *phaseRun, resp *httpapi.Response) {
	l := r.cfg.AccessLog
	if l == nil {
		return
	}
	info := p.st.info
	now := time.Now()
	e := accesslog.Entry{
		Time:          now,
		Method:        info.Method,
		Status:        resp.Status,
		OperationName: p.ev.OperationName,
		OperationType: p.ev.OperationType,
		Duration:      now.Sub(p.ev.Start),
		Errors:        p.ev.ErrorCount,
		RequestID:     info.RequestID,
		Remote:        info.RemoteAddr,
	}
	if h, ok := l.Handler().(*accesslog.Handler); ok {
		h.Log(&e)
		return
	}
	l.LogAttrs(ctx, slog.LevelInfo, accesslog.Message, e.Attrs()...)
}
