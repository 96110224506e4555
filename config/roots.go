package config

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tailscale/hujson"
)

// AddDocumentRoot appends root to "documents.roots" in the config at path,
// keeping the user's comments and layout; a root already listed is left
// alone (added is then false). A missing config starts from the starter.
func AddDocumentRoot(path, root string) (added bool, err error) {
	path = resolveLink(path)
	data, perm, err := readOrStarter(path)
	if err != nil {
		return false, err
	}
	f, err := Parse(path, data)
	if err != nil {
		return false, fmt.Errorf("the config has problems; fix them first: %w", err)
	}
	if slices.Contains(f.Documents.Roots, root) {
		return false, nil
	}
	doc, err := hujson.Parse(data)
	if err != nil {
		return false, fmt.Errorf("parse config: %w", err)
	}
	e, err := newEditor(&doc)
	if err != nil {
		return false, err
	}
	if doc.Find("/documents") == nil {
		if err := e.add("", "documents", []byte(`{}`)); err != nil {
			return false, err
		}
	}
	if doc.Find("/documents/roots") == nil {
		if err := e.add("/documents", "roots", []byte(`[]`)); err != nil {
			return false, err
		}
	}
	value, err := json.Marshal(root)
	if err != nil {
		return false, fmt.Errorf("encode root: %w", err)
	}
	patch := fmt.Sprintf(`[{"op": "add", "path": "/documents/roots/-", "value": %s}]`, value)
	if err := doc.Patch([]byte(patch)); err != nil {
		return false, fmt.Errorf("add document root: %w", err)
	}
	if err := writeChecked(path, doc.Pack(), perm); err != nil {
		return false, err
	}
	return true, nil
}
