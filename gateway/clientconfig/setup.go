package clientconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Options are what setup and import write into a client file.
type Options struct {
	Exe         string // absolute path of the reflect binary
	ConfigPath  string // absolute path of the registry
	Environment string // target.environment of imported servers
	// Mode is written as REEFLEX_MODE; "" keeps the gateway entry's, else
	// the registry's, else observe.
	Mode    string
	CoreURL string // REEFLEX_CORE_URL, written only when set
	// Replace lets a client's server replace a registry upstream of the
	// same name that runs something else (each change is warned about);
	// without it such a server stays in the client file, ungoverned.
	Replace bool
}

// Outcome is what setup or import did to one client file.
type Outcome struct {
	Profile Profile
	// Imported are the client entries now behind the gateway.
	Imported []string
	// Kept are entries that could not be imported and stay in the client.
	Kept []string
	// Warnings name the entry they are about.
	Warnings []string
	// Changed is true when the client file was rewritten.
	Changed bool
	// RegistryChanged is true when the registry was rewritten.
	RegistryChanged bool
	// BackupCreated is true when this run made the one backup.
	BackupCreated bool
}

func (o *Outcome) warnf(format string, a ...any) {
	o.Warnings = append(o.Warnings, fmt.Sprintf(format, a...))
}

// ErrNotFound is import's "no such directly registered server".
var ErrNotFound = errors.New("not found")

// Setup puts the gateway in p's path: every directly registered server that
// can be imported goes into reg, and the client file is left launching only
// the gateway (plus whatever could not be imported, each with a warning). A
// second run imports only what was added since and writes nothing when there
// is nothing new. The registry is written before the client file, and the
// client file is backed up once before its first rewrite.
func Setup(p Profile, reg *Registry, o Options) (Outcome, error) {
	out := Outcome{Profile: p}
	f, err := ReadFile(p.Path)
	if err != nil {
		return out, err
	}
	before, err := f.Bytes()
	if err != nil {
		return out, err
	}
	regBefore, err := reg.Bytes()
	if err != nil {
		return out, err
	}
	_, gw, _ := findGateway(f)
	folded := map[string]string{} // env of reflect's own server, for the gateway entry
	mode := o.Mode
	if mode == "" {
		mode = gw.Env["REEFLEX_MODE"]
	}
	if mode == "" {
		mode = reg.Mode()
	}
	if mode == "" {
		mode = "observe"
	}
	if reg.Mode() == "" {
		reg.SetMode(mode) // first, so a new registry reads top down
	}
	for _, s := range slices.Clone(f.Servers) {
		e, err := ParseEntry(s.Raw)
		if err != nil {
			out.Kept = append(out.Kept, s.Name)
			out.warnf("%s stays in the client file, ungoverned: %v", s.Name, err)
			continue
		}
		if Classify(s.Name, e) == Gateway {
			continue
		}
		if IsReflectMCP(e) {
			// Its tools are the gateway's built-in upstream; its env (the
			// provider settings) is what they need, so it moves with them.
			for k, v := range e.Env {
				if _, ok := folded[k]; !ok {
					folded[k] = v
				}
			}
			f.Remove(s.Name)
			out.Imported = append(out.Imported, s.Name)
			out.warnf("%s is reflect's own MCP server: the gateway serves its tools as reflect__*, and its env moved to the gateway entry", s.Name)
			continue
		}
		_ = importOne(&out, f, reg, s.Name, e, o) // a failure is in out and the entry stays
	}
	if err := setGateway(&out, f, p.Typed, o, mode, folded); err != nil {
		return out, err
	}
	if len(reg.Names()) == 0 {
		// The gateway refuses a registry without upstreams; writing one would
		// leave the client launching a server that cannot start.
		return out, fmt.Errorf("%s: no server to put behind the gateway, and the registry %s has none: add one with `reflect gateway add` (nothing was written)", p.Path, reg.Path)
	}
	return out, commit(&out, f, reg, before, regBefore)
}

