package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
)

// The audit tab: a seeded random sample of the documents the gate
// auto-accepted, reviewed like any other, so the silent-wrong rate of what
// passed is measured rather than assumed. The sample is drawn the first time
// the tab opens (or found, when another workstation drew it), sized from the
// gate profile's budget and confidence, and recorded in the store; D draws
// as many again. The tab's second line is the estimate, re-read after every
// decision on a sampled document.

// auditState is what the queue knows of the corpus's audit.
type auditState struct {
	// loaded: the store was asked (the draws may still be none).
	loaded bool
	// busy: a draw is in flight; a second D waits for it.
	busy  bool
	ids   map[string]bool
	audit golden.Audit
	err   string
	// seq is the store's change number the shown estimate was read at:
	// reads run concurrently, and one that started earlier but arrives later
	// must not put an older estimate back.
	seq uint64
}

// AuditMsg is the corpus's audit read back from the store, after a draw
// when Drew is set.
type AuditMsg struct {
	Audit golden.Audit
	// Drew is the draw this command made (N 0: none was made); Tried says
	// it was asked to draw.
	Drew  store.AuditDraw
	Tried bool
	// Seq is the store's change number read before the audit.
	Seq uint64
	Err error
}

// auditCmd reads the audit; with draw it first draws the sample (more:
// another draw, else only when the corpus has none).
func (s *services) auditCmd(draw, more bool) tea.Cmd {
	return func() tea.Msg {
		msg := AuditMsg{Tried: draw}
		if draw {
			d, drawn, err := golden.DrawAudit(s.ctx, s.store, s.corpus.ID, s.audit, more)
			if err != nil {
				return AuditMsg{Err: err}
			}
			if drawn {
				msg.Drew = d
			}
		}
		if msg.Seq, msg.Err = s.store.ChangeSeq(s.ctx); msg.Err != nil {
			return msg
		}
		msg.Audit, msg.Err = golden.ReadAudit(s.ctx, s.store, s.corpus.ID)
		return msg
	}
}

// openAudit is the tab's first opening: draw unless a draw is known.
func (q *queuePage) openAudit() tea.Cmd {
	if q.audit.busy || len(q.audit.audit.Draws) > 0 {
		return nil
	}
	q.audit.busy = true
	return q.svc.auditCmd(true, false)
}

// drawMore is D on the audit tab.
func (q *queuePage) drawMore() tea.Cmd {
	if q.audit.busy {
		return nil
	}
	q.audit.busy = true
	return q.svc.auditCmd(true, true)
}

// applyAudit takes an AuditMsg: the sample's ids decide the tab's rows. A
// read that found no draw while the tab is open draws (the tab was opened
// while the first read was in flight).
func (q *queuePage) applyAudit(msg AuditMsg) tea.Cmd {
	q.audit.loaded, q.audit.busy = true, false
	if msg.Err != nil {
		q.audit.err = msg.Err.Error()
		return nil
	}
	q.audit.err = ""
	if msg.Seq < q.audit.seq && len(msg.Audit.Draws) <= len(q.audit.audit.Draws) {
		return nil // an older read overtaken by a newer one
	}
	q.audit.seq = msg.Seq
	q.audit.audit = msg.Audit
	ids := make(map[string]bool, msg.Audit.Sample)
	for _, d := range msg.Audit.Draws {
		for _, id := range d.IDs {
			ids[id] = true
		}
	}
	q.audit.ids = ids
	if msg.Drew.N > 1 {
		q.note = fmt.Sprintf("audit: drew %s more of %d auto-accepted not yet drawn (draw %d)", plural(len(msg.Drew.IDs), "document"), msg.Drew.Eligible, msg.Drew.N)
		if len(msg.Drew.IDs) == 0 {
			q.note = "audit: every auto-accepted document is drawn already"
		}
	}
	q.Refilter()
	if q.tab == TabAudit && !msg.Tried && len(msg.Audit.Draws) == 0 {
		return q.openAudit()
	}
	return nil
}

// followAudit re-reads the estimate when a message changed a decision on a
// sampled document: the reviewer's own, an undo, or another process's.
func (q *queuePage) followAudit(msg tea.Msg) tea.Cmd {
	hit := false
	switch msg := msg.(type) {
	case SummariesMsg:
		// The queue's first load: read a draw another session made.
		if q.audit.loaded || q.audit.busy {
			return nil
		}
		q.audit.busy = true
		return q.svc.auditCmd(false, false)
	case DecidedMsg:
		hit = msg.Err == nil && q.audit.ids[msg.DocID]
	case UndoneMsg:
		hit = msg.Err == nil && msg.Found && q.audit.ids[msg.DocID]
	case ChangesMsg:
		for _, r := range msg.Rows {
			hit = hit || q.audit.ids[r.DocID]
		}
	}
	if !hit {
		return nil
	}
	return q.svc.auditCmd(false, false)
}

// auditLine is the audit tab's second line: the estimate against the
// budget.
func (q *queuePage) auditLine() string {
	a, st := &q.audit, q.svc.styles
	switch {
	case a.err != "":
		return st.Error.Render("audit: " + a.err)
	case len(a.audit.Draws) == 0 && a.busy:
		return st.Muted.Render("audit: drawing the sample…")
	case len(a.audit.Draws) == 0:
		return st.Muted.Render("audit: not drawn yet")
	case a.audit.Sample == 0:
		return st.Muted.Render("audit: no auto-accepted document to draw yet · D draws when there are")
	}
	// One line, most telling first, so 80 columns show the verdict: read
	// and wrong, a breach, the rate and its upper bound, the budget.
	rep := a.audit.Report
	all := rep.All
	head := fmt.Sprintf("audit %d/%d read · %d/%d wrong", a.audit.Audited, a.audit.Sample, all.SilentWrong, all.N)
	tail := fmt.Sprintf("%.2f%%, upper %.2f%% · budget %.2f%%", 100*all.Rate, 100*all.Upper, 100*rep.Budget)
	if all.N == 0 {
		tail = fmt.Sprintf("budget %.2f%%", 100*rep.Budget)
	}
	var breached []string
	for _, l := range rep.Fields {
		if l.Status == "breached" {
			breached = append(breached, l.Field)
		}
	}
	if len(breached) > 0 || all.Status == "breached" {
		return st.Error.Render(head + " · BUDGET BREACHED (" + strings.Join(breached, ",") + ") · " + tail)
	}
	return st.Info.Render(head + " · " + tail + " · " + auditWord(all))
}

func auditWord(l golden.AuditLine) string {
	switch {
	case l.N == 0:
		return "nothing read"
	case l.Status == "unproven":
		return "read more"
	}
	return l.Status
}
