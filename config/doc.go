// Package config reads, checks and edits toolhub's configuration file, and
// finds the MCP configuration files of other clients (Claude Desktop, Cursor,
// VS Code, Claude Code, Windsurf) so their servers can be imported.
//
// The file is JSON with comments and trailing commas allowed (the JSONC of
// VS Code's settings), shaped like Claude Desktop's "mcpServers" file plus a
// few toolhub keys. Every problem is reported with file:line:column; columns
// count bytes, as Go tools do.
//
// References to environment variables, ${NAME} and ${NAME:-default}, are
// expanded only in the values of "env" and "headers", and only when
// File.Specs builds the hub's server specs: command, args, cwd and url are
// used exactly as written. Error messages name a missing variable but never
// print any variable's value.
package config
