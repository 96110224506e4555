package config

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
)

// DefaultStartTimeout is how long a launched model server may take to
// become healthy: downloading and loading 16 GB of weights is slow.
const DefaultStartTimeout = 20 * time.Minute

var launchKeys = []string{"command", "env", "cwd", "health", "startTimeout"}

// Launch is "orchestrator.launch": the command toolhub runs to serve the
// orchestrator model, and how it knows the server is ready.
type Launch struct {
	// Command is the program and its arguments, e.g. ["vllm", "serve", ...].
	Command []string
	// Env is added to the minimal environment the server gets; ${NAME}
	// references are expanded from toolhub's environment when it starts.
	Env map[string]string
	Cwd string
	// Health answers 200 once the model is loaded. Default: /health on the
	// orchestrator's baseUrl host (vLLM, llama-server); Ollama needs "/".
	Health       string
	StartTimeout time.Duration
}

// readLaunch decodes "orchestrator.launch"; command is required.
func readLaunch(d decoder, outer member) *Launch {
	members, ok := d.object(outer.value, "orchestrator.launch")
	if !ok {
		return nil
	}
	l := &Launch{StartTimeout: DefaultStartTimeout}
	for _, m := range members {
		what := "orchestrator.launch." + m.key
		switch m.key {
		case "command":
			l.Command, _ = d.strList(m.value, what)
			if len(l.Command) == 0 || l.Command[0] == "" {
				d.at(m.valueAt, "%s: want the program and its arguments, e.g. [\"llama-server\", \"--jinja\"]", what)
			}
		case "env":
			l.Env, _ = d.strMap(m.value, what)
		case "cwd":
			l.Cwd, _ = d.str(m.value, what)
		case "health":
			l.Health, _ = d.str(m.value, what)
			if !isHTTPURL(l.Health) {
				d.at(m.valueAt, "%s: want an http:// or https:// URL, got %q", what, clip(l.Health))
			}
		case "startTimeout":
			l.StartTimeout = readDuration(d, m, what)
		default:
			d.at(m.keyAt, "orchestrator.launch: unknown key %q%s", m.key, didYouMean(m.key, launchKeys))
		}
	}
	if l.Command == nil {
		d.at(outer.valueAt, "orchestrator.launch: command is required")
	}
	return l
}

// defaultHealthURL is /health on the host of an OpenAI base URL.
func defaultHealthURL(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/health"}).String()
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// ExpandedEnv returns Env with ${NAME} and ${NAME:-default} replaced from
// lookup, as in a server's "env". An unset variable without a default is an
// error naming it (never its value).
func (l *Launch) ExpandedEnv(lookup func(string) (string, bool)) (map[string]string, error) {
	return l.ExpandedEnvFrom(Lookup{Env: lookup})
}

// ExpandedEnvFrom is ExpandedEnv that also reads ${keychain:NAME} from
// lk.Secrets; a secret that is not set is an error naming the command
// that sets it.
func (l *Launch) ExpandedEnvFrom(lk Lookup) (map[string]string, error) {
	out := make(map[string]string, len(l.Env))
	for _, name := range slices.Sorted(maps.Keys(l.Env)) {
		v, missing, err := expand(l.Env[name], lk)
		if err != nil {
			return nil, fmt.Errorf("orchestrator.launch.env.%s: %w", name, err)
		}
		if len(missing) > 0 {
			msgs := make([]string, len(missing))
			for i, m := range missing {
				msgs[i] = m.message()
			}
			return nil, fmt.Errorf("orchestrator.launch.env.%s: %s", name, strings.Join(msgs, "; "))
		}
		out[name] = v
	}
	return out, nil
}