// setGateway writes the gateway entry. An existing reflect gateway entry is
// updated, not replaced: its key, its other arguments and its env are the
// operator's settings. Only what setup is for changes: the binary when it is
// relative or gone, --config (always absolute), the mode when asked for or
// missing, the core URL when given. A reeflex-mcp entry is replaced by
// reflect's, keeping its env.
func setGateway(out *Outcome, f *File, typed bool, o Options, mode string, folded map[string]string) error {
	name, gw, ok := findGateway(f)
	if ok && isReflectBinary(gw.Command) {
		s, _ := f.Lookup(name)
		raw, warns, err := updateGateway(s.Raw, o, mode, folded)
		if err != nil {
			return err
		}
		out.Warnings = append(out.Warnings, warns...)
		f.Set(name, raw)
		return nil
	}
	env := map[string]string{}
	if ok {
		maps.Copy(env, gw.Env)
		delete(env, "REEFLEX_MCP_CONFIG") // the --config argument says it, absolutely
		f.Remove(name)
		out.warnf("%s (reeflex-mcp) was replaced by reflect's gateway; the original is in the backup", name)
	}
	for k, v := range folded {
		if _, have := env[k]; !have {
			env[k] = v
		}
	}
	coreURL := o.CoreURL
	if coreURL == "" {
		coreURL = env["REEFLEX_CORE_URL"]
	}
	raw, err := GatewayEntry{Exe: o.Exe, ConfigPath: o.ConfigPath, Mode: mode, CoreURL: coreURL, Env: env, Typed: typed}.Raw()
	if err != nil {
		return err
	}
	f.Set(GatewayKey, raw)
	return nil
}

func updateGateway(raw json.RawMessage, o Options, mode string, folded map[string]string) (json.RawMessage, []string, error) {
	if !filepath.IsAbs(o.Exe) || !filepath.IsAbs(o.ConfigPath) {
		return nil, nil, fmt.Errorf("gateway entry: binary %q and config %q must be absolute paths", o.Exe, o.ConfigPath)
	}
	ms, err := parseObject(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("gateway entry: %w", err)
	}
	e, err := ParseEntry(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("gateway entry: %w", err)
	}
	var warns []string
	if _, err := os.Stat(e.Command); !filepath.IsAbs(e.Command) || err != nil {
		warns = append(warns, fmt.Sprintf("the gateway entry ran %q, which a client cannot rely on finding: now %s", e.Command, o.Exe))
		e.Command = o.Exe
	}
	args, found := slices.Clone(e.Args), false
	for i, a := range args {
		switch {
		case a == "--config" && i+1 < len(args):
			if args[i+1] != o.ConfigPath && !filepath.IsAbs(args[i+1]) {
				warns = append(warns, fmt.Sprintf("the gateway entry's --config %q was relative: now %s", args[i+1], o.ConfigPath))
			}
			args[i+1], found = o.ConfigPath, true
		case strings.HasPrefix(a, "--config="):
			args[i], found = "--config="+o.ConfigPath, true
		}
	}
	if !found {
		args = append(args, "--config", o.ConfigPath)
	}
	env := map[string]string{}
	maps.Copy(env, e.Env)
	if o.Mode != "" || env["REEFLEX_MODE"] == "" {
		env["REEFLEX_MODE"] = mode
	}
	if o.CoreURL != "" {
		env["REEFLEX_CORE_URL"] = o.CoreURL
	}
	for k, v := range folded {
		if _, ok := env[k]; !ok {
			env[k] = v
		}
	}
	set := map[string]any{"command": e.Command, "args": args, "env": env}
	for i := range ms {
		if v, ok := set[ms[i].key]; ok {
			if ms[i].raw, err = json.Marshal(v); err != nil {
				return nil, nil, fmt.Errorf("gateway entry: %w", err)
			}
			delete(set, ms[i].key)
		}
	}
	for _, k := range []string{"command", "args", "env"} {
		if v, ok := set[k]; ok {
			b, err := json.Marshal(v)
			if err != nil {
				return nil, nil, fmt.Errorf("gateway entry: %w", err)
			}
			ms = append(ms, member{key: k, raw: b})
		}
	}
	return renderObject(ms), warns, nil
}

