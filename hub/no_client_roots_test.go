package hub

import (
	"errors"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestServerGivenNoClientRoots: a server whose entry gives it no client's
// roots is declared no roots capability, and a roots/list it sends anyway
// is refused before any client is looked for; it may still sample and
// elicit.
func TestServerGivenNoClientRoots(t *testing.T) {
	d := &downstream{spec: ServerSpec{Name: "s", NoClientRoots: true}}
	caps := d.downstreamClientCapabilities()
	if caps.Roots != nil || caps.Sampling == nil || caps.Elicitation == nil {
		t.Fatalf("declared %+v, want sampling and elicitation without roots", caps)
	}
	_, err := d.answerServerRequest(t.Context(), string(mcpgo.MethodListRoots), nil)
	var unsupported *ClientUnsupportedError
	if !errors.As(err, &unsupported) || unsupported.Capability != CapabilityRoots {
		t.Fatalf("roots/list answered with %v, want the roots capability refused", err)
	}
	if (&downstream{}).downstreamClientCapabilities().Roots == nil {
		t.Fatal("a server of an ordinary entry is declared no roots capability")
	}
}
