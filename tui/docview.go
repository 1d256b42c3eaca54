package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Fixed layout of the document screen around the source text.
const (
	fieldNameWidth = 16
	confBarWidth   = 8
	fieldStatusW   = 9
)

// chromeLines is every line of the screen that is not source text.
func (d *docPage) chromeLines() int {
	if d.hasResult && d.res.Status == pipeline.StatusError {
		return 1 + 1 + len(d.errorLines()) + 1 // header, divider, error, retry hint
	}
	return 1 + 1 + 1 + len(d.fields) + 3 // header, divider, table header, rows, reason, critic, editor
}

func (d *docPage) textHeight() int { return max(2, d.height-d.chromeLines()) }

func (d *docPage) View() string {
	st := d.svc.styles
	if d.loading {
		return st.Muted.Render("loading " + d.docID + "…")
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(ansi.Truncate(d.header(), d.width, "…")))
	b.WriteByte('\n')
	if d.loadErr != nil {
		return b.String()
	}
	switch {
	case d.showHistory:
		b.WriteString(d.historyView(d.textHeight()))
	case d.expanded:
		b.WriteString(d.expandedView(d.textHeight()))
	default:
		b.WriteString(d.text.Render(d.textHeight(), st))
	}
	b.WriteByte('\n')
	b.WriteString(st.Divider.Render(strings.Repeat("─", max(0, d.width))))
	b.WriteByte('\n')
	switch {
	case !d.hasResult || d.res.Status == pipeline.StatusError:
		b.WriteString(d.errorView())
	default:
		b.WriteString(d.tableView())
	}
	return b.String()
}

// maxErrorLines bounds the pipeline error's share of the page: enough for
// a provider's message with its cause (a URL, a status, the model's words),
// while the text above keeps its two lines on a 24-row terminal.
const maxErrorLines = 4

