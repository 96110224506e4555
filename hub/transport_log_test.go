package hub

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestTransportLogDemotesNormalErrors(t *testing.T) {
	tests := []struct {
		name    string
		level   slog.Level // of the logger handed in
		message string
		want    string // in the output; "" for no output
	}{
		{"no listening stream, info logger", slog.LevelInfo, "server does not support listening", ""},
		{"no listening stream, debug logger", slog.LevelDebug, "server does not support listening",
			`level=DEBUG msg="server does not support listening" server=s`},
		{"other errors stay errors", slog.LevelInfo, "failed to send request",
			`level=ERROR msg="failed to send request" server=s`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			base := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: tt.level})).With("server", "s")
			transportLog(base).Error(tt.message)
			got := strings.TrimSpace(out.String())
			if tt.want == "" && got != "" {
				t.Fatalf("logged %q, want nothing", got)
			}
			if !strings.Contains(got, tt.want) {
				t.Fatalf("logged %q, want %q", got, tt.want)
			}
		})
	}
}
