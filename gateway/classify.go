package gateway

import (
	"bytes"
	"encoding/json"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Classification is what the gateway declares about one call.
type Classification struct {
	Verb   string
	Axes   Axes
	Count  int
	Source string // context.classification_source
}

// Classification sources (the reference's tags, plus the pin tier).
const (
	SourceMapping     = "mapping"
	SourceAnnRead     = "annotation:read"
	SourceAnnDestruct = "annotation:destructive"
	SourceDefault     = "heuristic:default"
	// SourcePinChanged: the tool's definition differs from its pin, so
	// nothing it declares about itself is trusted.
	SourcePinChanged = "pin:changed"
)

var (
	deletePrefixes = []string{"delete_", "remove_", "drop_"}
	createPrefixes = []string{"send_", "post_", "create_", "push_"}
	readPrefixes   = []string{"get_", "list_", "read_", "search_", "count_", "fetch_", "query_", "describe_", "find_", "select_", "get", "list"}
)

// floor is the conservative default: nothing about the tool is trusted.
func floor(count int, source string) Classification {
	return Classification{Verb: "execute", Axes: Axes{"irreversible", "systemic", "internal"}, Count: count, Source: source}
}

// Classify runs the tiers in order: mapping, the upstream's own annotations
// from tools/list (never the request's), the name-prefix table, the floor.
func Classify(m *Mapping, tool string, ann *mcpsdk.ToolAnnotations, args json.RawMessage) Classification {
	if m != nil {
		if mt, ok := m.Tools[tool]; ok {
			count := 1
			if m.FromArg != "" {
				if n, ok := listLen(args, m.FromArg); ok {
					count = max(n, 1)
				}
			}
			return Classification{Verb: mt.Verb, Axes: mt.Axes, Count: count, Source: SourceMapping}
		}
	}
	count := firstListLen(args)
	blast := blastByCount(count)
	switch {
	case ann != nil && ann.ReadOnlyHint:
		return Classification{Verb: "read", Axes: Axes{"reversible", blast, "internal"}, Count: count, Source: SourceAnnRead}
	case ann != nil && ann.DestructiveHint != nil && *ann.DestructiveHint:
		return Classification{Verb: "delete", Axes: Axes{"irreversible", blast, "internal"}, Count: count, Source: SourceAnnDestruct}
	case hasPrefix(tool, deletePrefixes):
		return Classification{Verb: "delete", Axes: Axes{"irreversible", blast, "internal"}, Count: count, Source: "heuristic:delete"}
	case hasPrefix(tool, createPrefixes):
		return Classification{Verb: "create", Axes: Axes{"recoverable", blast, "outbound"}, Count: count, Source: "heuristic:create"}
	case hasPrefix(tool, readPrefixes):
		return Classification{Verb: "read", Axes: Axes{"reversible", blast, "internal"}, Count: count, Source: "heuristic:read"}
	}
	return floor(count, SourceDefault)
}

func hasPrefix(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// blastByCount uses the WordPress adapter's thresholds, as the reference.
func blastByCount(n int) string {
	switch {
	case n > 20:
		return "broad"
	case n > 1:
		return "scoped"
	}
	return "single"
}

// firstListLen is the length of the first list-valued argument in the
// object's own order (a map would lose it), at least 1.
func firstListLen(args json.RawMessage) int {
	dec := json.NewDecoder(bytes.NewReader(args))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 1
	}
	for dec.More() {
		if _, err := dec.Token(); err != nil { // key
			return 1
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 1
		}
		if n, ok := arrayLen(v); ok {
			return max(n, 1)
		}
	}
	return 1
}

func listLen(args json.RawMessage, name string) (int, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return 0, false
	}
	v, ok := m[name]
	if !ok {
		return 0, false
	}
	return arrayLen(v)
}

func arrayLen(v json.RawMessage) (int, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '[' {
		return 0, false
	}
	var xs []json.RawMessage
	if json.Unmarshal(v, &xs) != nil {
		return 0, false
	}
	return len(xs), true
}
