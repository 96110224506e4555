package cli

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// toolView is one catalog entry as printed by `toolhub tools --json`.
type toolView struct {
	Name        string       `json:"name"`
	Server      string       `json:"server"`
	Original    string       `json:"original"`
	Description string       `json:"description,omitempty"`
	Locality    hub.Locality `json:"locality"`
	CostPerCall float64      `json:"costPerCall"`
	// CostPerSecond is USD per second of a call, on top of CostPerCall.
	CostPerSecond float64         `json:"costPerSecond,omitempty"`
	Calls         int64           `json:"calls"`
	LatencyMS     float64         `json:"latencyMs"`
	InputSchema   json.RawMessage `json:"inputSchema,omitempty"`
}

func newToolsCommand(g *globals) *cobra.Command {
	var asJSON bool
	var server string
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the merged tool catalog",
		Long: `Connects to every enabled server and lists the tools of all of them, under the
names MCP clients see: server__tool (at most 60 characters) for a server's
tools, and the bare name for toolhub's own (python, search_documents, ...).
--server keeps one server's tools; --json prints each tool's full input schema
too.`,
		Example: "  toolhub tools\n  toolhub tools --server everything --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := g.startSettledFor(cmd.Context(), server)
			if err != nil {
				return err
			}
			defer d.Close()
			snap := d.Hub().Snapshot()
			tools := snap.Tools()
			if server != "" {
				if err := serverDown(d.Hub().Servers(), server); err != nil {
					return err
				}
				tools = snap.ServerTools(server)
			}
			if asJSON {
				return writeJSON(g.stdio.Out, toolViews(tools))
			}
			t := newTable(g.stdio.Out, "NAME", "SERVER", "LOCALITY", "COST", "DESCRIPTION")
			for _, tool := range tools {
				t.row(tool.Name, tool.Server, string(tool.Locality), costText(tool), oneLine(tool.Description, 60))
			}
			if err := t.flush(); err != nil {
				return err
			}
			fmt.Fprintln(g.stdio.Err, conductor.Count(len(tools), "tool"))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON with full schemas")
	cmd.Flags().StringVar(&server, "server", "", "only this server's tools")
	return cmd
}

// costText is a tool's price: per call, and per second where it has one.
func costText(t *hub.Tool) string {
	s := strconv.FormatFloat(t.CostPerCall, 'f', -1, 64)
	if t.CostPerSecond > 0 {
		s += "+" + strconv.FormatFloat(t.CostPerSecond, 'f', -1, 64) + "/s"
	}
	return s
}

func hasServer(sts []hub.ServerStatus, name string) bool {
	for _, st := range sts {
		if st.Name == name {
			return true
		}
	}
	return false
}

// serverDown is the error of a named server that settled without tools
// to list (failed, invalid, disabled ...); nil when it is ready.
func serverDown(sts []hub.ServerStatus, name string) error {
	for _, st := range sts {
		if st.Name == name && st.State != hub.StateReady {
			return hub.Unavailable(st)
		}
	}
	return nil
}

func toolViews(tools []*hub.Tool) []toolView {
	out := make([]toolView, 0, len(tools))
	for _, t := range tools {
		v := t.Stats.View()
		out = append(out, toolView{
			Name: t.Name, Server: t.Server, Original: t.RawTool.Name, Description: t.Description,
			Locality: t.Locality, CostPerCall: t.CostPerCall, CostPerSecond: t.CostPerSecond, Calls: v.Calls,
			LatencyMS: float64(v.Latency.Microseconds()) / 1000, InputSchema: t.InputSchema,
		})
	}
	return out
}
