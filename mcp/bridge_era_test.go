package mcp

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// modernDownstream builds hub/testdata/modernserver (mcp-go over stdio,
// speaking 2026-07-28) and returns its spec.
func modernDownstream(t *testing.T) hub.ServerSpec {
	t.Helper()
	root := testenv.RepoRoot(t)
	bin := filepath.Join(t.TempDir(), testenv.Exe("modernserver"))
	cmd := exec.Command("go", "build", "-o", bin, "./hub/testdata/modernserver")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build modernserver: %v\n%s", err, out)
	}
	return hub.ServerSpec{Name: "modern", Transport: hub.TransportStdio, Command: bin, Locality: hub.LocalityLocal}
}

// eraClient connects a client of one era to url that answers sampling and
// elicitation as a does.
type eraClient struct {
	name    string
	connect func(a *answeringClient) *mcpclient.Client
}

// clientsOfBothEras are a 2025-11-25 client and a 2026-07-28 one.
func clientsOfBothEras(t *testing.T, url string) []eraClient {
	return []eraClient{
		{"a 2025-11-25 client", func(a *answeringClient) *mcpclient.Client {
			return connectAnswering(t, url, true, nil, mcpclient.WithSamplingHandler(a), mcpclient.WithElicitationHandler(a))
		}},
		{"a 2026-07-28 client", func(a *answeringClient) *mcpclient.Client {
			return connectModern(t, url, mcpclient.WithSamplingHandler(a), mcpclient.WithElicitationHandler(a))
		}},
	}
}

// TestBridgeBothEras calls a 2026-07-28 downstream's tool that needs a
// name, then a sample, from clients of both eras: a 2025-11-25 client is
// sent elicitation/create and sampling/createMessage requests for its
// InputRequiredResult; a 2026-07-28 client gets InputRequiredResults of
// toolhub's own and retries. Both get the downstream's final result.
func TestBridgeBothEras(t *testing.T) {
	h := testHub(t, nil, modernDownstream(t))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()
	for _, tc := range clientsOfBothEras(t, url) {
		t.Run(tc.name, func(t *testing.T) {
			a := &answeringClient{name: "erin"}
			got := resultText(callTool(t, tc.connect(a), "modern__confirm", map[string]any{}))
			if want := "confirmed erin with sampled by erin"; got != want {
				t.Fatalf("result %q, want %q", got, want)
			}
			if asked := a.questions(); len(asked) != 2 || asked[0] != "your name?" || !strings.HasPrefix(asked[1], "a word for erin") {
				t.Fatalf("the client was asked %q", asked)
			}
		})
	}
}

// TestBridgePromptBothEras gets a 2026-07-28 downstream's prompt that
// asks for a name first: a 2026-07-28 client gets the downstream's
// InputRequiredResult and its retry reaches the downstream with the
// downstream's own requestState; a 2025-11-25 client is sent
// elicitation/create in its place.
func TestBridgePromptBothEras(t *testing.T) {
	h := testHub(t, nil, modernDownstream(t))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()
	for _, tc := range clientsOfBothEras(t, url) {
		t.Run(tc.name, func(t *testing.T) {
			a := &answeringClient{name: "erin"}
			req := mcpgo.GetPromptRequest{}
			req.Params.Name = "modern__greeting"
			res, err := tc.connect(a).GetPrompt(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Messages) != 1 {
				t.Fatalf("prompt result %+v", res)
			}
			if text, ok := res.Messages[0].Content.(mcpgo.TextContent); !ok || text.Text != "hello erin" {
				t.Fatalf("prompt message %+v, want hello erin", res.Messages[0].Content)
			}
			if asked := a.questions(); len(asked) != 1 || asked[0] != "your name?" {
				t.Fatalf("the client was asked %q", asked)
			}
		})
	}
}

// TestResultsNameToolhub: what a client gets is toolhub's result, so a
// 2026-07-28 client is told toolhub's identity in every result's _meta,
// never the downstream's (modernserver names itself in each of its own);
// an older client gets no such key at all.
func TestResultsNameToolhub(t *testing.T) {
	h := testHub(t, nil, modernDownstream(t))
	url := serveHTTP(t, testServer(t, h, Options{Version: "1.2.3"}), HTTPOptions{}).URL()
	for _, tc := range clientsOfBothEras(t, url) {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.connect(&answeringClient{name: "erin"})
			call := callTool(t, c, "modern__echo", map[string]any{"text": "x"})
			prompt := mcpgo.GetPromptRequest{}
			prompt.Params.Name = "modern__greeting"
			p, err := c.GetPrompt(t.Context(), prompt)
			if err != nil {
				t.Fatal(err)
			}
			read := mcpgo.ReadResourceRequest{}
			read.Params.URI = "modern://note"
			r, err := c.ReadResource(t.Context(), read)
			if err != nil {
				t.Fatal(err)
			}
			for what, meta := range map[string]*mcpgo.Meta{"tools/call": call.Meta, "prompts/get": p.Meta, "resources/read": r.Meta} {
				var info *mcpgo.Implementation
				if meta != nil {
					info = meta.ServerInfo()
				}
				switch {
				case tc.name == "a 2025-11-25 client" && info != nil:
					t.Errorf("%s: an older client was given a serverInfo %+v", what, info)
				case tc.name == "a 2026-07-28 client" && (info == nil || info.Name != "toolhub" || info.Version != "1.2.3"):
					t.Errorf("%s: serverInfo %+v, want toolhub 1.2.3", what, info)
				}
			}
		})
	}
}
