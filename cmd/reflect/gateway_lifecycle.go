package main

// reflect gateway setup | restore | add | import | doctor: putting the
// gateway in a client's path and keeping it there. The file edits are in
// gateway/clientconfig; this is flags, prompts, output and exit codes.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reflect-mcp/reflect/gateway/clientconfig"
)

// gatewayLifecycleVerb is the lifecycle verb reflect gateway dispatches to
// (cmd/reflect/gateway.go), or nil: a switch rather than a table filled in
// init, so no package-level state is written at start.
func gatewayLifecycleVerb(name string) func(context.Context, []string, Stdio) error {
	switch name {
	case "setup":
		return runGatewaySetup
	case "restore":
		return runGatewayRestore
	case "add":
		return runGatewayAdd
	case "import":
		return runGatewayImport
	case "doctor":
		return runGatewayDoctor
	}
	return nil
}

const singlePathWarning = `The gateway governs only the calls that pass through it: a server added to a client
directly is ungoverned. 'reflect gateway doctor' finds such a server; nothing can stop
one being added.`

// errFindings is exit 1 for doctor (findings) and for setup, restore and
// import when something asked of them was not done; what went wrong is
// already on the screen.
func errFindings(format string, a ...any) error {
	return &exitError{code: 1, err: fmt.Errorf(format, a...)}
}

type clientFlags struct {
	client, path string
}

func (c *clientFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.client, "client", "", "client profile: "+strings.Join(clientconfig.Keys(), ", ")+" (default: every one whose file exists)")
	fs.StringVar(&c.path, "path", "", "a client config FILE of any other client (an mcpServers JSON file)")
}

// profiles resolves --client / --path, or every standard profile whose file
// exists. explicit is true when the user named one.
func (c *clientFlags) profiles(env clientconfig.Env) (ps []clientconfig.Profile, explicit bool, err error) {
	switch {
	case c.client != "" && c.path != "":
		return nil, false, usageErr(errors.New("--client and --path are exclusive"))
	case c.path != "":
		return []clientconfig.Profile{clientconfig.CustomProfile(env, c.path)}, true, nil
	case c.client != "":
		p, err := clientconfig.Lookup(env, c.client)
		if err != nil {
			return nil, false, usageErr(err)
		}
		return []clientconfig.Profile{p}, true, nil
	}
	return clientconfig.Existing(env), false, nil
}

// registryPath is the registry a command edits: --config, else
// REEFLEX_MCP_CONFIG, else ./reeflex-mcp.yaml when it exists, else one in the
// user's config directory. Always absolute: it is written into client files
// that are started from directories nobody chose.
func registryPath(flagVal string) (string, error) {
	p := flagVal
	if p == "" {
		p = os.Getenv("REEFLEX_MCP_CONFIG")
	}
	if p == "" {
		if _, err := os.Stat("reeflex-mcp.yaml"); err == nil {
			p = "reeflex-mcp.yaml"
		}
	}
	if p == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("registry location: %w (pass --config)", err)
		}
		p = filepath.Join(dir, "reflect", "reeflex-mcp.yaml")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("registry location: %w", err)
	}
	return abs, nil
}

func reflectExe() (string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.Abs(exe)
	}
	if err != nil {
		return "", fmt.Errorf("locate the reflect binary: %w", err)
	}
	return exe, nil
}

// environment is --environment, else a prompt on a terminal, else production.
func environment(flagVal string, nonInteractive bool, stdio Stdio) (string, error) {
	if flagVal != "" {
		if err := clientconfig.ValidEnvironment(flagVal); err != nil {
			return "", usageErr(fmt.Errorf("--environment: %w", err))
		}
		return flagVal, nil
	}
	if nonInteractive || !isTerminal(stdio.In) {
		return "production", nil
	}
	r := bufio.NewReader(stdio.In)
	for {
		fmt.Fprint(stdio.Err, "Environment of the imported servers (production, staging, dev) [production]: ")
		line, err := r.ReadString('\n')
		line = strings.TrimSpace(line)
		if line == "" && err == nil {
			return "production", nil
		}
		if clientconfig.ValidEnvironment(line) == nil {
			return line, nil
		}
		if err != nil {
			return "", usageErr(errors.New("no environment given: pass --environment"))
		}
	}
}

