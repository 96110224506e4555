// Package config reads, checks and edits toolhub's configuration file, and
// finds the MCP configuration files of other clients (Claude Desktop, Cursor,
// VS Code, Claude Code, Windsurf) so their servers can be imported.
//
// The file is JSON with comments and trailing commas allowed (the JSONC of
// VS Code's settings), shaped like Claude Desktop's "mcpServers" file plus a
// few toolhub keys. Every problem is reported with file:line:column; columns
// count bytes, as Go tools do.
//
// References to environment variables, ${NAME} and ${NAME:-default}, and
// to secrets, ${keychain:NAME}, are expanded only in the values of "env"
// and "headers", and only when File.Specs (or SpecsFrom, which reads
// secrets through the caller's Secrets) builds the hub's server specs:
// command, args, cwd and url are used exactly as written. Error messages
// name a missing variable or secret but never print any value. A secret
// that belongs to one server is named SERVER.KEY (SecretName); imports
// turn VS Code's ${input:ID} into ${keychain:SERVER.ID} and move literal
// secrets out of env and headers (MoveLiteralSecrets).
package config
