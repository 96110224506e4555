package mcp

// TokenEnvVar is the environment variable the token-free client
// configurations of HTTPSnippetsForTokenFile expect the token in.
const TokenEnvVar = "TOOLHUB_TOKEN"

// tokenInputID is the VS Code input that prompts for the token.
const tokenInputID = "toolhub-token"

// vscodeInput is a VS Code mcp.json input, prompted for once and kept by
// VS Code.
type vscodeInput struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
}

// HTTPSnippetsForTokenFile are the client configurations that reach
// toolhub's HTTP endpoint at url with the bearer token kept in tokenFile,
// without the token in them: the mcpServers JSON takes it from
// ${TOOLHUB_TOKEN} (Claude Code expands environment variables there;
// elsewhere the token is pasted in its place), VS Code prompts for it once,
// and the claude mcp add line reads the file itself, in a POSIX shell as in
// PowerShell.
func HTTPSnippetsForTokenFile(url, tokenFile string) []Snippet {
	entry := map[string]httpEntry{serverKey: {Type: "http", URL: url,
		Headers: map[string]string{"Authorization": "Bearer ${" + TokenEnvVar + "}"}}}
	vscode := map[string]httpEntry{serverKey: {Type: "http", URL: url,
		Headers: map[string]string{"Authorization": "Bearer ${input:" + tokenInputID + "}"}}}
	inputs := []vscodeInput{{Type: "promptString", ID: tokenInputID, Password: true,
		Description: "toolhub bearer token (the content of " + tokenFile + ")"}}
	claude := "claude mcp add --transport http " + serverKey + " " + shellQuote(url) +
		` --header "Authorization: Bearer $(cat ` + shellQuote(tokenFile) + `)"`
	return []Snippet{
		{
			Title: "Claude Code .mcp.json, Cursor (mcpServers JSON), over HTTP; ${" + TokenEnvVar + "} stands for the token",
			Text: indentJSON(struct {
				MCPServers map[string]httpEntry `json:"mcpServers"`
			}{entry}),
		},
		{
			Title: "VS Code (.vscode/mcp.json), which asks for the token once",
			Text: indentJSON(struct {
				Inputs  []vscodeInput        `json:"inputs"`
				Servers map[string]httpEntry `json:"servers"`
			}{inputs, vscode}),
		},
		{Title: "Claude Code (command line), which reads the token file", Text: claude},
	}
}
