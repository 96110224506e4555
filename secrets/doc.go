// Package secrets keeps toolhub's secrets (API keys, access tokens) out of its
// config file: in the system keychain (Secret Service on Linux, Keychain on
// macOS, Credential Manager on Windows) when one answers, else in a 0600 file
// beside the config.
//
// A Store is safe for concurrent use, and several processes (toolhub serve,
// toolhub config set-secret) may use the same folder at once: every change
// to the fallback file or to the name index is made under a file lock, by
// re-reading, changing and atomically replacing the file. Keychains cannot
// list their entries, so the names toolhub stored are kept in an index file
// (names only, never values). No error or log line ever holds a value.
package secrets
