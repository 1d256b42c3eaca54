package clientconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// BackupSuffix is appended to a client file's name for its one backup.
const BackupSuffix = ".reflect-backup"

// ErrInvalid marks a client file that is not a JSON object (or whose
// mcpServers is not one): it is refused and nothing is written.
var ErrInvalid = errors.New("invalid client config")

// File is a client config file held in its original key order, so a rewrite
// changes mcpServers and nothing else a user would notice.
type File struct {
	Path   string
	Exists bool
	// Servers is mcpServers in file order; edit it, then Write.
	Servers []Server

	members    []member
	hasServers bool
	perm       fs.FileMode
	trailingNL bool
}

// Server is one mcpServers entry, kept as written.
type Server struct {
	Name string
	Raw  json.RawMessage
}

type member struct {
	key string
	raw json.RawMessage
}

// ReadFile reads a client file. A missing file is an empty one (Exists
// false); a file that is not a JSON object is ErrInvalid.
func ReadFile(path string) (*File, error) {
	f := &File{Path: path, perm: 0o600, trailingNL: true}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil {
		f.perm = st.Mode().Perm()
	}
	f.Exists = true
	if len(bytes.TrimSpace(b)) == 0 {
		return f, nil // an empty file holds nothing to lose
	}
	f.trailingNL = bytes.HasSuffix(b, []byte("\n"))
	ms, err := parseObject(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalid, path, err)
	}
	f.members = ms
	for _, m := range ms {
		if m.key != "mcpServers" {
			continue
		}
		f.hasServers = true
		if string(bytes.TrimSpace(m.raw)) == "null" {
			break
		}
		ss, err := parseObject(m.raw)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: mcpServers: %w", ErrInvalid, path, err)
		}
		for _, s := range ss {
			f.Servers = append(f.Servers, Server{Name: s.key, Raw: s.raw})
		}
	}
	return f, nil
}

// parseObject splits one JSON object into its members in order. Duplicate
// keys are refused: which one a client honours is anyone's guess.
func parseObject(b []byte) ([]member, error) {
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("the top level is not an object")
	}
	var ms []member
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		seen[key] = true
		ms = append(ms, member{key: key, raw: raw})
	}
	return ms, nil
}

// Lookup returns the entry named name.
func (f *File) Lookup(name string) (Server, bool) {
	for _, s := range f.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// Remove drops the entry named name.
func (f *File) Remove(name string) {
	out := f.Servers[:0]
	for _, s := range f.Servers {
		if s.Name != name {
			out = append(out, s)
		}
	}
	f.Servers = out
}

// Set replaces the entry named name in place, or appends it.
func (f *File) Set(name string, raw json.RawMessage) {
	for i, s := range f.Servers {
		if s.Name == name {
			f.Servers[i].Raw = raw
			return
		}
	}
	f.Servers = append(f.Servers, Server{Name: name, Raw: raw})
}

// Bytes renders the file: two-space indents, every other top-level key in
// its place and unchanged in value, mcpServers from Servers.
func (f *File) Bytes() ([]byte, error) {
	var servers bytes.Buffer
	servers.WriteByte('{')
	for i, s := range f.Servers {
		if i > 0 {
			servers.WriteByte(',')
		}
		servers.Write(quote(s.Name))
		servers.WriteByte(':')
		servers.Write(s.Raw)
	}
	servers.WriteByte('}')
	ms := f.members
	if !f.hasServers {
		ms = append(append([]member(nil), ms...), member{key: "mcpServers"})
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString("\n  ")
		out.Write(quote(m.key))
		out.WriteString(": ")
		raw := m.raw
		if m.key == "mcpServers" {
			raw = servers.Bytes()
		}
		if err := json.Indent(&out, raw, "  ", "  "); err != nil {
			return nil, fmt.Errorf("render %s: %q: %w", f.Path, m.key, err)
		}
	}
	if len(ms) > 0 {
		out.WriteByte('\n')
	}
	out.WriteByte('}')
	if f.trailingNL {
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// Write puts the file on disk atomically, keeping its permissions.
func (f *File) Write() error {
	b, err := f.Bytes()
	if err != nil {
		return err
	}
	return WriteAtomic(f.Path, b, f.perm)
}

func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimRight(b.Bytes(), "\n")
}

// WriteAtomic writes data to path through a temporary file in the same
// directory (fsync, rename, fsync of the directory), so a crash leaves the
// old file or the new one, never half of either. A symlinked path is written
// through to its target, so dotfile managers keep their link.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: fsync: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		// The rename is durable only once the directory is.
		err = d.Sync()
		d.Close()
		if err != nil {
			return fmt.Errorf("write %s: fsync directory: %w", path, err)
		}
	}
	return nil
}

// BackupPath is where path's one backup lives.
func BackupPath(path string) string { return path + BackupSuffix }

// EnsureBackup copies path to its backup unless a backup already exists: the
// first backup is the user's original and is never overwritten. It reports
// whether it made one.
func EnsureBackup(path string) (bool, error) {
	bp := BackupPath(path)
	if _, err := os.Lstat(bp); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("backup %s: %w", bp, err)
	}
	src, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("backup %s: %w", path, err)
	}
	defer src.Close()
	b, err := io.ReadAll(src)
	if err != nil {
		return false, fmt.Errorf("backup %s: %w", path, err)
	}
	perm := fs.FileMode(0o600)
	if st, err := src.Stat(); err == nil {
		perm = st.Mode().Perm()
	}
	if err := WriteAtomic(bp, b, perm); err != nil {
		return false, fmt.Errorf("backup: %w", err)
	}
	return true, nil
}

// RestoreBackup puts the backup back over path, byte for byte, and keeps the
// backup. It reports false when there is no backup.
func RestoreBackup(path string) (bool, error) {
	bp := BackupPath(path)
	b, err := os.ReadFile(bp)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("restore %s: %w", path, err)
	}
	perm := fs.FileMode(0o600)
	if st, err := os.Stat(bp); err == nil {
		perm = st.Mode().Perm()
	}
	if err := WriteAtomic(path, b, perm); err != nil {
		return false, fmt.Errorf("restore: %w", err)
	}
	return true, nil
}
