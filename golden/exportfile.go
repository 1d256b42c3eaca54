package golden

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reflect-mcp/reflect/store"
)

// DefaultExportName is the file name a corpus's export gets when no path is
// given: its name and its id, so two corpora that share a file name
// (a/invoices.jsonl, b/invoices.jsonl) never write the same file
// (new-user report #4). A queue's name is unique already.
func DefaultExportName(c store.Corpus) string {
	if q, ok := store.QueueName(c.ID); ok {
		return "queue-" + filepath.Base(q) + ".golden.jsonl"
	}
	id := c.ID
	if i := strings.LastIndexByte(id, ':'); i >= 0 {
		id = id[i+1:]
	}
	return filepath.Base(c.Name) + "." + filepath.Base(id) + ".golden.jsonl"
}

// CheckExportOwner refuses to replace path when it holds another corpus's
// export: its first row's review names a corpus other than corpusID. A
// missing or empty file, or one that is no export, is not refused.
func CheckExportOwner(path, corpusID string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // nothing to overwrite, or the write reports why
	}
	defer f.Close()
	var row ExportRow
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&row); err != nil {
		return nil
	}
	if c := row.Review.Corpus; c != "" && c != corpusID {
		return &FileError{fmt.Errorf("%s holds the export of corpus %s, not of %s: not overwritten (give another path with --export)", path, c, corpusID)}
	}
	return nil
}

// FileError is an export that failed at the file rather than in the store: a
// missing directory, no permission, a full disk. The CLI reports it as a bad
// --golden path.
type FileError struct{ Err error }

func (e *FileError) Error() string { return e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// ExportFile writes Export's rows for each corpus in opts, in that order, to
// path, and returns how many rows it wrote. The rows go to a temporary file
// next to path, which is synced and then renamed over it, and the directory
// is synced: an interrupted or failed export never leaves a truncated file
// under the final name, and once ExportFile returns nil the file is on disk.
func ExportFile(ctx context.Context, st *store.Store, path string, opts ...ExportOptions) (int, error) {
	n := 0
	err := writeAtomic(path, func(w io.Writer) error {
		for _, o := range opts {
			k, err := Export(ctx, st, w, o)
			n += k
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// writeAtomic is the one way reflect replaces a file it was asked to write.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := createTemp(dir, "."+filepath.Base(path)+".")
	if err != nil {
		// Name the file asked for, as os.Create would, not the temporary one.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: "open", Path: path, Err: pe.Err}
		}
		return fmt.Errorf("export: %w", &FileError{err})
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		var fe *FileError
		if !errors.As(err, &fe) && isWriteError(err) {
			err = &FileError{err}
		}
		return err
	}
	// Synced before the rename, so a crash cannot leave the final name on a
	// file whose data never reached the disk.
	if err := f.Sync(); err != nil {
		return fmt.Errorf("export: %w", &FileError{err})
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("export: %w", &FileError{err})
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("export: %w", &FileError{err})
	}
	// The rename itself is durable only once the directory is synced.
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("export: %w", &FileError{err})
	}
	return nil
}

// isWriteError reports whether err came from writing the file (Export wraps
// its writer's errors with %w).
func isWriteError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe)
}

// createTemp is os.CreateTemp with the permissions os.Create gives (0666
// less the umask), so an export is as readable as any file the user writes.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		f, err := os.OpenFile(filepath.Join(dir, prefix+hex.EncodeToString(b[:])), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"), Err: fs.ErrExist}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
