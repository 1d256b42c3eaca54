package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// expandedView takes the source text's place while enter is toggled on: the
// selected field's whole reason, its confidence, the result's notes (passing
// notes included, which say why a field sits at 0.73 without a flag) and the
// critic's summary, wrapped to the width instead of cut at it.
func (d *docPage) expandedView(h int) string {
	st := d.svc.styles
	f := d.selected()
	var parts []string
	conf, hasConf := d.res.FieldConfidence[f.Name]
	head := f.Name + ": " + d.valueText(f.Name)
	if hasConf {
		head += fmt.Sprintf(" · confidence %.2f", conf)
	}
	parts = append(parts, head)
	if r := d.reason(f.Name); r != "" {
		parts = append(parts, "reason: "+r)
	} else {
		parts = append(parts, "not flagged")
	}
	if d.rechecked {
		parts = append(parts, "flags re-checked against your corrections")
	}
	if d.orig.Data[f.Name] != nil || d.decisions[f.Name].Field != "" {
		parts = append(parts, d.pipelineSaid(f.Name))
	}
	for _, n := range noteLines(d.res.Notes) {
		parts = append(parts, "note: "+n)
	}
	if c := strings.TrimSpace(d.res.CriticSummary); c != "" {
		parts = append(parts, "critic: "+c)
	}
	parts = append(parts, "(enter: back to the source text)")
	w := max(10, d.width)
	var lines []string
	for _, p := range parts {
		lines = append(lines, strings.Split(ansi.Wordwrap(oneLine(p), w, " "), "\n")...)
	}
	if len(lines) > h {
		lines = append(lines[:max(0, h-1)], "…")
	}
	for i, l := range lines {
		lines[i] = st.Info.Render(ansi.Truncate(l, w, "…"))
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}

// noteLines splits a result's notes into sentences a reader can scan: the
// gate writes them as one paragraph, with passing notes joined by " | ".
func noteLines(notes string) []string {
	var out []string
	for _, s := range strings.Split(notes, " | ") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
