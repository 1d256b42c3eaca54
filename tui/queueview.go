package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// View draws only the visible window of rows, so its cost does not grow with
// the corpus.
func (q *queuePage) View() string {
	st := q.svc.styles
	var b strings.Builder
	b.WriteString(q.tabBar())
	b.WriteByte('\n')
	switch {
	case q.bulk != nil:
		b.WriteString(ansi.Truncate(q.bulkLine(), q.width, "…"))
	case q.note != "":
		b.WriteString(st.Info.Render(ansi.Truncate(q.note, q.width, "…")))
	case q.filtering:
		b.WriteString(q.filter.View())
	case q.query != "":
		line := fmt.Sprintf("filter: %q  (/ to edit, esc to clear)", q.query)
		if q.searching != "" {
			line = fmt.Sprintf("filter: %q  searching text, values and reasons…", q.query)
		}
		b.WriteString(st.Info.Render(ansi.Truncate(line, q.width, "…")))
	case q.tab == TabAudit:
		b.WriteString(ansi.Truncate(q.auditLine(), q.width, "…"))
	default:
		b.WriteString(st.Muted.Render(ansi.Truncate(fmt.Sprintf("%d documents · sorted by %s (o)", len(q.rows), q.sortBy), q.width, "…")))
	}
	b.WriteByte('\n')
	b.WriteString(st.Header.Render(fitWidth("  STATUS  "+pad("ID", q.idWidth())+"  CONF "+pad("FLAG", q.flagWidth())+" REV  TEXT", q.width)))
	h := q.listHeight()
	var empty []string
	if len(q.view) == 0 {
		empty = q.emptyLines()
	}
	for line := 0; line < h; line++ {
		b.WriteByte('\n')
		vi := q.offset + line
		if vi >= len(q.view) {
			if line < len(empty) {
				b.WriteString(st.Muted.Render(ansi.Truncate(empty[line], q.width, "…")))
			}
			continue
		}
		b.WriteString(q.row(&q.rows[q.view[vi]], vi == q.cursor))
	}
	return b.String()
}

// emptyLines is what an empty list shows. An empty audit tab says why: a
// new user who bulk-accepted the ok tab expects those documents to be
// auditable, but a reviewer's accept is a decision, and the audit samples
// only what the gate passed that nobody looked at.
func (q *queuePage) emptyLines() []string {
	switch {
	case !q.loaded:
		return []string{"  loading…"}
	case q.query != "":
		return []string{"  no document matches the filter"}
	case q.tab == TabAudit && q.audit.loaded && q.audit.err == "" && q.audit.audit.Sample == 0:
		return []string{
			"  nothing to audit: the sample is drawn from documents the gate returned ok",
			"  that no reviewer has decided. Documents accepted by hand or with B are",
			"  reviewed already, so they are never drawn. D draws when there are some.",
		}
	default:
		return []string{fmt.Sprintf("  nothing in %q", q.tab.String())}
	}
}

// tabBar names every tab with its count; on a narrow terminal the tabs
// lose their outer spacing before any is cut off.
func (q *queuePage) tabBar() string {
	st := q.svc.styles
	bar := func(gap string) string {
		parts := make([]string, len(tabNames))
		for i, name := range tabNames {
			label := fmt.Sprintf(" %d %s %d ", i+1, name, len(q.views[i]))
			if Tab(i) == q.tab {
				parts[i] = st.TabActive.Render("[" + label + "]")
			} else {
				parts[i] = st.TabInactive.Render(gap + label + gap)
			}
		}
		return strings.Join(parts, "")
	}
	s := bar(" ")
	if ansi.StringWidth(s) > q.width {
		s = bar("")
	}
	return ansi.Truncate(s, q.width, "…")
}

const minIDWidth = 18

func statusLabel(s *store.Summary) string {
	switch s.Status {
	case pipeline.StatusNeedsReview:
		return "review"
	case pipeline.StatusOK:
		return "ok"
	case pipeline.StatusError:
		return "error"
	default:
		return "…"
	}
}

func (q *queuePage) statusStyle(s *store.Summary) string {
	st := q.svc.styles
	label := pad(statusLabel(s), 6)
	switch s.Status {
	case pipeline.StatusNeedsReview:
		return st.StatusReview.Render(label)
	case pipeline.StatusOK:
		return st.StatusOK.Render(label)
	case pipeline.StatusError:
		return st.StatusError.Render(label)
	default:
		return st.StatusPending.Render(label)
	}
}

func (q *queuePage) row(s *store.Summary, selected bool) string {
	marker := "  "
	if selected {
		marker = "▶ "
	}
	conf, flags := "    ", ""
	if s.Status != "" && s.Status != pipeline.StatusError {
		conf = fmt.Sprintf("%4.2f", s.Confidence)
		flags = flagCell(s)
	}
	flags = pad(flags, q.flagWidth())
	rev := "   "
	switch {
	case s.Verdict == store.ActionReject:
		rev = " ✗ " // not a document
	case s.Reviewed:
		rev = " ✓ " // a skipped document reviewed later is reviewed
	case s.Verdict == store.ActionSkip:
		rev = " » " // set aside with a note
	case s.Decisions > 0:
		rev = " ~ "
	}
	idW := q.idWidth()
	text := s.Snippet
	if s.Status == pipeline.StatusError && s.Error != "" {
		text = s.Error
	}
	text = oneLine(text)
	if q.svc.presence.textChangedIn(s.DocID) {
		text = "text changed · " + text
	}
	if who := q.svc.presence.openBy(s.DocID); who != "" {
		text = "open by " + who + " · " + text
	}
	if selected {
		line := marker + pad(statusLabel(s), 6) + "  " + pad(s.DocID, idW) + "  " + conf + " " + flags + rev + " " + text
		return q.svc.styles.RowSelected.Render(fitWidth(line, q.width))
	}
	line := marker + q.statusStyle(s) + "  " + pad(s.DocID, idW) + "  " + conf + " " + flags + rev + " " + text
	return ansi.Truncate(line, q.width, "…")
}

// flagWidth is the FLAG column: room for a field name or two, more on a
// wider terminal.
func (q *queuePage) flagWidth() int { return max(4, min(24, q.width/5)) }

// flagCell names the flagged fields ("1! total"), or counts them when the
// row predates the names.
func flagCell(s *store.Summary) string {
	switch {
	case s.Flagged == 0:
		return "0"
	case s.FlagNames == "":
		return fmt.Sprintf("%d!", s.Flagged)
	default:
		return fmt.Sprintf("%d! %s", s.Flagged, strings.ReplaceAll(s.FlagNames, ",", " "))
	}
}

// pad truncates or right-pads s to exactly w cells.
func pad(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// fitWidth pads or truncates a line to the full width, so reverse video
// covers the whole row.
func fitWidth(s string, w int) string {
	if w <= 0 {
		return s
	}
	return pad(s, w)
}