func runGatewaySetup(_ context.Context, args []string, stdio Stdio) error {
	var cf clientFlags
	fs := newFlagSet("gateway setup", "[--client C | --path FILE] [--environment E] [--non-interactive]", stdio)
	cf.register(fs)
	config := fs.String("config", "", "the gateway registry to write (default $REEFLEX_MCP_CONFIG, ./reeflex-mcp.yaml if it exists, else ~/.config/reflect/reeflex-mcp.yaml)")
	env := fs.String("environment", "", "target.environment of imported servers: production, staging or dev (default: asked on a terminal, else production)")
	mode := fs.String("mode", "", "observe or enforce, written into the client entry (default: the entry's, the registry's, else observe)")
	coreURL := fs.String("core-url", os.Getenv("REEFLEX_CORE_URL"), "a remote decision engine, written as REEFLEX_CORE_URL (default: the engine runs in the gateway)")
	nonInteractive := fs.Bool("non-interactive", false, "never prompt")
	replace := fs.Bool("replace", false, "a client server whose name the registry has for another server replaces it (each change is printed)")
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) > 0 {
		return usageErr(fmt.Errorf("unexpected argument %q", pos[0]))
	}
	if *mode != "" && *mode != "observe" && *mode != "enforce" {
		return usageErr(fmt.Errorf("--mode %q: want observe or enforce", *mode))
	}
	cenv, err := clientconfig.OSEnv()
	if err != nil {
		return err
	}
	profiles, _, err := cf.profiles(cenv)
	if err != nil {
		return err
	}
	if len(profiles) == 0 {
		return usageErr(errors.New("no client config file found: name one with --client or --path"))
	}
	o := clientconfig.Options{Mode: *mode, CoreURL: *coreURL, Replace: *replace}
	if o.Exe, err = reflectExe(); err != nil {
		return err
	}
	if o.Environment, err = environment(*env, *nonInteractive, stdio); err != nil {
		return err
	}
	failed := 0
	var kept []string
	registries := map[string]bool{}
	for _, p := range profiles {
		reg, k, err := setupOne(p, *config, o, stdio)
		kept = append(kept, k...)
		if err != nil {
			failed++
			continue
		}
		registries[reg] = true
	}
	for _, r := range slices.Sorted(maps.Keys(registries)) {
		fmt.Fprintf(stdio.Out, "registry: %s\n", r)
	}
	fmt.Fprintf(stdio.Out, "\n%s\n", singlePathWarning)
	if failed > 0 {
		return errFindings("%d client file(s) not set up", failed)
	}
	if len(kept) > 0 {
		// The user asked for every server to be governed: one that is not
		// is a failure to report, not a footnote.
		return errFindings("%d server(s) left ungoverned: %s (see the warnings above)", len(kept), strings.Join(kept, ", "))
	}
	return nil
}

// setupOne sets up one client file and returns the registry it used and the
// servers left in the client file, ungoverned.
func setupOne(p clientconfig.Profile, config string, o clientconfig.Options, stdio Stdio) (string, []string, error) {
	// A gateway entry that already names its registry keeps it: the servers
	// imported now must land where that gateway reads.
	if c := clientconfig.GatewayConfigIn(p); config == "" && filepath.IsAbs(c) {
		config = c
	}
	var err error
	if o.ConfigPath, err = registryPath(config); err != nil {
		return "", nil, err
	}
	reg, err := clientconfig.ReadRegistry(o.ConfigPath)
	if err != nil {
		fmt.Fprintf(stdio.Out, "%s: %s\n  error: %v\n", p.Key, p.Path, err)
		return "", nil, err
	}
	out, err := clientconfig.Setup(p, reg, o)
	printOutcome(stdio, out, err)
	return o.ConfigPath, out.Kept, err
}

