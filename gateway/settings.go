package gateway

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Settings are the REEFLEX_* / REEFLEX_MCP_* variables, with reeflex-mcp's
// defaults and meanings. CLI flags override them in cmd.
type Settings struct {
	// CoreURL is set only when REEFLEX_CORE_URL is: then decisions go to that
	// remote engine; otherwise the engine runs in process.
	CoreURL        string
	CoreToken      string
	Mode           Mode // "" when REEFLEX_MODE is unset: the registry decides
	VerifySSL      bool
	CoreTimeout    time.Duration
	ConfigPath     string
	Transport      string
	Host           string
	Port           int
	ConnectTimeout time.Duration
	CallTimeout    time.Duration
	MappingsDir    string
	// Warnings lists invalid values that fell back to their defaults.
	Warnings []string
}

// Defaults from reeflex-mcp.
const (
	DefaultConfigPath     = "./reeflex-mcp.yaml"
	DefaultHost           = "127.0.0.1"
	DefaultPort           = 8000
	DefaultCoreTimeout    = 10 * time.Second
	DefaultConnectTimeout = 10 * time.Second
	DefaultCallTimeout    = 30 * time.Second
)

// SettingsFromEnv reads the variables through getenv.
func SettingsFromEnv(getenv func(string) string) Settings {
	s := Settings{
		CoreURL:        strings.TrimSpace(getenv("REEFLEX_CORE_URL")),
		CoreToken:      strings.TrimSpace(getenv("REEFLEX_CORE_TOKEN")),
		VerifySSL:      true,
		ConfigPath:     DefaultConfigPath,
		Transport:      "stdio",
		Host:           DefaultHost,
		Port:           DefaultPort,
		CoreTimeout:    DefaultCoreTimeout,
		ConnectTimeout: DefaultConnectTimeout,
		CallTimeout:    DefaultCallTimeout,
		MappingsDir:    getenv("REEFLEX_MCP_MAPPINGS_DIR"),
	}
	if v := strings.ToLower(strings.TrimSpace(getenv("REEFLEX_MODE"))); v != "" {
		switch Mode(v) {
		case ModeObserve, ModeEnforce:
			s.Mode = Mode(v)
		default:
			s.Warnings = append(s.Warnings, fmt.Sprintf("REEFLEX_MODE=%q is neither observe nor enforce: observe is used", v))
			s.Mode = ModeObserve
		}
	}
	switch strings.ToLower(strings.TrimSpace(getenv("REEFLEX_VERIFY_SSL"))) {
	case "0", "false", "no", "off":
		s.VerifySSL = false
	}
	if v := getenv("REEFLEX_MCP_CONFIG"); v != "" {
		s.ConfigPath = v
	}
	if v := strings.TrimSpace(getenv("REEFLEX_MCP_TRANSPORT")); v != "" {
		s.Transport = v
	}
	if v := strings.TrimSpace(getenv("REEFLEX_MCP_HOST")); v != "" {
		s.Host = v
	}
	if v := strings.TrimSpace(getenv("REEFLEX_MCP_PORT")); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 && n < 65536 {
			s.Port = n
		} else {
			s.Warnings = append(s.Warnings, fmt.Sprintf("REEFLEX_MCP_PORT=%q is not a port: %d is used", v, DefaultPort))
		}
	}
	s.CoreTimeout = s.seconds(getenv, "REEFLEX_MCP_TIMEOUT", DefaultCoreTimeout)
	s.ConnectTimeout = s.seconds(getenv, "REEFLEX_MCP_UPSTREAM_CONNECT_TIMEOUT", DefaultConnectTimeout)
	s.CallTimeout = s.seconds(getenv, "REEFLEX_MCP_CALL_TIMEOUT", DefaultCallTimeout)
	return s
}

// seconds reads a positive number of seconds; invalid or non-positive values
// fall back to the default, as in the reference.
func (s *Settings) seconds(getenv func(string) string, name string, def time.Duration) time.Duration {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 || f != f || f > 1e6 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s=%q is not a positive number of seconds: %s is used", name, v, def))
		return def
	}
	return time.Duration(f * float64(time.Second))
}