func renderObject(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(quote(m.key))
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// importOne moves one foreign entry into reg and out of f. On an error the
// entry stays in f and out says why.
func importOne(out *Outcome, f *File, reg *Registry, key string, e Entry, o Options) error {
	u, warns, err := Convert(key, e, o.Environment)
	if err != nil {
		out.Kept = append(out.Kept, key)
		out.warnf("%s stays in the client file, ungoverned: %v", key, err)
		return err
	}
	if have, ok := reg.Lookup(u.Name); ok {
		if sameServer(have, u) {
			// Already governed (a rerun after a crash, a restore, or the
			// same server added both ways): the registry's own settings win.
			f.Remove(key)
			out.Imported = append(out.Imported, key)
			return nil
		}
		if !o.Replace {
			out.Kept = append(out.Kept, key)
			err := fmt.Errorf("the registry already has an upstream %q that runs something else (%s)", u.Name, strings.Join(Changes(have, u)[:1], ""))
			out.warnf("%s stays in the client file, ungoverned: %v; rename one of them, or rerun with --replace to put the client's server in its place",
				key, err)
			return err
		}
		for _, c := range Changes(have, u) {
			out.warnf("%s replaces the registry's upstream %s: %s", key, u.Name, c)
		}
	}
	reg.Upsert(u)
	f.Remove(key)
	out.Imported = append(out.Imported, key)
	for _, w := range warns {
		out.warnf("%s: %s", key, w)
	}
	return nil
}

func sameServer(a, b Upstream) bool {
	return slices.Equal(a.Command, b.Command) && a.URL == b.URL
}

func findGateway(f *File) (string, Entry, bool) {
	for _, s := range f.Servers {
		if e, err := ParseEntry(s.Raw); err == nil && Classify(s.Name, e) == Gateway {
			return s.Name, e, true
		}
	}
	return "", Entry{}, false
}

// commit writes what changed: the registry first (a client must never launch
// a gateway that lacks the servers taken out of it), then the one backup,
// then the client file.
func commit(out *Outcome, f *File, reg *Registry, before, regBefore []byte) error {
	after, err := f.Bytes()
	if err != nil {
		return err
	}
	regAfter, err := reg.Bytes()
	if err != nil {
		return err
	}
	if !bytes.Equal(regAfter, regBefore) || !reg.Exists {
		if err := reg.Write(); err != nil {
			return err
		}
		out.RegistryChanged = true
	}
	if f.Exists && bytes.Equal(after, before) {
		return nil
	}
	if f.Exists {
		made, err := EnsureBackup(f.Path)
		if err != nil {
			return err
		}
		out.BackupCreated = made
	}
	if err := f.Write(); err != nil {
		return err
	}
	out.Changed = true
	return nil
}

// Import moves the directly registered server name under the gateway in the
// first of profiles that has it, leaving every other entry alone. An
// existing gateway entry is kept as it is (its env and arguments are the
// operator's settings); one is written only when the file has none.
func Import(profiles []Profile, name string, reg *Registry, o Options) (Outcome, error) {
	for _, p := range profiles {
		f, err := ReadFile(p.Path)
		if err != nil {
			return Outcome{Profile: p}, err
		}
		s, ok := f.Lookup(name)
		if !ok {
			continue
		}
		e, err := ParseEntry(s.Raw)
		if err != nil {
			return Outcome{Profile: p}, fmt.Errorf("%s in %s: %w", name, p.Path, err)
		}
		if Classify(name, e) == Gateway {
			continue
		}
		return importInto(p, f, name, e, reg, o)
	}
	return Outcome{}, fmt.Errorf("%w: no client file lists %q as a directly registered server", ErrNotFound, name)
}

func importInto(p Profile, f *File, name string, e Entry, reg *Registry, o Options) (Outcome, error) {
	out := Outcome{Profile: p}
	before, err := f.Bytes()
	if err != nil {
		return out, err
	}
	regBefore, err := reg.Bytes()
	if err != nil {
		return out, err
	}
	gwName, gw, hasGW := findGateway(f)
	if IsReflectMCP(e) {
		f.Remove(name)
		out.Imported = append(out.Imported, name)
		out.warnf("%s is reflect's own MCP server: the gateway serves its tools as reflect__*, and its env moved to the gateway entry", name)
	} else if err := importOne(&out, f, reg, name, e, o); err != nil {
		return out, fmt.Errorf("%s in %s: %w (nothing was written)", name, p.Path, err)
	}
	if !hasGW {
		mode := o.Mode
		if mode == "" {
			mode = reg.Mode()
		}
		if mode == "" {
			mode = "observe"
		}
		raw, err := GatewayEntry{Exe: o.Exe, ConfigPath: o.ConfigPath, Mode: mode, CoreURL: o.CoreURL, Env: reflectEnv(e), Typed: p.Typed}.Raw()
		if err != nil {
			return out, err
		}
		f.Set(GatewayKey, raw)
	} else if env := reflectEnv(e); len(env) > 0 {
		s, _ := f.Lookup(gwName)
		raw, err := addEnv(s.Raw, env, gw.Env)
		if err != nil {
			return out, err
		}
		f.Set(gwName, raw)
	}
	if len(reg.Names()) == 0 {
		return out, fmt.Errorf("%s: the registry %s has no upstream, so the gateway could not start: add one with `reflect gateway add` (nothing was written)", p.Path, reg.Path)
	}
	return out, commit(&out, f, reg, before, regBefore)
}

func reflectEnv(e Entry) map[string]string {
	if IsReflectMCP(e) {
		return e.Env
	}
	return nil
}

// addEnv adds the variables the entry does not set yet to its env, touching
// nothing else in it.
func addEnv(raw json.RawMessage, env, have map[string]string) (json.RawMessage, error) {
	ms, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("gateway entry: %w", err)
	}
	merged := map[string]string{}
	maps.Copy(merged, have)
	for k, v := range env {
		if _, ok := merged[k]; !ok {
			merged[k] = v
		}
	}
	envRaw, err := json.Marshal(merged)
	if err != nil {
		return nil, fmt.Errorf("gateway entry: %w", err)
	}
	found := false
	for i := range ms {
		if ms[i].key == "env" {
			ms[i].raw, found = envRaw, true
		}
	}
	if !found {
		ms = append(ms, member{key: "env", raw: envRaw})
	}
	return renderObject(ms), nil
}