func printOutcome(stdio Stdio, out clientconfig.Outcome, err error) {
	p := out.Profile
	fmt.Fprintf(stdio.Out, "%s: %s\n", p.Key, p.Path)
	for _, w := range out.Warnings {
		fmt.Fprintf(stdio.Out, "  warning: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stdio.Out, "  error: %v\n", err)
		return
	}
	if len(out.Imported) > 0 {
		fmt.Fprintf(stdio.Out, "  now behind the gateway: %s\n", strings.Join(out.Imported, ", "))
	}
	if len(out.Kept) > 0 {
		fmt.Fprintf(stdio.Out, "  still reached directly (ungoverned): %s\n", strings.Join(out.Kept, ", "))
	}
	switch {
	case !out.Changed:
		fmt.Fprintln(stdio.Out, "  already configured: nothing to do")
	case out.BackupCreated:
		fmt.Fprintf(stdio.Out, "  rewritten; the original is at %s (reflect gateway restore %s)\n", clientconfig.BackupPath(p.Path), p.Selector())
	default:
		fmt.Fprintln(stdio.Out, "  rewritten; restart the client to pick it up")
	}
}

func runGatewayRestore(_ context.Context, args []string, stdio Stdio) error {
	var cf clientFlags
	fs := newFlagSet("gateway restore", "[--client C | --path FILE]", stdio)
	cf.register(fs)
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) > 0 {
		return usageErr(fmt.Errorf("unexpected argument %q", pos[0]))
	}
	cenv, err := clientconfig.OSEnv()
	if err != nil {
		return err
	}
	profiles, explicit, err := cf.profiles(cenv)
	if err != nil {
		return err
	}
	if !explicit {
		// A backup may exist for a file the user deleted since.
		profiles = clientconfig.Standard(cenv)
	}
	restored := 0
	for _, p := range profiles {
		ok, err := clientconfig.Restore(p)
		switch {
		case err != nil:
			fmt.Fprintf(stdio.Out, "%s: %s: error: %v\n", p.Key, p.Path, err)
		case ok:
			restored++
			fmt.Fprintf(stdio.Out, "%s: %s restored from %s (the backup is kept)\n", p.Key, p.Path, clientconfig.BackupPath(p.Path))
		case explicit:
			fmt.Fprintf(stdio.Out, "%s: no backup at %s\n", p.Key, clientconfig.BackupPath(p.Path))
		}
	}
	if restored == 0 {
		return errFindings("nothing restored")
	}
	return nil
}

type reloadFlags struct {
	gatewayURL string
	noReload   bool
}

func (r *reloadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.gatewayURL, "gateway-url", "", "the running HTTP gateway to hot-reload (default http://$REEFLEX_MCP_HOST:$REEFLEX_MCP_PORT, 127.0.0.1:8000)")
	fs.BoolVar(&r.noReload, "no-reload", false, "do not ask a running gateway to reload")
}

// ownFlagAfterCommand refuses an argv after --command that carries one of
// gateway add's own flags: one was meant for reflect far more often than
// for the upstream (new user report #8: --gateway-url silently became the
// memory server's argument). `--command -- ARGV` passes such an argv.
func ownFlagAfterCommand(argv []string) error {
	addFlags := []string{"url", "token-env", "system", "environment", "optional", "config", "gateway-url", "no-reload", "replace", "env"}
	for _, a := range argv[1:] {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !slices.Contains(addFlags, name) {
			continue
		}
		return fmt.Errorf("%s after --command would be passed to %s, not read by reflect: put reflect's flags before --command "+
			"(if %s takes %s itself, write --command -- ARGV...)", a, argv[0], argv[0], a)
	}
	return nil
}

