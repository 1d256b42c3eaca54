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
		return 1 + 1 + 2 // header, divider, error + retry hint
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
	b.WriteString(d.text.Render(d.textHeight(), st))
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

func (d *docPage) errorView() string {
	st := d.svc.styles
	msg := "no pipeline result for this document yet"
	if d.hasResult {
		msg = "pipeline error: " + strings.Join(strings.Fields(d.res.ErrorMessage), " ")
	}
	hint := "no pipeline in this session: r (retry) is unavailable"
	switch {
	case d.running:
		hint = "running the pipeline…"
	case d.svc.runner != nil:
		hint = "press r to run the pipeline again"
	}
	return st.Error.Render(ansi.Truncate(msg, d.width, "…")) + "\n" + st.Muted.Render(ansi.Truncate(hint, d.width, "…"))
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
	b.WriteByte('\n')
	b.WriteString(d.detailLine())
	b.WriteByte('\n')
	critic := d.res.CriticSummary
	if critic == "" {
		critic = "(none)"
	}
	b.WriteString(st.Muted.Render(ansi.Truncate("critic: "+strings.Join(strings.Fields(critic), " "), d.width, "…")))
	b.WriteByte('\n')
	if d.edit != nil {
		b.WriteString(ansi.Truncate(d.edit.View(), d.width, "…"))
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
	v := d.value(f.Name)
	conf, bar := "    ", strings.Repeat(" ", confBarWidth)
	if c, ok := d.res.FieldConfidence[f.Name]; ok && d.res.Data[f.Name] != nil {
		conf, bar = fmt.Sprintf("%4.2f", c), confBar(c, confBarWidth)
	}
	status := d.fieldStatus(f.Name)
	line := marker + flag + pad(f.Name, fieldNameWidth) + " " + pad(oneLine(pipeline.FormatValue(v)), vw) + " " + bar + " " + conf + "  " + pad(status, fieldStatusW)
	if selected {
		return st.RowSelected.Render(fitWidth(line, d.width))
	}
	if flag == "!" && status == "flagged" {
		return st.Flag.Render(ansi.Truncate(line, d.width, "…"))
	}
	return ansi.Truncate(line, d.width, "…")
}

// detailLine explains the selected field: the gate's reason when flagged, and
// whether a corrected value was found in the source.
func (d *docPage) detailLine() string {
	st := d.svc.styles
	if e := d.editErr(); e != "" {
		return st.Error.Render(ansi.Truncate("✗ "+oneLine(e), d.width, "…"))
	}
	f := d.selected()
	var parts []string
	if dec, ok := d.decisions[f.Name]; ok && dec.Action == store.ActionCorrect {
		if sp := d.regrounds[f.Name]; len(sp) > 0 {
			parts = append(parts, fmt.Sprintf("corrected value found in source at %d–%d", sp[0].Start, sp[0].End))
		} else {
			parts = append(parts, "corrected value not found in source")
		}
	}
	if r := d.reason(f.Name); r != "" {
		parts = append(parts, "reason: "+r)
	}
	if len(parts) == 0 {
		if sp := d.spans(f.Name); len(sp) > 0 {
			parts = append(parts, fmt.Sprintf("%s: found in source at %d–%d", f.Name, sp[0].Start, sp[0].End))
		} else {
			parts = append(parts, f.Name+": no source span")
		}
	}
	text := ansi.Truncate(oneLine(strings.Join(parts, " · ")), d.width, "…")
	if d.reason(f.Name) != "" {
		return st.Flag.Render(text)
	}
	return st.Info.Render(text)
}

// confBar draws confidence as filled cells, readable without colour.
func confBar(c float64, w int) string {
	c = math.Max(0, math.Min(1, c))
	n := int(math.Round(c * float64(w)))
	return strings.Repeat("█", n) + strings.Repeat("░", w-n)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
