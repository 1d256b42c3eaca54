package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReviewGuard keeps unreviewed values out of actions: it sees every
// forwarded result (to learn what reflect flagged) and every call's
// arguments (to hold one that carries such a value while it is unsettled).
type ReviewGuard interface {
	Observe(ctx context.Context, who Identity, upstream, tool string, res *mcpsdk.CallToolResult)
	// Check returns the unsettled value the arguments carry, or nil.
	Check(ctx context.Context, who Identity, upstream, tool string, args json.RawMessage) (*Link, error)
}

// Link ties a call's argument to a value reflect flagged for review that no
// human has settled: the reviewer of the held call sees it, and the call
// does not run (nor spend an approval) until it is settled.
type Link struct {
	TraceID  string `json:"trace_id"`
	Field    string `json:"field"`
	Value    string `json:"value"` // as shown: 683.2, or a quoted string
	Argument string `json:"argument"`
}

// Reason is the sentence an agent and a reviewer read.
func (l *Link) Reason() string {
	return fmt.Sprintf("unreviewed value: argument %q carries %s, the field %s of extraction %s, which reflect flagged for review "+
		"and no human has settled yet", l.Argument, l.Value, l.Field, l.TraceID)
}

// SettledFunc says whether a human has settled the result with this trace id.
type SettledFunc func(ctx context.Context, traceID string) (bool, error)

// FlaggedValue is one flagged field of a result nobody has settled.
type FlaggedValue struct {
	TraceID, Field string
	Value          any // as JSON decodes it: float64, string...
}

// UnsettledSource lists the flagged values of every unsettled needs_review
// result in a client's review queue, whichever process queued it: a value
// extracted through another gateway process, or before a restart, is held
// as surely as one this process saw.
type UnsettledSource interface {
	Unsettled(ctx context.Context, client string) ([]FlaggedValue, error)
}

// UnreviewedGuard holds a call to another upstream whose arguments carry a
// value that reflect flagged and nobody has settled: the values of the
// caller's queue from the source, and, without a source (no store), those
// the built-in reflect upstream returned through this process's session.
type UnreviewedGuard struct {
	upstream string // the built-in reflect upstream's name
	settled  SettledFunc
	source   UnsettledSource

	mu   sync.Mutex
	seen map[string][]flagged // by session id
}

type flagged struct {
	traceID, field string
	num            float64
	isNum          bool
	str            string
	words          string // str through normWords
	// current: from the source, which lists only unsettled values.
	current bool
}

// maxFlaggedPerSession bounds memory: the oldest entries go first.
const maxFlaggedPerSession = 1000

// NewUnreviewedGuard guards values from upstream's extract and validate
// results; source may be nil (values seen in this process only).
func NewUnreviewedGuard(upstream string, settled SettledFunc, source UnsettledSource) *UnreviewedGuard {
	return &UnreviewedGuard{upstream: upstream, settled: settled, source: source, seen: map[string][]flagged{}}
}

func newFlagged(traceID, field string, value any) (flagged, bool) {
	fl := flagged{traceID: traceID, field: field}
	switch v := value.(type) {
	case float64:
		fl.num, fl.isNum = v, true
	case json.Number:
		n, err := v.Float64()
		if err != nil {
			return fl, false
		}
		fl.num, fl.isNum = n, true
	case string:
		if len(strings.TrimSpace(v)) < 2 {
			return fl, false
		}
		fl.str = strings.TrimSpace(v)
		fl.words = normWords(fl.str)
		// A number the extraction kept as text ("683.20") is looked for
		// as the number it is.
		if whole, ok := wholeNumber(fl.str); ok && len(whole) > 0 {
			fl.num, fl.isNum = whole[0], true
		}
	default:
		return fl, false // null, bools, objects: nothing an argument could carry by mistake
	}
	return fl, true
}

// Observe implements ReviewGuard.
func (g *UnreviewedGuard) Observe(_ context.Context, who Identity, upstream, tool string, res *mcpsdk.CallToolResult) {
	if upstream != g.upstream || (tool != "extract" && tool != "validate") || res == nil || res.StructuredContent == nil {
		return
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return
	}
	var r struct {
		Status  string `json:"status"`
		TraceID string `json:"trace_id"`
		Flagged []struct {
			Field string `json:"field"`
			Value any    `json:"value"`
		} `json:"flagged_fields"`
	}
	if json.Unmarshal(b, &r) != nil || r.Status != "needs_review" || r.TraceID == "" {
		return
	}
	if g.source != nil {
		return // the store has it, for every process
	}
	var add []flagged
	for _, f := range r.Flagged {
		if fl, ok := newFlagged(r.TraceID, f.Field, f.Value); ok {
			add = append(add, fl)
		}
	}
	if len(add) == 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	list := append(g.seen[who.SessionID], add...)
	if len(list) > maxFlaggedPerSession {
		list = list[len(list)-maxFlaggedPerSession:]
	}
	g.seen[who.SessionID] = list
}

// Check implements ReviewGuard. Calls to reflect itself are never held:
// validating a flagged value again is how an agent checks it.
func (g *UnreviewedGuard) Check(ctx context.Context, who Identity, upstream, _ string, args json.RawMessage) (*Link, error) {
	if upstream == g.upstream {
		return nil, nil
	}
	g.mu.Lock()
	list := append([]flagged(nil), g.seen[who.SessionID]...)
	g.mu.Unlock()
	if g.source != nil {
		vals, err := g.source.Unsettled(ctx, who.Client)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if fl, ok := newFlagged(v.TraceID, v.Field, v.Value); ok {
				fl.current = true
				list = append(list, fl)
			}
		}
	}
	if len(list) == 0 {
		return nil, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, nil
	}
	hits := map[int]string{} // index in list -> argument path
	walkArgs(v, "", func(path string, leaf any) {
		var lt *leafText
		read := func() leafText {
			if lt == nil {
				s, _ := leaf.(string)
				r := readLeaf(s)
				lt = &r
			}
			return *lt
		}
		for i, f := range list {
			if _, done := hits[i]; !done && f.matches(leaf, read) {
				hits[i] = path
			}
		}
	})
	idx := make([]int, 0, len(hits))
	for i := range hits {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		f := list[i]
		if !f.current {
			ok, err := g.settled(ctx, f.traceID)
			if err != nil {
				return nil, err
			}
			if ok {
				g.forget(who.SessionID, f.traceID)
				continue
			}
		}
		return &Link{TraceID: f.traceID, Field: f.field, Value: f.show(), Argument: hits[i]}, nil
	}
	return nil, nil
}

func (g *UnreviewedGuard) forget(session, traceID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	list := g.seen[session][:0]
	for _, f := range g.seen[session] {
		if f.traceID != traceID {
			list = append(list, f)
		}
	}
	g.seen[session] = list
}

func (f flagged) show() string {
	if f.isNum {
		return strconv.FormatFloat(f.num, 'f', -1, 64)
	}
	return strconv.Quote(f.str)
}

func walkArgs(v any, path string, leaf func(string, any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walkArgs(c, p, leaf)
		}
	case []any:
		for i, c := range x {
			walkArgs(c, fmt.Sprintf("%s[%d]", path, i), leaf)
		}
	default:
		leaf(path, v)
	}
}
