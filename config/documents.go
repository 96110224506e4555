package config

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

var (
	documentsKeys = []string{"dir", "roots", "exclude", "maxFileBytes", "embedder"}
	embedderKeys  = []string{"url", "model", "dimensions", "apiKeyEnv", "batchSize"}
)

// readDocuments decodes the "documents" section.
func readDocuments(d decoder, v *hujson.Value) Documents {
	var docs Documents
	members, ok := d.object(v, "documents")
	if !ok {
		return docs
	}
	for _, m := range members {
		what := "documents." + m.key
		switch m.key {
		case "dir":
			docs.Dir, _ = d.str(m.value, what)
		case "roots":
			docs.Roots, _ = d.strList(m.value, what)
			checkNonEmpty(d, m, docs.Roots)
		case "exclude":
			docs.Exclude, _ = d.strList(m.value, what)
			checkPatterns(d, m, docs.Exclude)
		case "maxFileBytes":
			docs.MaxFileBytes, _ = d.count(m.value, what)
		case "embedder":
			docs.Embedder = readEmbedder(d, m)
		default:
			d.at(m.keyAt, "documents: unknown key %q%s", m.key, didYouMean(m.key, documentsKeys))
		}
	}
	return docs
}

// readEmbedder decodes "documents.embedder"; url and model are required.
func readEmbedder(d decoder, outer member) *Embedder {
	members, ok := d.object(outer.value, "documents.embedder")
	if !ok {
		return nil
	}
	e := &Embedder{}
	for _, m := range members {
		what := "documents.embedder." + m.key
		switch m.key {
		case "url":
			e.URL, _ = d.str(m.value, what)
			if u, err := url.Parse(e.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				d.at(m.valueAt, "%s: want an http:// or https:// URL, got %q", what, clip(e.URL))
			}
		case "model":
			e.Model, _ = d.str(m.value, what)
		case "dimensions":
			n, _ := d.count(m.value, what)
			e.Dimensions = int(min(n, 1<<20))
		case "apiKeyEnv":
			e.APIKeyEnv, _ = d.str(m.value, what)
			if e.APIKeyEnv != "" && !isEnvName(e.APIKeyEnv) {
				d.at(m.valueAt, "%s: want the name of an environment variable, such as OPENAI_API_KEY", what)
			}
		case "batchSize":
			n, _ := d.count(m.value, what)
			e.BatchSize = int(min(n, 1<<20))
		default:
			d.at(m.keyAt, "documents.embedder: unknown key %q%s", m.key, didYouMean(m.key, embedderKeys))
		}
	}
	if e.URL == "" {
		d.at(outer.keyAt, `documents.embedder: needs "url"`)
	}
	if e.Model == "" {
		d.at(outer.keyAt, `documents.embedder: needs "model"`)
	}
	return e
}

func checkNonEmpty(d decoder, m member, values []string) {
	for _, v := range values {
		if strings.TrimSpace(v) == "" {
			d.at(m.valueAt, "documents.%s: entries must not be empty", m.key)
			return
		}
	}
}

func checkPatterns(d decoder, m member, patterns []string) {
	for _, p := range patterns {
		if _, err := filepath.Match(p, ""); err != nil {
			d.at(m.valueAt, "documents.%s: bad pattern %q: %v", m.key, clip(p), err)
		}
	}
}

// ResolvedRoots returns Roots with a leading "~" replaced by home.
func (docs Documents) ResolvedRoots(home string) []string {
	out := make([]string, len(docs.Roots))
	for i, r := range docs.Roots {
		out[i] = ExpandHome(r, home)
	}
	return out
}

// ExpandHome replaces a leading "~" of p (alone, or before "/", or on
// Windows before a backslash) with home; any other p, and any p when home
// is "", is kept.
func ExpandHome(p, home string) string {
	return expandHomeSep(p, home, filepath.Separator)
}

// expandHomeSep is ExpandHome with the platform's separator given.
func expandHomeSep(p, home string, sep byte) string {
	if home == "" || !strings.HasPrefix(p, "~") {
		return p
	}
	rest := p[1:]
	switch {
	case rest == "":
		return home
	case rest[0] == '/' || rest[0] == sep:
		return filepath.Join(home, rest[1:])
	}
	return p
}
