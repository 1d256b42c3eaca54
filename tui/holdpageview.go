package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// Folding bounds: an agent's arguments can carry a whole file, and the
// reviewer needs to see what it is and where it goes before all of it.
const (
	foldString = 160 // characters of a string shown folded
	foldItems  = 12  // array items shown folded
	foldDepth  = 6   // nesting shown folded
)

func (p *holdPage) View() string {
	st := p.svc.styles
	if p.loading {
		return st.Muted.Render("loading " + p.id + "…")
	}
	if p.loadErr != nil {
		return st.Error.Render(ansi.Truncate("cannot show "+p.id+": "+p.loadErr.Error(), p.width, "…"))
	}
	c := p.call
	var lines []string
	add := func(s string) { lines = append(lines, ansi.Truncate(s, p.width, "…")) }
	title := c.Upstream + " · " + c.Tool + " · " + p.state()
	if who := p.svc.presence.openBy(p.id); who != "" {
		title += " · open by " + who // two approvers on one call
	}
	add(st.Title.Render(title))
	add(p.actionLine())
	add("")
	row := func(label, v string) {
		if v != "" {
			add(fmt.Sprintf("%-11s %s", label, oneLine(v)))
		}
	}
	row("client", c.Client)
	row("upstream", c.Upstream)
	row("tool", c.Tool)
	class := c.Class
	if c.Source != "" {
		class += " (from " + c.Source + ")"
	}
	row("class", class)
	row("rule", c.Rule)
	row("reason", c.Reason)
	row("expires", c.Expires+p.left())
	row("budget", c.Budget)
	if l := c.Linked; l != nil {
		// Unsettled, an approval is kept but the call stays held.
		state := "unsettled: the call waits for it"
		if p.linkedSettled {
			state = "settled"
		}
		row("extraction", l.TraceID+" ("+state+")")
		row("value", fmt.Sprintf("%s = %s in argument %s", l.Field, l.Value, l.Argument))
	}
	if r := c.Resolution; r != nil {
		row("decided", fmt.Sprintf("%s by %s at %s", verdict(r.Approved), r.Reviewer, r.At.UTC().Format(time.RFC3339)))
		row("note", r.Note)
	}
	fold := "folded, f unfolds"
	if p.unfold {
		fold = "whole, f folds"
	}
	add(st.Header.Render("arguments (" + fold + ")"))
	// Wrapped, not cut: the end of a folded string says how much is folded.
	wrapped := ansi.Hardwrap(prettyArgs(c.Arguments, !p.unfold), max(8, p.width-2), false)
	args := strings.Split(wrapped, "\n")
	room := max(1, p.height-len(lines))
	p.scroll = min(p.scroll, max(0, len(args)-room))
	for _, l := range args[p.scroll:min(len(args), p.scroll+room)] {
		add("  " + l)
	}
	return strings.Join(lines, "\n")
}

// state is the call's standing in one word or two.
func (p *holdPage) state() string {
	switch {
	case p.call.Resolution != nil:
		return verdict(p.call.Resolution.Approved)
	case p.saving:
		return "saving…"
	case p.expired():
		return "expired"
	}
	return "held"
}

// actionLine is the decision the page offers, or why it offers none.
func (p *holdPage) actionLine() string {
	st := p.svc.styles
	switch {
	case p.note != nil:
		return p.note.View()
	case p.saving:
		return st.Muted.Render("writing the decision…")
	case p.call.Resolution != nil:
		return st.Saved.Render("decided and saved: the agent's identical retry " + map[bool]string{true: "runs once", false: "is refused"}[p.call.Resolution.Approved])
	case !p.resolvable():
		return st.Flag.Render(p.why())
	}
	// Not "the agent is waiting": after --hold-wait the agent got its held
	// result and may be gone; an approval runs on its identical retry.
	return st.Flag.Render("y approves as it is (it runs once, now or on the agent's retry); n rejects it")
}

// left is the time the hold has before it expires.
func (p *holdPage) left() string {
	t, ok := p.expires()
	if !ok {
		return ""
	}
	d := t.Sub(p.now())
	if d <= 0 {
		return " (expired)"
	}
	return " (" + d.Truncate(time.Second).String() + " left)"
}

// prettyArgs indents the arguments as JSON; folded, long strings, long
// arrays and deep nesting are cut, saying how much was cut.
func prettyArgs(raw json.RawMessage, folded bool) string {
	if len(raw) == 0 {
		return "(none)"
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "(not JSON: " + err.Error() + ")"
	}
	if folded {
		v = foldValue(v, 0)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "(" + err.Error() + ")"
	}
	return strings.TrimRight(b.String(), "\n")
}

func foldValue(v any, depth int) any {
	switch x := v.(type) {
	case string:
		if r := []rune(x); len(r) > foldString {
			return string(r[:foldString]) + fmt.Sprintf("… (%d more characters folded)", len(r)-foldString)
		}
	case []any:
		if depth >= foldDepth {
			return fmt.Sprintf("[… %d items folded]", len(x))
		}
		n := min(len(x), foldItems)
		out := make([]any, 0, n+1)
		for _, e := range x[:n] {
			out = append(out, foldValue(e, depth+1))
		}
		if len(x) > n {
			out = append(out, fmt.Sprintf("… %d more items folded", len(x)-n))
		}
		return out
	case map[string]any:
		if depth >= foldDepth {
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return fmt.Sprintf("{… %d keys folded: %s}", len(x), strings.Join(keys, ", "))
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = foldValue(e, depth+1)
		}
		return out
	}
	return v
}

func (p *holdPage) ShortHelp() []key.Binding {
	if p.note != nil {
		return []key.Binding{p.keys.NoteSubmit, p.keys.NoteCancel}
	}
	if !p.resolvable() {
		return []key.Binding{p.keys.Unfold, p.keys.Down}
	}
	return []key.Binding{p.keys.Approve, p.keys.Reject, p.keys.Unfold}
}

func (p *holdPage) FullHelp() [][]key.Binding {
	return [][]key.Binding{p.ShortHelp(), {p.keys.Down, p.keys.Up}}
}
