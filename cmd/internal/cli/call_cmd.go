package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/hub"
)

func newCallCommand(g *globals) *cobra.Command {
	var argsJSON string
	var kv []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "call TOOL",
		Short: "Call one tool and print its result",
		Long: `Calls one tool through the hub, exactly as an MCP client would: the
arguments are checked against the tool's input schema first, then forwarded.
TOOL is named as toolhub tools lists it: SERVER__TOOL for a catalog tool (a
tool of a server in the config), the bare name for one of toolhub's own
(python, search_documents, ...).
toolhub's own orchestrate and research run an episode as the MCP tools do and
print its answer (or why there is none) and, with --json, the whole trace;
toolhub run prints the same episode's steps as they happen.

Arguments come from --args (a JSON object) or repeated --arg key=value. A value
given with --arg is taken as JSON when the schema does not say the property is a
string (so --arg a=2 is the number 2, --arg tags='["x"]' a list), else as text.

Text content is printed as text, structured content as JSON; --json prints the
whole MCP result. Exit status: 0 on success, 1 when the tool reports an error
or its server is down, 2 for a usage or config error (unknown tool, bad
arguments).`,
		Example: `  toolhub call everything__get-sum --args '{"a":2,"b":3}'
  toolhub call everything__echo --arg message=hello`,
		Args: oneToolName,
		RunE: func(cmd *cobra.Command, args []string) error {
			if argsJSON != "" && len(kv) > 0 {
				return usageError("use either --args or --arg, not both")
			}
			ctx := cmd.Context()
			d, err := g.startDaemon(ctx)
			if err != nil {
				return err
			}
			defer d.Close()
			res, err := callTool(ctx, g, d, args[0], argsJSON, kv)
			if err != nil {
				return err
			}
			if asJSON {
				_, err = fmt.Fprintln(g.stdio.Out, string(res.Raw))
			} else {
				err = printResult(g.stdio.Out, res.Raw)
			}
			if err != nil {
				return err
			}
			if res.IsError {
				return errToolFailure
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&argsJSON, "args", "", "arguments as one JSON object")
	cmd.Flags().StringArrayVar(&kv, "arg", nil, "one argument as key=value (repeatable)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole MCP result as JSON")
	return cmd
}

// callTool calls name with the given arguments: one of toolhub's own
// tools through the MCP surface, any other through the hub's catalog once
// its server is ready.
func callTool(ctx context.Context, g *globals, d *daemon.Daemon, name, argsJSON string, kv []string) (*hub.CallResult, error) {
	if ownTools[name] {
		if err := g.waitForServers(ctx, d.Hub()); err != nil {
			return nil, err
		}
		res, found, err := callOwnTool(ctx, d, name, argsJSON, kv)
		if found || err != nil {
			return res, err
		}
	}
	if err := g.waitForTool(ctx, d.Hub(), name); err != nil {
		return nil, err
	}
	payload, err := buildArguments(d.Hub().Snapshot(), name, argsJSON, kv)
	if err != nil {
		return nil, err
	}
	res, err := d.Hub().Call(ctx, name, payload, hub.CallOptions{})
	if err != nil {
		return nil, callError(err)
	}
	return res, nil
}

// callError classifies a hub error: the caller's mistakes exit 2, the rest 1.
func callError(err error) error {
	var unknown *hub.UnknownToolError
	var invalid *hub.InvalidArgumentsError
	if errors.As(err, &unknown) || errors.As(err, &invalid) {
		return asUsage(err)
	}
	return err
}

// buildArguments turns --args or --arg pairs into the JSON object to send
// to a catalog tool.
func buildArguments(snap *hub.Snapshot, name, argsJSON string, kv []string) (json.RawMessage, error) {
	var schema json.RawMessage
	if tool, ok := snap.Lookup(name); ok {
		schema = tool.InputSchema
	}
	return buildArgumentsFor(schema, argsJSON, kv)
}

// buildArgumentsFor turns --args or --arg pairs into the JSON object to
// send to a tool of input schema.
func buildArgumentsFor(schema json.RawMessage, argsJSON string, kv []string) (json.RawMessage, error) {
	if argsJSON != "" {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(argsJSON), &obj); err != nil {
			return nil, usageError("--args must be a JSON object: %v", err)
		}
		return json.RawMessage(argsJSON), nil
	}
	stringProps := stringProperties(schema)
	obj := make(map[string]json.RawMessage, len(kv))
	for _, pair := range kv {
		key, value, ok := strings.Cut(pair, "=")
		if !ok || key == "" {
			return nil, usageError("--arg %q: want key=value", pair)
		}
		obj[key] = argValue(value, stringProps[key])
	}
	return json.Marshal(obj)
}

func argValue(value string, isString bool) json.RawMessage {
	if !isString && json.Valid([]byte(value)) {
		return json.RawMessage(value)
	}
	quoted, _ := json.Marshal(value)
	return quoted
}

// stringProperties lists the top-level properties whose schema type is string.
func stringProperties(schema json.RawMessage) map[string]bool {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	out := map[string]bool{}
	for name, p := range s.Properties {
		if t, ok := p.Type.(string); ok && t == "string" {
			out[name] = true
		}
	}
	return out
}

// printResult prints text content as text and everything else as JSON.
func printResult(w io.Writer, raw json.RawMessage) error {
	var r struct {
		Content []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			MimeType string `json:"mimeType"`
			URI      string `json:"uri"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("decode result: %w", err)
	}
	for _, c := range r.Content {
		switch c.Type {
		case "text":
			fmt.Fprintln(w, c.Text)
		case "resource_link":
			fmt.Fprintf(w, "[resource %s]\n", c.URI)
		default:
			fmt.Fprintf(w, "[%s content %s]\n", c.Type, c.MimeType)
		}
	}
	if len(r.Content) == 0 && len(r.StructuredContent) > 0 {
		return writeJSON(w, r.StructuredContent)
	}
	return nil
}

// oneToolName checks call's arguments: one tool name, its arguments in
// flags.
func oneToolName(_ *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return usageError("call needs a tool name as toolhub tools lists it: SERVER__TOOL for a catalog tool, the bare name for one of toolhub's own (such as python)")
	case len(args) > 1:
		return usageError("call takes one tool name, got %d words: give the tool's arguments with --args '{...}' or --arg key=value", len(args))
	}
	return nil
}
