package clientconfig

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Finding kinds.
const (
	// FindingInvalidConfig: the client file cannot be read as a config.
	FindingInvalidConfig = "invalid_config"
	// FindingForeignServer: a server the client reaches directly, past the
	// gateway: an ungoverned path.
	FindingForeignServer = "foreign_server"
	// FindingGatewayMissing: the file has direct servers and no gateway.
	FindingGatewayMissing = "gateway_missing"
	// FindingRelativeConfig: the gateway entry's --config is relative, so it
	// depends on the directory the client happens to start it from.
	FindingRelativeConfig = "relative_config"
)

// Finding is one thing doctor found.
type Finding struct {
	Kind    string `json:"kind"`
	Client  string `json:"client"`
	Path    string `json:"path"`
	Server  string `json:"server,omitempty"`
	Detail  string `json:"detail"`
	Fix     string `json:"fix"`
	profile Profile
}

func (f Finding) String() string {
	s := fmt.Sprintf("%s: %s (%s)", f.Kind, f.Detail, f.Path)
	if f.Fix != "" {
		s += "; fix: " + f.Fix
	}
	return s
}

// Doctor checks each profile whose file exists. The gateway governs only what
// passes through it: doctor can say a server was added to a client directly,
// it cannot stop anyone adding one.
func Doctor(profiles []Profile) []Finding {
	var out []Finding
	for _, p := range profiles {
		out = append(out, doctorOne(p)...)
	}
	return out
}

func doctorOne(p Profile) []Finding {
	if _, err := os.Stat(p.Path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	at := func(kind, server, detail, fix string) Finding {
		return Finding{Kind: kind, Client: p.Key, Path: p.Path, Server: server, Detail: detail, Fix: fix, profile: p}
	}
	f, err := ReadFile(p.Path)
	if err != nil {
		return []Finding{at(FindingInvalidConfig, "", err.Error(), "repair the JSON by hand (reflect writes nothing to a file it cannot read)")}
	}
	var out []Finding
	foreign, gateway := 0, false
	for _, s := range f.Servers {
		e, err := ParseEntry(s.Raw)
		if err != nil {
			foreign++
			out = append(out, at(FindingForeignServer, s.Name,
				fmt.Sprintf("%s is reached directly, not through the gateway, and its entry cannot be imported: %v", s.Name, err),
				"fix the entry by hand, then run `reflect gateway import "+shellQuote(s.Name)+" "+p.Selector()+"`"))
			continue
		}
		if Classify(s.Name, e) == Gateway {
			gateway = true
			if c := GatewayConfigPath(e); c != "" && !filepath.IsAbs(c) {
				out = append(out, at(FindingRelativeConfig, s.Name,
					fmt.Sprintf("the gateway's config %q is relative: the client resolves it against a directory of its own choosing", c),
					"reflect gateway setup "+p.Selector()))
			}
			continue
		}
		foreign++
		if _, _, err := Convert(s.Name, e, "production"); err != nil && !IsReflectMCP(e) {
			// Telling the user to import what import refuses would be a lie.
			out = append(out, at(FindingForeignServer, s.Name,
				fmt.Sprintf("%s is reached directly, not through the gateway, and the gateway cannot take it: %v", s.Name, err),
				"remove it from the client, or replace it with a stdio or streamable-HTTP server and run `reflect gateway import "+shellQuote(s.Name)+" "+p.Selector()+"`"))
			continue
		}
		out = append(out, at(FindingForeignServer, s.Name,
			fmt.Sprintf("%s is reached directly, not through the gateway: its tool calls are ungoverned", s.Name),
			"reflect gateway import "+shellQuote(s.Name)+" "+p.Selector()))
	}
	if foreign > 0 && !gateway {
		out = append(out, at(FindingGatewayMissing, "",
			fmt.Sprintf("%d server(s) and no gateway entry", foreign), "reflect gateway setup "+p.Selector()))
	}
	return out
}

// ReportDrift is what the gateway runs at every start: doctor over every
// standard client file that exists and Claude Code's ~/.claude.json, one "DRIFT:" line per finding on w. It
// never fails; it returns the number of findings.
func ReportDrift(w io.Writer, env Env) int {
	fs := append(Doctor(Existing(env)), DoctorClaudeState(env)...)
	for _, f := range fs {
		fmt.Fprintf(w, "DRIFT: %s\n", f)
	}
	return len(fs)
}