// errorLines is the pipeline error wrapped to the window, at spaces or a
// URL's slashes, so the reviewer reads the cause instead of its first 80
// columns; past maxErrorLines it ends in "…".
func (d *docPage) errorLines() []string {
	msg := "no pipeline result for this document yet"
	if d.hasResult {
		msg = "pipeline error: " + oneLine(d.res.ErrorMessage)
	}
	if d.width <= 0 {
		return []string{msg}
	}
	lines := strings.Split(ansi.Wrap(msg, d.width, "/"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	room := max(1, min(maxErrorLines, d.height-1-1-1-2))
	if len(lines) > room {
		lines = lines[:room]
		lines[room-1] = ansi.Truncate(lines[room-1], d.width-1, "") + "…"
	}
	return lines
}

func (d *docPage) errorView() string {
	st := d.svc.styles
	lines := d.errorLines()
	for i, l := range lines {
		lines[i] = st.Error.Render(l)
	}
	msg := strings.Join(lines, "\n")
	hint := "no pipeline in this session: r (retry) is unavailable"
	switch {
	case d.running:
		hint = "running the pipeline…"
	case d.svc.runner != nil:
		hint = "press r to run the pipeline again"
	}
	if d.vnote != nil {
		return msg + "\n" + ansi.Truncate(d.vnote.View(), d.width, "…")
	}
	return msg + "\n" + st.Muted.Render(ansi.Truncate(hint, d.width, "…"))
}

// prompting reports whether the line under the table holds a text prompt:
// the correction editor or the note of X / S.
func (d *docPage) prompting() bool { return d.edit != nil || d.vnote != nil }

func (d *docPage) promptView() string {
	if d.vnote != nil {
		return d.vnote.View()
	}
	return d.edit.View()
}

func (d *docPage) valueWidth() int {
	return max(8, d.width-(2+fieldNameWidth+1+1+confBarWidth+1+4+2+fieldStatusW))
}

func (d *docPage) tableView() string {
	st := d.svc.styles
	vw := d.valueWidth()
	var b strings.Builder
	b.WriteString(st.Header.Render(fitWidth("  "+pad("FIELD", fieldNameWidth)+" "+pad("VALUE", vw)+" "+pad("CONFIDENCE", confBarWidth+5)+"  STATUS", d.width)))
	for i, f := range d.fields {
		b.WriteByte('\n')
		b.WriteString(d.fieldRow(i, f, vw))
	}
	// Three lines follow the table: the detail, the critic and the editor.
	// With the editor closed the detail may take its line too, so a settled
	// field's correction note does not push the gate's reason off screen.
	maxDetail := 2
	if d.prompting() {
		maxDetail = 1
	}
	detail := d.detailLines(maxDetail)
	for _, l := range detail {
		b.WriteByte('\n')
		b.WriteString(l)
	}
	b.WriteByte('\n')
	critic := d.res.CriticSummary
	if critic == "" {
		critic = "(none)"
	}
	b.WriteString(st.Muted.Render(ansi.Truncate("critic: "+oneLine(critic), d.width, "…")))
	if d.prompting() || len(detail) < maxDetail {
		b.WriteByte('\n') // the editor's line, blank while it is closed
	}
	if d.prompting() {
		b.WriteString(ansi.Truncate(d.promptView(), d.width, "…"))
	}
	return b.String()
}

func (d *docPage) fieldRow(i int, f pipeline.Field, vw int) string {
	st := d.svc.styles
	selected := i == d.sel
	marker := " "
	if selected {
		marker = "▶"
	}
	flag := " "
	if d.res.Flagged(f.Name) {
		flag = "!"
	}
	status := d.fieldStatus(f.Name)
	line := marker + flag + pad(f.Name, fieldNameWidth) + " " + pad(oneLine(d.valueText(f.Name)), vw) + " " +
		d.confidenceCell(f.Name) + "  " + pad(status, fieldStatusW)
	if selected {
		return st.RowSelected.Render(fitWidth(line, d.width))
	}
	if flag == "!" && status == "flagged" {
		return st.Flag.Render(ansi.Truncate(line, d.width, "…"))
	}
	return ansi.Truncate(line, d.width, "…")
}

// confCellWidth is the confidence column: bar, space, "0.00".
const confCellWidth = confBarWidth + 5

// confidenceCell is the pipeline's confidence as a bar until the reviewer
// settles the field; from then on the pipeline's number no longer describes
// the value shown, so the cell says the field is reviewed (the detail line
// keeps what the pipeline said).
func (d *docPage) confidenceCell(name string) string {
	if _, decided := d.decisions[name]; decided {
		return pad("✓ reviewed", confCellWidth)
	}
	c, ok := d.res.FieldConfidence[name]
	// A null gets no bar unless it is flagged: then its confidence (0 for a
	// missing required field) is why it is on the reviewer's screen.
	if !ok || d.res.Data[name] == nil && !d.res.Flagged(name) {
		return strings.Repeat(" ", confCellWidth)
	}
	return confBar(c, confBarWidth) + " " + fmt.Sprintf("%4.2f", c)
}

// pipelineValue is the pipeline's value of a field in words: a flagged null
// is a required field the pipeline could not find, not an answer of null.
func (d *docPage) pipelineValue(name string) string {
	if !d.res.Given(name) {
		return "not given"
	}
	if v := d.res.Data[name]; v != nil || !d.res.Flagged(name) {
		return pipeline.FormatValue(v)
	}
	return "missing"
}

// valueText is the value column: the pipeline's value until a decision, then
// the settled value, followed by the pipeline's when the two differ.
func (d *docPage) valueText(name string) string {
	dec, ok := d.decisions[name]
	switch {
	case !ok && !d.res.Given(name):
		return "— (not given)"
	case !ok && d.res.Data[name] == nil && d.res.Flagged(name):
		return "— (missing)"
	case !ok:
		return pipeline.FormatValue(d.res.Data[name])
	case store.SameValue(dec.Value, d.res.Data[name]):
		return pipeline.FormatValue(dec.Value)
	default:
		return pipeline.FormatValue(dec.Value) + " (was " + d.pipelineValue(name) + ")"
	}
}

// pipelineSaid is the pipeline's value and confidence of a settled field,
// kept short so the gate's reason after it still fits 80 columns.
func (d *docPage) pipelineSaid(name string) string {
	if c, ok := d.res.FieldConfidence[name]; ok {
		return fmt.Sprintf("pipeline: %s @ %.2f", d.pipelineValue(name), c)
	}
	return "pipeline: " + d.pipelineValue(name)
}

// detailLines explains the selected field in at most maxLines lines: for a
// settled field whether a corrected value was found in the source and what
// the pipeline said, and the gate's reason when it was flagged.
func (d *docPage) detailLines(maxLines int) []string {
	st := d.svc.styles
	if e := d.editErr(); e != "" {
		return []string{st.Error.Render(ansi.Truncate("✗ "+oneLine(e), d.width, "…"))}
	}
	f := d.selected()
	var parts []string
	dec, decided := d.decisions[f.Name]
	if decided {
		if dec.Action == store.ActionCorrect {
			if sp := d.regrounds[f.Name]; len(sp) > 0 {
				parts = append(parts, fmt.Sprintf("corrected value found in source at %d–%d", sp[0].Start, sp[0].End))
			} else {
				parts = append(parts, "corrected value not found in source")
			}
		}
		parts = append(parts, d.pipelineSaid(f.Name))
	}
	reason := d.reason(f.Name)
	if reason != "" {
		parts = append(parts, "reason: "+oneLine(reason))
	}
	if len(parts) == 0 {
		if sp := d.spans(f.Name); len(sp) > 0 {
			parts = append(parts, fmt.Sprintf("%s: found in source at %d–%d", f.Name, sp[0].Start, sp[0].End))
		} else {
			parts = append(parts, f.Name+": no source span")
		}
	}
	style := st.Info
	switch {
	case decided:
		style = st.Saved
	case reason != "":
		style = st.Flag
	}
	lines := packParts(parts, " · ", d.width, maxLines)
	for i, l := range lines {
		lines[i] = style.Render(ansi.Truncate(l, d.width, "…"))
	}
	return lines
}

// packParts joins parts with sep into at most maxLines lines of width cells,
// starting a new line between parts rather than inside one; what does not
// fit goes on the last line, to be truncated there.
func packParts(parts []string, sep string, width, maxLines int) []string {
	lines := []string{""}
	for _, p := range parts {
		cur := &lines[len(lines)-1]
		switch {
		case *cur == "":
			*cur = p
		case width <= 0 || ansi.StringWidth(*cur+sep+p) <= width || len(lines) == maxLines:
			*cur += sep + p
		default:
			lines = append(lines, p)
		}
	}
	return lines
}

// confBar draws confidence as filled cells, readable without colour.
func confBar(c float64, w int) string {
	if math.IsNaN(c) {
		// int(NaN) is not a number of cells: Repeat would panic on it.
		c = 0
	}
	c = math.Max(0, math.Min(1, c))
	n := int(math.Round(c * float64(w)))
	return strings.Repeat("█", n) + strings.Repeat("░", w-n)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func (d *docPage) fieldStatus(name string) string {
	if d.pending[name] {
		return "saving…"
	}
	if dec, ok := d.decisions[name]; ok {
		switch dec.Action {
		case store.ActionAccept:
			return "accepted"
		case store.ActionCorrect:
			return "corrected"
		case store.ActionSetNull:
			return "set null"
		}
	}
	switch {
	case d.res.Flagged(name):
		return "flagged"
	case d.res.Data[name] == nil:
		return "null"
	default:
		return "ok"
	}
}

func (d *docPage) header() string {
	if d.loadErr != nil {
		return fmt.Sprintf("%s · cannot load: %v", d.docID, d.loadErr)
	}
	id := d.docID
	if v := d.verdictText(); v != "" {
		// First after the id, so a narrow terminal cuts the figures, not it.
		id += " · " + v
	}
	if who := d.svc.presence.openBy(d.docID); who != "" {
		id += " · open by " + who
	}
	if d.svc.presence.textChangedIn(d.docID) {
		id += " · text changed in the file (stored text shown)"
	}
	if !d.hasResult {
		return fmt.Sprintf("%s · no result yet", id)
	}
	s := fmt.Sprintf("%s · %s", id, d.res.Status)
	if d.res.Status != pipeline.StatusError {
		s += fmt.Sprintf(" · confidence %.2f · %d flagged", d.res.OverallConfidence, len(d.res.FlaggedFields))
		if d.rechecked {
			s += " · re-checked"
		}
	}
	return s
}

// editErr is the editor's validation error, "" when none or closed.
func (d *docPage) editErr() string {
	if d.edit == nil {
		return ""
	}
	return d.edit.err
}