func runGatewayAdd(ctx context.Context, args []string, stdio Stdio) error {
	// --command takes the rest of the line as the server's argv, so it is
	// cut off before the flags are parsed.
	var argv []string
	for i, a := range args {
		if a == "--command" || a == "-command" {
			argv, args = args[i+1:], args[:i]
			explicit := len(argv) > 0 && argv[0] == "--"
			if explicit {
				argv = argv[1:]
			}
			if len(argv) == 0 {
				return usageErr(errors.New("--command needs the server's command line after it"))
			}
			if !explicit {
				if err := ownFlagAfterCommand(argv); err != nil {
					return usageErr(err)
				}
			}
			break
		}
	}
	fs := newFlagSet("gateway add", "NAME [--system S] [--environment E] [--optional] [--replace] [--env K=V]... (--command [--] ARGV... | --url U)", stdio)
	url := fs.String("url", "", "a streamable-HTTP upstream")
	tokenEnv := fs.String("token-env", "", "with --url: the variable holding its bearer token (written as auth.token_env; the token itself never is)")
	system := fs.String("system", "", "target.system, which picks mappings/<system>.yaml (default: filesystem, github or postgres for the servers the bundled mappings describe, else NAME)")
	env := fs.String("environment", "production", "target.environment: production, staging or dev")
	optional := fs.Bool("optional", false, "required: false (the gateway starts without it when it fails)")
	config := fs.String("config", "", "the gateway registry (default as for setup)")
	replace := fs.Bool("replace", false, "replace an upstream of that name already in the registry (without it, add refuses and says what would change)")
	envs := map[string]string{}
	fs.Func("env", "KEY=VALUE for a --command server's environment (repeatable)", func(v string) error {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return fmt.Errorf("want KEY=VALUE, got %q", v)
		}
		envs[k] = val
		return nil
	})
	var rf reloadFlags
	rf.register(fs)
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) == 0 {
		return usageErr(errors.New("add needs the upstream's NAME"))
	}
	name := pos[0]
	if len(argv) == 0 && len(pos) > 1 {
		argv = pos[1:] // reflect gateway add NAME -- npx -y server
	} else if len(pos) > 1 {
		return usageErr(fmt.Errorf("unexpected argument %q", pos[1]))
	}
	switch {
	case (len(argv) == 0) == (*url == ""):
		return usageErr(errors.New("give exactly one of --command ARGV... or --url U"))
	case *tokenEnv != "" && *url == "":
		return usageErr(errors.New("--token-env goes with --url"))
	case len(envs) > 0 && *url != "":
		return usageErr(errors.New("--env goes with --command"))
	}
	if err := clientconfig.ValidName(name); err != nil {
		return usageErr(err)
	}
	if err := clientconfig.ValidEnvironment(*env); err != nil {
		return usageErr(fmt.Errorf("--environment: %w", err))
	}
	if *system == "" {
		*system = name
		// The bundled mappings classify the servers they were written
		// for, whatever the upstream is called.
		if sys, _ := clientconfig.StarterSystem(argv); sys != "" {
			*system = sys
		}
	}
	path, err := registryPath(*config)
	if err != nil {
		return err
	}
	reg, err := clientconfig.ReadRegistry(path)
	if err != nil {
		return usageErr(err)
	}
	u := clientconfig.Upstream{Name: name, Command: argv, Env: envs, URL: *url, TokenEnv: *tokenEnv, System: *system, Environment: *env, Required: !*optional}
	verb, replaced, err := addOverExisting(reg, path, u, *replace, stdio)
	if err != nil {
		return err
	}
	if verb != "" {
		reg.Upsert(u)
		if err := reg.Write(); err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "%s upstream %s (system %s, %s) in %s\n", verb, name, *system, *env, path)
		for _, c := range replaced {
			fmt.Fprintf(stdio.Out, "  %s\n", c)
		}
	}
	if !rf.noReload {
		reloadGateway(ctx, rf.gatewayURL, stdio)
	}
	return nil
}

// addOverExisting decides whether add writes u: "added" for a new name,
// "replaced" with --replace (and the changes it makes), "" when the registry
// already has u as given (nothing to write; a running gateway is still asked
// to reload, which retries one that refused before). Replacing without
// --replace is refused, saying what would change (user report: add silently
// dropped an imported server's env and moved it from production to dev).
func addOverExisting(reg *clientconfig.Registry, path string, u clientconfig.Upstream, replace bool, stdio Stdio) (string, []string, error) {
	have, ok := reg.Lookup(u.Name)
	if !ok {
		return "added", nil, nil
	}
	changes := clientconfig.Changes(have, u)
	if len(changes) == 0 {
		fmt.Fprintf(stdio.Out, "upstream %s is already in %s as given: nothing to write\n", u.Name, path)
		return "", nil, nil
	}
	if !replace {
		fmt.Fprintf(stdio.Out, "the registry %s already has an upstream %s; adding this one would change it:\n", path, u.Name)
		for _, c := range changes {
			fmt.Fprintf(stdio.Out, "  %s\n", c)
		}
		return "", nil, errFindings("upstream %s not replaced (nothing was written): pass --replace to replace it, or pick another NAME", u.Name)
	}
	return "replaced", changes, nil
}

