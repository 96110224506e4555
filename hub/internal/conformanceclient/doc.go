// Command conformanceclient is the client the MCP conformance suite runs
// for its client scenarios: it connects to the URL given as its last
// argument through the hub's own downstream code (the OAuth transport,
// the token store and SignIn, with a browser that follows the
// authorization server's redirects as a user approving would), lists the
// tools and calls each one. It exits 1 when any step fails.
package main
