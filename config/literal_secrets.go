package config

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// tokenPrefixes start the API keys and access tokens that well-known
// services issue; a value that starts with one is a secret wherever it is.
var tokenPrefixes = []string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", // GitHub
	"glpat-",                                  // GitLab
	"sk-", "sk_live_", "sk_test_", "rk_live_", // OpenAI, Anthropic, Stripe
	"xoxb-", "xoxp-", "xoxa-", "xoxe-", "xapp-", // Slack
	"AKIA", "ASIA", // AWS access key ids
	"AIza",                          // Google API keys
	"hf_", "pplx-", "npm_", "pypi-", // Hugging Face, Perplexity, npm, PyPI
	"lin_api_", "ntn_", "dop_v1_", // Linear, Notion, DigitalOcean
}

// authScheme is an Authorization value's scheme, kept in front of the
// reference: "Bearer ${keychain:...}".
var authScheme = regexp.MustCompile(`^(?i)(bearer|token|basic)\s+(\S+)$`)

// literalSecret splits a value of env or headers (kind) named key into
// what stays written and the secret to move, when it holds one.
func literalSecret(kind, key, value string) (keep, secret string, ok bool) {
	v := strings.TrimSpace(value)
	if v == "" || strings.Contains(v, "${") {
		return "", "", false
	}
	if m := authScheme.FindStringSubmatch(v); m != nil {
		keep, v = m[1]+" ", m[2]
	}
	if hasTokenPrefix(v) || (sensitiveKey(kind, key) && !plainValue(v)) {
		return keep, v, true
	}
	return "", "", false
}

// hasTokenPrefix reports whether v looks like an issued token: a known
// prefix and at least 8 more characters, with no spaces.
func hasTokenPrefix(v string) bool {
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(v, p) && len(v) >= len(p)+8 && !strings.ContainsAny(v, " \t") {
			return true
		}
	}
	return false
}

// sensitiveKey reports whether an env variable or header of this name
// holds credentials.
func sensitiveKey(kind, key string) bool {
	if kind == "headers" {
		k := strings.ToLower(key)
		return k == "authorization" || k == "proxy-authorization" || k == "cookie" ||
			strings.Contains(k, "token") || strings.Contains(k, "key") ||
			strings.Contains(k, "secret") || strings.Contains(k, "password")
	}
	k := strings.ToUpper(key)
	for _, suffix := range []string{"_TOKEN", "_KEY", "_SECRET", "_APIKEY", "_PAT"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return k == "TOKEN" || k == "KEY" || k == "SECRET" || k == "APIKEY" ||
		strings.Contains(k, "PASSWORD") || strings.Contains(k, "PASSWD")
}

// plainValue reports whether v is a URL, a path, a number or a yes/no
// word: settings, not secrets, even under a key like TOKEN_URL.
func plainValue(v string) bool {
	if strings.Contains(v, "://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "./") {
		return true
	}
	if len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/') {
		return true // C:\path
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true
	}
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off":
		return true
	}
	return false
}

// LiteralSecrets names, for each literal secret in the env and headers of
// the named servers (all, sorted, when names is nil), where
// MoveLiteralSecrets would keep it: "SERVER.KEY".
func LiteralSecrets(servers map[string]Server, names []string) []string {
	var out []string
	forEachLiteral(servers, names, func(name, _, _ string, _ map[string]string, _ string) {
		out = append(out, name)
	})
	return out
}

// MoveLiteralSecrets hands each literal secret of the named servers to set
// under its name and writes ${keychain:NAME} in its place (keeping an
// Authorization scheme: "Bearer ${keychain:NAME}"). It returns the names
// moved. After an error servers may be partly rewritten: write none of it.
func MoveLiteralSecrets(servers map[string]Server, names []string, set func(name, value string) error) ([]string, error) {
	var moved []string
	var err error
	forEachLiteral(servers, names, func(name, keep, secret string, values map[string]string, key string) {
		if err != nil {
			return
		}
		if err = set(name, secret); err != nil {
			err = fmt.Errorf("store secret %s: %w", name, err)
			return
		}
		values[key] = keep + "${" + keychainPrefix + name + "}"
		moved = append(moved, name)
	})
	return moved, err
}

// forEachLiteral calls fn for every literal secret, on copies of the env
// and headers maps that replace the servers' own.
func forEachLiteral(servers map[string]Server, names []string, fn func(name, keep, secret string, values map[string]string, key string)) {
	if names == nil {
		names = slices.Sorted(maps.Keys(servers))
	}
	for _, server := range names {
		s, ok := servers[server]
		if !ok {
			continue
		}
		s.Env, s.Headers = maps.Clone(s.Env), maps.Clone(s.Headers)
		taken := map[string]bool{}
		for _, kind := range []string{"env", "headers"} {
			values := s.Env
			if kind == "headers" {
				values = s.Headers
			}
			for _, key := range slices.Sorted(maps.Keys(values)) {
				keep, secret, ok := literalSecret(kind, key, values[key])
				if !ok {
					continue
				}
				name := SecretName(server, key)
				if taken[name] {
					name = SecretName(server, kind+"."+key)
				}
				taken[name] = true
				fn(name, keep, secret, values, key)
			}
		}
		servers[server] = s
	}
}