func runGatewayImport(ctx context.Context, args []string, stdio Stdio) error {
	var cf clientFlags
	fs := newFlagSet("gateway import", "NAME [--client C | --path FILE] [--environment E]", stdio)
	cf.register(fs)
	config := fs.String("config", "", "the gateway registry (default: the one the client's gateway entry runs with, else as for setup)")
	env := fs.String("environment", "", "target.environment: production, staging or dev (default: asked on a terminal, else production)")
	nonInteractive := fs.Bool("non-interactive", false, "never prompt")
	replace := fs.Bool("replace", false, "the client's server replaces a registry upstream of the same name that runs something else (each change is printed)")
	var rf reloadFlags
	rf.register(fs)
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) != 1 {
		return usageErr(errors.New("import needs exactly one NAME: the client's key for the server"))
	}
	name := pos[0]
	cenv, err := clientconfig.OSEnv()
	if err != nil {
		return err
	}
	profiles, _, err := cf.profiles(cenv)
	if err != nil {
		return err
	}
	p, err := clientconfig.FindForeign(profiles, name)
	if errors.Is(err, clientconfig.ErrNotFound) {
		return errFindings("%w", err)
	} else if err != nil {
		return usageErr(err)
	}
	o := clientconfig.Options{Replace: *replace}
	if o.Exe, err = reflectExe(); err != nil {
		return err
	}
	// The gateway entry already says which registry it reads: import into
	// that one, so the entry keeps working as the operator configured it.
	cfg := *config
	if c := clientconfig.GatewayConfigIn(p); cfg == "" && filepath.IsAbs(c) {
		cfg = c
	}
	if o.ConfigPath, err = registryPath(cfg); err != nil {
		return err
	}
	if o.Environment, err = environment(*env, *nonInteractive, stdio); err != nil {
		return err
	}
	reg, err := clientconfig.ReadRegistry(o.ConfigPath)
	if err != nil {
		return usageErr(err)
	}
	out, err := clientconfig.Import([]clientconfig.Profile{p}, name, reg, o)
	printOutcome(stdio, out, err)
	if err != nil {
		return errFindings("%s not imported", name)
	}
	fmt.Fprintf(stdio.Out, "registry: %s\n", o.ConfigPath)
	if !rf.noReload {
		reloadGateway(ctx, rf.gatewayURL, stdio)
	}
	return nil
}

func runGatewayDoctor(_ context.Context, args []string, stdio Stdio) error {
	var cf clientFlags
	fs := newFlagSet("gateway doctor", "[--client C | --path FILE] [--json]", stdio)
	cf.register(fs)
	asJSON := fs.Bool("json", false, "print the findings as a JSON array")
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) > 0 {
		return usageErr(fmt.Errorf("unexpected argument %q", pos[0]))
	}
	cenv, err := clientconfig.OSEnv()
	if err != nil {
		return err
	}
	profiles, explicit, err := cf.profiles(cenv)
	if err != nil {
		return err
	}
	findings := clientconfig.Doctor(profiles)
	if !explicit || (len(profiles) == 1 && strings.HasPrefix(profiles[0].Key, clientconfig.ClaudeCode)) {
		// Where `claude mcp add` writes by default: read, never rewritten.
		findings = append(findings, clientconfig.DoctorClaudeState(cenv)...)
	}
	if len(profiles) == 0 && len(findings) == 0 {
		// "clean" would claim a check that never ran.
		var looked []string
		for _, p := range clientconfig.Standard(cenv) {
			looked = append(looked, p.Path)
		}
		return usageErr(fmt.Errorf("nothing to check: no client config file found (looked for %s); pass --path FILE",
			strings.Join(looked, ", ")))
	}
	if *asJSON {
		if findings == nil {
			findings = []clientconfig.Finding{}
		}
		b, err := json.MarshalIndent(findings, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "%s\n", b)
	} else {
		for _, f := range findings {
			fmt.Fprintf(stdio.Out, "%s\n", f)
		}
		if len(findings) == 0 {
			fmt.Fprintf(stdio.Out, "clean: %d client file(s) checked, every server goes through the gateway\n", len(profiles))
		} else {
			fmt.Fprintf(stdio.Out, "\n%s\n", singlePathWarning)
		}
	}
	if len(findings) > 0 {
		return errFindings("%d finding(s)", len(findings))
	}
	return nil
}

// reloadGateway asks a running HTTP gateway to pick up the registry. It is
// best effort: the registry is already saved, and a stdio gateway (the one
// clients launch) has no endpoint to call.
func reloadGateway(ctx context.Context, gatewayURL string, stdio Stdio) {
	endpoint := clientconfig.ReloadURL(gatewayURL, os.Getenv("REEFLEX_MCP_HOST"), os.Getenv("REEFLEX_MCP_PORT"))
	answer, err := clientconfig.Reload(ctx, endpoint, os.Getenv("REEFLEX_MCP_ADMIN_TOKEN"))
	switch {
	case errors.Is(err, clientconfig.ErrNoGateway):
		fmt.Fprintf(stdio.Out, "reload: %v: the registry is saved, and a gateway picks it up when it next starts (a stdio gateway, the kind a client launches, when the client restarts it)\n", err)
	case err != nil:
		fmt.Fprintf(stdio.Out, "reload: %v\n", err)
	default:
		fmt.Fprintf(stdio.Out, "reload: %s\n", answer)
	}
}
