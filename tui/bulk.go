package tui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Bulk accept (B on the queue): every undecided field at or above a
// confidence, in the documents the queue shows (tab and filter applied). The
// reviewer types the threshold, sees how many fields in how many documents it
// settles, and confirms; each document is one Decide call, so one u in that
// document takes its part back.

type bulkStage int

const (
	bulkThreshold bulkStage = iota // typing the confidence
	bulkCounting                   // reading results to count
	bulkConfirm                    // y/n on the count
	bulkSaving                     // writing the decisions
)

// defaultBulkThreshold is the confidence offered first: high enough that
// what it accepts is what the pipeline is surest of.
const defaultBulkThreshold = "0.90"

type bulkState struct {
	stage     bulkStage
	input     textinput.Model
	err       string
	threshold float64
	audit     int // audit-sample documents left out
	plan      []bulkDoc
	fields    int
	scanned   int
}

// bulkDoc is one document's share of a bulk accept.
type bulkDoc struct {
	DocID     string
	Decisions []store.Decision
}

// bulkPlanMsg is what a bulk accept would decide.
type bulkPlanMsg struct {
	Plan    []bulkDoc
	Fields  int
	Scanned int
	// Audit counts documents of the audit sample left out.
	Audit int
	Err   error
}

// bulkSavedMsg reports the written bulk accept: the queue rows the store
// rewrote, and how far it got when a write failed.
type bulkSavedMsg struct {
	Rows   []store.Summary
	Fields int
	Docs   int
	Err    error
}

// planBulk reads each document's result and decisions and lists the
// undecided fields whose confidence is at least t. It reads, never writes,
// so cancelling the confirmation leaves nothing behind.
func planBulk(ctx context.Context, s *store.Store, corpusID, reviewer string, ids []string, t float64) bulkPlanMsg {
	var msg bulkPlanMsg
	now := time.Now().UTC()
	// An audit must be read: documents of the sample are left for one-by-one
	// review, whichever workstation drew it.
	draws, err := s.AuditDraws(ctx, corpusID)
	if err != nil {
		msg.Err = fmt.Errorf("bulk accept: %w", err)
		return msg
	}
	sample := store.AuditSampleIDs(draws)
	for _, id := range ids {
		if sample[id] {
			msg.Audit++
			continue
		}
		res, ok, err := s.Result(ctx, corpusID, id)
		if err != nil {
			msg.Err = fmt.Errorf("bulk accept: %s: %w", id, err)
			return msg
		}
		msg.Scanned++
		if !ok || res.Status == pipeline.StatusError {
			continue
		}
		if _, judged, err := s.Verdict(ctx, corpusID, id); err != nil {
			msg.Err = fmt.Errorf("bulk accept: %s: %w", id, err)
			return msg
		} else if judged {
			// Rejected (not a document) or set aside with a note: someone
			// decided it needs no field accepted in bulk.
			continue
		}
		decs, err := s.Decisions(ctx, corpusID, id)
		if err != nil {
			msg.Err = fmt.Errorf("bulk accept: %s: %w", id, err)
			return msg
		}
		var ds []store.Decision
		for _, f := range resultFields(&res) {
			if _, done := decs[f]; done {
				continue
			}
			c, ok := res.FieldConfidence[f]
			if !ok || c < t {
				continue
			}
			ds = append(ds, store.Decision{
				CorpusID: corpusID, DocID: id, Field: f, Action: store.ActionAccept,
				Value: res.Data[f], Original: res.Data[f], Reviewer: reviewer, At: now,
			})
		}
		if len(ds) > 0 {
			msg.Plan = append(msg.Plan, bulkDoc{DocID: id, Decisions: ds})
			msg.Fields += len(ds)
		}
	}
	return msg
}

