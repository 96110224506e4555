package retriever

import (
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// Folders and files removed from under a root are recorded as omissions
// of that root (x/<path>), so that refreshing the root does not bring them
// back. Adding the path itself again lifts the omission.

// Excluded lists the paths removed from under an indexed root; refreshes
// leave them out until they are added again by name.
func (ix *Index) Excluded() ([]string, error) {
	var out []string
	err := eachKey(ix.db, prefixOmit, false, func(path string, _ []byte) error {
		out = append(out, path)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list excluded paths: %w", err)
	}
	return out, nil
}

// omit records path as excluded when it lies below a recorded root, and
// drops the omissions below it, which it now covers. It reports whether
// it recorded or dropped any.
func (ix *Index) omit(path string) (bool, error) {
	roots, err := ix.Roots()
	if err != nil {
		return false, err
	}
	under := slices.ContainsFunc(roots, func(r string) bool { return r != path && isUnder(path, r) })
	covered, err := ix.omissionsUnder(path)
	if err != nil {
		return false, err
	}
	err = ix.db.Update(func(txn *badger.Txn) error {
		for _, x := range covered {
			if err := txn.Delete(omitKey(x)); err != nil {
				return err
			}
		}
		if under {
			return txn.Set(omitKey(path), nil)
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("record %s as excluded: %w", path, err)
	}
	return under || len(covered) > 0, nil
}

// unomit lifts the omissions of paths added again by name.
func (ix *Index) unomit(txn *badger.Txn, path string) error {
	return txn.Delete(omitKey(path))
}

// omissionsUnder lists the omissions at or below path.
func (ix *Index) omissionsUnder(path string) ([]string, error) {
	var out []string
	err := eachKey(ix.db, prefixOmit+path, false, func(rest string, _ []byte) error {
		if x := path + rest; isUnder(x, path) {
			out = append(out, x)
		}
		return nil
	})
	return out, err
}

// omissions is the set of excluded paths and the recorded roots that lie
// inside one of them (added by name after their folder was removed).
type omissions struct {
	paths  []string
	inside []string
}

func (ix *Index) loadOmissions() (omissions, error) {
	var o omissions
	var err error
	if o.paths, err = ix.Excluded(); err != nil || len(o.paths) == 0 {
		return o, err
	}
	roots, err := ix.Roots()
	if err != nil {
		return o, err
	}
	for _, r := range roots {
		if o.covers(r) {
			o.inside = append(o.inside, r)
		}
	}
	return o, nil
}

// covers reports whether path is excluded.
func (o omissions) covers(path string) bool {
	return slices.ContainsFunc(o.paths, func(x string) bool { return isUnder(path, x) })
}

// under lists the excluded paths strictly below root, for its walk.
func (o omissions) under(root string) []string {
	var out []string
	for _, x := range o.paths {
		if x != root && isUnder(x, root) {
			out = append(out, x)
		}
	}
	return out
}

// ownedElsewhere reports whether path belongs to a root other than root
// that lies inside an excluded folder: the walk of root does not see it,
// yet it is indexed.
func (o omissions) ownedElsewhere(path, root string) bool {
	return slices.ContainsFunc(o.inside, func(q string) bool { return q != root && isUnder(path, q) })
}