// Restore puts p's backup back byte for byte (the backup is kept). It
// reports false when p has no backup.
func Restore(p Profile) (bool, error) {
	return RestoreBackup(p.Path)
}

// HasBackup reports whether p has a backup to restore.
func HasBackup(p Profile) bool {
	_, err := os.Stat(BackupPath(p.Path))
	return err == nil
}

// FindForeign returns the first of profiles whose file lists name as a
// directly registered server.
func FindForeign(profiles []Profile, name string) (Profile, error) {
	for _, p := range profiles {
		f, err := ReadFile(p.Path)
		if err != nil {
			return p, err
		}
		s, ok := f.Lookup(name)
		if !ok {
			continue
		}
		if e, err := ParseEntry(s.Raw); err == nil && Classify(name, e) == Gateway {
			continue
		}
		return p, nil
	}
	return Profile{}, fmt.Errorf("%w: no client file lists %q as a directly registered server", ErrNotFound, name)
}

// GatewayConfigIn returns the registry path p's gateway entry launches with
// ("" when p has no gateway entry or it names no config).
func GatewayConfigIn(p Profile) string {
	f, err := ReadFile(p.Path)
	if err != nil {
		return ""
	}
	if _, e, ok := findGateway(f); ok {
		return GatewayConfigPath(e)
	}
	return ""
}
