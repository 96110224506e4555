package config

import (
	"encoding/json"
	"fmt"

	"github.com/tailscale/hujson"
)

// ServerJSON writes s as its config entry, one key per line, for a person
// to edit; ${VAR} references stay as written.
func ServerJSON(s Server) (string, error) {
	body, err := marshalServer(s, "", "  ", false)
	return string(body), err
}

// RemoveServer deletes the server called name from the toolhub config at
// path, keeping the rest of the file (comments included) as it is, and
// replaces the file atomically.
func RemoveServer(path, name string) error {
	return editServers(path, func(tree *hujson.Value, ed *editor) error {
		if tree.Find("/mcpServers/"+escapePointer(name)) == nil {
			return fmt.Errorf("no server named %q in %s", name, path)
		}
		return patchServers(tree, "remove", name, nil)
	})
}

// ReplaceServer writes s in place of the server called name, renaming it
// to newName when that differs (a new name must not be taken), and
// replaces the file atomically.
func ReplaceServer(path, name, newName string, s Server) error {
	return editServers(path, func(tree *hujson.Value, ed *editor) error {
		if tree.Find("/mcpServers/"+escapePointer(name)) == nil {
			return fmt.Errorf("no server named %q in %s", name, path)
		}
		if newName != name {
			if tree.Find("/mcpServers/"+escapePointer(newName)) != nil {
				return fmt.Errorf("a server named %q is already in the config", newName)
			}
			if err := patchServers(tree, "remove", name, nil); err != nil {
				return err
			}
			return ed.addServer(newName, s)
		}
		obj := tree.Find("/mcpServers").Value.(*hujson.Object)
		indent, inline := ed.memberIndent(obj, "/mcpServers")
		body, err := marshalServer(s, indent, ed.unit, inline)
		if err != nil {
			return err
		}
		return patchServers(tree, "replace", name, body)
	})
}

// editServers reads the config at path, lets edit change its tree, and
// writes it back if it still parses.
func editServers(path string, edit func(*hujson.Value, *editor) error) error {
	path = resolveLink(path)
	data, perm, err := readOrStarter(path)
	if err != nil {
		return err
	}
	tree, err := hujson.Parse(data)
	if err != nil {
		return fmt.Errorf("fix the problems in %s before editing servers: %w", path, err)
	}
	ed, err := newEditor(&tree)
	if err != nil {
		return err
	}
	if err := edit(&tree, ed); err != nil {
		return fmt.Errorf("editing %s: %w", path, err)
	}
	return writeChecked(path, tree.Pack(), perm)
}

// patchServers applies one RFC 6902 operation to the member name of
// "mcpServers".
func patchServers(tree *hujson.Value, op, name string, body []byte) error {
	pointer, err := json.Marshal("/mcpServers/" + escapePointer(name))
	if err != nil {
		return err
	}
	patch := `[{"op": "` + op + `", "path": ` + string(pointer)
	if body != nil {
		patch += `, "value": ` + string(body)
	}
	if err := tree.Patch([]byte(patch + `}]`)); err != nil {
		return fmt.Errorf("%s %q: %w", op, name, err)
	}
	return nil
}
