package retriever

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// getDoc reads a document record; it returns nil, nil when there is none.
func getDoc(txn *badger.Txn, path string) (*docRecord, error) {
	item, err := txn.Get(docKey(path))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read record of %s: %w", path, err)
	}
	var rec *docRecord
	err = item.Value(func(b []byte) error {
		rec, err = decodeDoc(path, b)
		return err
	})
	return rec, err
}

// loadDoc reads one document record in its own transaction.
func loadDoc(db *badger.DB, path string) (rec *docRecord, err error) {
	err = db.View(func(txn *badger.Txn) error {
		rec, err = getDoc(txn, path)
		return err
	})
	return rec, err
}

// setDoc writes a record and its state marker in txn.
func setDoc(txn *badger.Txn, rec *docRecord) error {
	if err := txn.Set(docKey(rec.Path), encodeJSON(rec)); err != nil {
		return err
	}
	if rec.State == stateCommitted {
		return txn.Delete(stateKey(rec.Path))
	}
	return txn.Set(stateKey(rec.Path), []byte(rec.State))
}

// dropDoc removes a record and its state marker in txn.
func dropDoc(txn *badger.Txn, path string) error {
	if err := txn.Delete(docKey(path)); err != nil {
		return err
	}
	return txn.Delete(stateKey(path))
}

// updateEach runs fn for every item in as few transactions as Badger
// allows: when a transaction grows too big it is committed and fn is
// retried in a fresh one. Each fn call must be self-contained.
func updateEach[T any](db *badger.DB, items []T, fn func(*badger.Txn, T) error) error {
	txn := db.NewTransaction(true)
	defer func() { txn.Discard() }()
	for _, it := range items {
		err := fn(txn, it)
		if errors.Is(err, badger.ErrTxnTooBig) {
			if err = txn.Commit(); err != nil {
				return fmt.Errorf("commit: %w", err)
			}
			txn = db.NewTransaction(true)
			err = fn(txn, it)
		}
		if err != nil {
			return err
		}
	}
	if err := txn.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// chunkWrite is one chunk to store.
type chunkWrite struct {
	id    string
	chunk chunkRecord
}

// writeChunks stores chunks and waits until they are written.
func writeChunks(db *badger.DB, chunks []chunkWrite) error {
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	for _, c := range chunks {
		if err := wb.Set(chunkKey(c.id), encodeChunk(c.chunk)); err != nil {
			return fmt.Errorf("write chunk %s: %w", c.id, err)
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("write chunks: %w", err)
	}
	return nil
}

// deleteKeys removes keys and waits until the deletions are written.
func deleteKeys(db *badger.DB, keys [][]byte) error {
	if len(keys) == 0 {
		return nil
	}
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			return fmt.Errorf("delete %q: %w", k, err)
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("delete keys: %w", err)
	}
	return nil
}

// chunkAndVectorKeys lists the Badger keys of the given chunk IDs.
func chunkAndVectorKeys(ids []string) [][]byte {
	keys := make([][]byte, 0, 3*len(ids))
	for _, id := range ids {
		keys = append(keys, chunkKey(id), vectorKey(id), codeKey(id))
	}
	return keys
}

// eachKey calls fn with every key under prefix (the prefix stripped) and,
// when withValues is set, the value.
func eachKey(db *badger.DB, prefix string, withValues bool, fn func(key string, val []byte) error) error {
	return db.View(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.Prefix = []byte(prefix)
		opts.PrefetchValues = withValues
		it := txn.NewIterator(opts)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			key := strings.TrimPrefix(string(item.Key()), prefix)
			var val []byte
			if withValues {
				var err error
				if val, err = item.ValueCopy(nil); err != nil {
					return fmt.Errorf("read %s%s: %w", prefix, key, err)
				}
			}
			if err := fn(key, val); err != nil {
				return err
			}
		}
		return nil
	})
}

// eachDoc calls fn with every document record whose path starts with prefix.
func eachDoc(db *badger.DB, prefix string, fn func(*docRecord) error) error {
	return eachKey(db, prefixDoc+prefix, true, func(rest string, val []byte) error {
		rec, err := decodeDoc(prefix+rest, val)
		if err != nil {
			return err
		}
		return fn(rec)
	})
}

// readChunks reads the stored chunks with the given IDs; a missing chunk
// is an error.
func readChunks(db *badger.DB, ids []string) ([]chunkRecord, error) {
	out := make([]chunkRecord, len(ids))
	err := db.View(func(txn *badger.Txn) error {
		for i, id := range ids {
			item, err := txn.Get(chunkKey(id))
			if err != nil {
				return fmt.Errorf("read chunk %s: %w", id, err)
			}
			if err := item.Value(func(b []byte) error {
				out[i], err = decodeChunk(b)
				return err
			}); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

func setFlag(db *badger.DB, key string, on bool) error {
	return db.Update(func(txn *badger.Txn) error {
		if on {
			return txn.Set([]byte(key), []byte{1})
		}
		return txn.Delete([]byte(key))
	})
}

func hasKey(db *badger.DB, key string) (bool, error) {
	found := false
	err := db.View(func(txn *badger.Txn) error {
		_, err := txn.Get([]byte(key))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		found = err == nil
		return err
	})
	return found, err
}

// collectGarbage rewrites value-log files that are mostly stale, so that
// replaced and removed chunks give their disk space back. It is best
// effort: Badger learns what is stale as it compacts.
func collectGarbage(db *badger.DB) {
	for range 8 {
		if db.RunValueLogGC(0.5) != nil {
			return
		}
	}
}
