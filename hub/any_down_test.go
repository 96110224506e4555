package hub

import (
	"testing"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

func TestAnyServerDownAgreesWithDownServer(t *testing.T) {
	ready := func(name string) ServerSpec {
		return ServerSpec{Name: name, Transport: TransportInProcess, InProcess: mcpserver.NewMCPServer(name, "1")}
	}
	cases := []struct {
		name    string
		specs   []ServerSpec
		disable string // a server turned off once the hub settled
		tool    string // a tool DownServer is asked about
		want    bool
	}{
		{"every server ready", []ServerSpec{ready("up"), ready("other")}, "", "other__x", false},
		{"an invalid entry", []ServerSpec{ready("up"), {Name: "bad", Transport: TransportStdio, Command: "x",
			Invalid: "c.json:1:1: no command"}}, "", "bad__x", true},
		{"a server turned off", []ServerSpec{ready("up"), ready("off")}, "off", "off__x", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := startHub(t, tc.specs...)
			if tc.disable != "" {
				if err := h.SetEnabled(t.Context(), tc.disable, false); err != nil {
					t.Fatal(err)
				}
			}
			if got := h.AnyServerDown(); got != tc.want {
				t.Errorf("AnyServerDown() = %v, want %v (servers %+v)", got, tc.want, h.Servers())
			}
			if _, down := h.DownServer(tc.tool); down != tc.want {
				t.Errorf("DownServer(%q) down = %v, want %v", tc.tool, down, tc.want)
			}
		})
	}
}