// resultFields is the result's fields in schema order when it has one, so
// the audit trail reads in the order the document page shows.
func resultFields(r *pipeline.Result) []string {
	if len(r.FieldOrder) > 0 {
		return r.FieldOrder
	}
	out := make([]string, 0, len(r.Data))
	for f := range r.Data {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// saveBulk writes one Decide per document: one undo group each.
func saveBulk(ctx context.Context, s *store.Store, plan []bulkDoc) bulkSavedMsg {
	var msg bulkSavedMsg
	for _, p := range plan {
		rows, err := s.Decide(ctx, p.Decisions...)
		if err != nil {
			msg.Err = fmt.Errorf("bulk accept: %s: %w", p.DocID, err)
			return msg
		}
		msg.Rows = append(msg.Rows, rows...)
		msg.Fields += len(p.Decisions)
		msg.Docs++
	}
	return msg
}

func (q *queuePage) startBulk() {
	ti := newTextInput(q.svc.styles, "bulk accept fields with confidence ≥ ", "0.00–1.00")
	ti.SetValue(defaultBulkThreshold)
	setInputWidth(&ti, max(10, q.width-4))
	ti.Focus()
	q.bulk = &bulkState{input: ti}
	q.note = ""
}

func (q *queuePage) viewIDs() []string {
	ids := make([]string, len(q.view))
	for i, r := range q.view {
		ids[i] = q.rows[r].DocID
	}
	return ids
}

// updateBulk runs the bulk accept's modal: every key and its two replies
// come here until it closes.
func (q *queuePage) updateBulk(msg tea.Msg) tea.Cmd {
	b := q.bulk
	km := q.svc.keys
	switch msg := msg.(type) {
	case bulkPlanMsg:
		if b.stage != bulkCounting {
			return nil
		}
		switch {
		case msg.Err != nil:
			q.bulk, q.note = nil, msg.Err.Error()
		case msg.Fields == 0:
			q.bulk = nil
			q.note = fmt.Sprintf("bulk accept: no undecided field at confidence ≥ %.2f in the %d documents shown", b.threshold, msg.Scanned)
			if msg.Audit > 0 {
				q.note += fmt.Sprintf(" (%s of the audit sample left to read one by one)", plural(msg.Audit, "document"))
			}
		default:
			b.stage, b.plan, b.fields, b.scanned, b.audit = bulkConfirm, msg.Plan, msg.Fields, msg.Scanned, msg.Audit
		}
		return nil
	case bulkSavedMsg:
		for _, r := range msg.Rows {
			q.Upsert(r)
		}
		q.Resort()
		q.bulk = nil
		q.note = fmt.Sprintf("bulk accept: %s accepted in %s (u in a document undoes its part)", plural(msg.Fields, "field"), plural(msg.Docs, "document"))
		if b.audit > 0 {
			q.note = fmt.Sprintf("bulk: %s accepted in %d docs; %d audit docs left to read one by one",
				plural(msg.Fields, "field"), msg.Docs, b.audit)
		}
		if msg.Err != nil {
			q.note = fmt.Sprintf("bulk accept stopped after %s in %s: %v", plural(msg.Fields, "field"), plural(msg.Docs, "document"), msg.Err)
		}
		return nil
	case tea.KeyPressMsg:
		switch b.stage {
		case bulkThreshold:
			switch {
			case key.Matches(msg, km.Cancel):
				q.bulk = nil
				return nil
			case key.Matches(msg, km.Submit):
				t, err := parseThreshold(b.input.Value())
				if err != nil {
					b.err = err.Error()
					return nil
				}
				b.threshold, b.stage, b.err = t, bulkCounting, ""
				svc, ids := q.svc, q.viewIDs()
				return func() tea.Msg { return planBulk(svc.ctx, svc.store, svc.corpus.ID, svc.reviewer, ids, t) }
			}
			b.err = ""
			_, cmd := updateInput(&b.input, msg)
			return cmd
		case bulkConfirm:
			switch {
			case key.Matches(msg, km.Confirm):
				b.stage = bulkSaving
				svc, plan := q.svc, b.plan
				return func() tea.Msg { return saveBulk(svc.ctx, svc.store, plan) }
			case key.Matches(msg, km.Deny):
				q.bulk = nil
				q.note = "bulk accept cancelled: nothing written"
			}
		}
	}
	return nil
}

func parseThreshold(s string) (float64, error) {
	t, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || t < 0 || t > 1 {
		return 0, fmt.Errorf("a confidence is a number from 0 to 1, not %q", s)
	}
	return t, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// bulkLine is the queue's second line while the bulk accept is open.
func (q *queuePage) bulkLine() string {
	b, st := q.bulk, q.svc.styles
	switch b.stage {
	case bulkThreshold:
		if b.err != "" {
			return st.Error.Render(b.err)
		}
		return b.input.View()
	case bulkCounting:
		return st.Info.Render(fmt.Sprintf("counting fields at confidence ≥ %.2f in %d documents…", b.threshold, len(q.view)))
	case bulkConfirm:
		return st.Info.Render(fmt.Sprintf("accept %s in %s at confidence ≥ %.2f? y/n",
			plural(b.fields, "field"), plural(len(b.plan), "document"), b.threshold))
	default:
		return st.Info.Render(fmt.Sprintf("saving %s…", plural(b.fields, "field")))
	}
}

func (q *queuePage) bulkHelp() []key.Binding {
	km := q.svc.keys
	switch q.bulk.stage {
	case bulkThreshold:
		return []key.Binding{km.Submit, km.Cancel}
	case bulkConfirm:
		return []key.Binding{km.Confirm, km.Deny}
	default:
		return nil
	}
}
