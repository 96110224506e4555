// Package service installs the toolhub hub as a per-user background
// service that runs `toolhub serve --http` whenever the user is logged in:
// a systemd user unit on Linux (logs in the journal), a launchd agent on
// macOS (logs in ~/Library/Logs/toolhub) and a scheduled task run at logon
// on Windows, which runs `toolhub service run`: Keep, starting `serve`
// again when it fails, as systemd and launchd do themselves.
//
// The unit, plist and task are written by pure functions; the service
// manager (systemctl --user, launchctl, schtasks) is reached through a
// Runner, so the whole install can be tested without one.
package service
