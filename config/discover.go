package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// DiscoverEnv is the machine Discover looks at; tests fake each OS with it.
type DiscoverEnv struct {
	GOOS   string // "linux", "darwin", "windows", ...
	Home   string // the user's home directory
	Cwd    string // the project directory ("" to skip project files)
	Getenv func(string) string
}

// HostDiscoverEnv describes this machine, with the working directory as
// the project.
func HostDiscoverEnv() DiscoverEnv {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return DiscoverEnv{GOOS: runtime.GOOS, Home: home, Cwd: cwd, Getenv: os.Getenv}
}

// Found is one client configuration file that exists.
type Found struct {
	Client   string
	Path     string
	Servers  map[string]Server
	Warnings []string
	Err      error // the file exists but could not be read
	// warnedAbout names the server each warning is about ("" for the file).
	warnedAbout []string
}

// candidate is a place a client keeps its MCP configuration.
type candidate struct {
	client, path string
}

// Discover lists the MCP configuration files of Claude Desktop, Cursor,
// VS Code, Claude Code and Windsurf that exist, user-wide and in the
// project directory, with their servers.
func Discover(env DiscoverEnv) []Found {
	var found []Found
	var seen []string
	for _, c := range candidates(env) {
		path := filepath.Clean(c.path)
		if slices.Contains(seen, path) || !isFile(path) {
			continue
		}
		seen = append(seen, path)
		f := Found{Client: c.client, Path: path}
		cf, err := readClientFile(path, c.client)
		if err != nil {
			f.Err = err
		} else {
			f.Servers, f.Warnings, f.warnedAbout = cf.Servers, cf.Warnings, cf.warnedAbout
		}
		found = append(found, f)
	}
	return found
}

// candidates lists the usual configuration paths on env's OS.
func candidates(env DiscoverEnv) []candidate {
	home := env.Home
	userConfig := userConfigDir(env)
	list := []candidate{
		{ClientClaudeDesktop, filepath.Join(userConfig, "Claude", "claude_desktop_config.json")},
		{ClientCursor, filepath.Join(home, ".cursor", "mcp.json")},
		{ClientVSCode, filepath.Join(userConfig, "Code", "User", "mcp.json")},
		{ClientClaudeCode, filepath.Join(home, ".claude.json")},
		{ClientWindsurf, filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")},
	}
	if env.Cwd != "" {
		list = append(list,
			candidate{ClientCursor, filepath.Join(env.Cwd, ".cursor", "mcp.json")},
			candidate{ClientVSCode, filepath.Join(env.Cwd, ".vscode", "mcp.json")},
			candidate{ClientClaudeCode, filepath.Join(env.Cwd, ".mcp.json")},
		)
	}
	return slices.DeleteFunc(list, func(c candidate) bool { return !filepath.IsAbs(c.path) })
}

// userConfigDir is where desktop apps keep settings on env's OS.
func userConfigDir(env DiscoverEnv) string {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	switch env.GOOS {
	case "windows":
		if dir := getenv("APPDATA"); dir != "" {
			return dir
		}
		return filepath.Join(env.Home, "AppData", "Roaming")
	case "darwin":
		return filepath.Join(env.Home, "Library", "Application Support")
	}
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(env.Home, ".config")
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
