package retriever

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// badgerLogger routes Badger's printf-style logging to slog. Badger's INFO
// chatter (compactions, table flushes) is demoted to debug.
type badgerLogger struct{ log *slog.Logger }

func (l badgerLogger) Errorf(f string, a ...any)   { l.emit(slog.LevelError, f, a) }
func (l badgerLogger) Warningf(f string, a ...any) { l.emit(slog.LevelWarn, f, a) }
func (l badgerLogger) Infof(f string, a ...any)    { l.emit(slog.LevelDebug, f, a) }
func (l badgerLogger) Debugf(f string, a ...any)   { l.emit(slog.LevelDebug, f, a) }

func (l badgerLogger) emit(level slog.Level, format string, args []any) {
	msg := strings.TrimSpace(fmt.Sprintf(format, args...))
	l.log.Log(context.Background(), level, msg, "component", "badger")
}
