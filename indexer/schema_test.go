package indexer

import (
	"github.com/dgraph-io/badger/v4"
)

// setSchema overwrites the schema version of the index in dir.
func setSchema(dir, v string) error {
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		return err
	}
	defer bdb.Close()
	return bdb.Update(func(txn *badger.Txn) error { return txn.Set([]byte("meta/schema"), []byte(v)) })
}
