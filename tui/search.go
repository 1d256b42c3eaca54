package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// The queue's rows hold only an id and a first line, so typing filters on
// those at once; enter then searches each document's full text, extracted
// values and flag reasons in the background and adds what it finds. A
// queue row stays small that way (100,000 of them are loaded at start).

// deepMatchMsg is a background search's outcome for one query.
type deepMatchMsg struct {
	Needle string
	IDs    []string
	Err    error
}

// deepSearch reports which of ids match needle (lower-cased) in their text,
// values or reasons.
func deepSearch(ctx context.Context, s *store.Store, corpusID string, ids []string, needle string) deepMatchMsg {
	msg := deepMatchMsg{Needle: needle}
	for _, id := range ids {
		if ctx.Err() != nil {
			msg.Err = ctx.Err()
			return msg
		}
		doc, err := s.Document(ctx, corpusID, id)
		if err != nil {
			msg.Err = fmt.Errorf("search: %s: %w", id, err)
			return msg
		}
		if strings.Contains(strings.ToLower(doc.Text), needle) {
			msg.IDs = append(msg.IDs, id)
			continue
		}
		res, ok, err := s.Result(ctx, corpusID, id)
		if err != nil {
			msg.Err = fmt.Errorf("search: %s: %w", id, err)
			return msg
		}
		if ok && resultMatches(&res, needle) {
			msg.IDs = append(msg.IDs, id)
		}
	}
	return msg
}

func resultMatches(r *pipeline.Result, needle string) bool {
	for _, v := range r.Data {
		if v != nil && strings.Contains(strings.ToLower(pipeline.FormatValue(v)), needle) {
			return true
		}
	}
	for _, f := range r.FlaggedFields {
		if strings.Contains(strings.ToLower(f.Reason), needle) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(r.ErrorMessage), needle) ||
		strings.Contains(strings.ToLower(r.Notes), needle)
}

// startDeepSearch searches the rows the quick match left out.
func (q *queuePage) startDeepSearch() tea.Cmd {
	needle := q.needle()
	if needle == "" || q.svc.store == nil {
		return nil
	}
	if q.hay == nil {
		q.match(nil, needle) // builds the haystacks
	}
	var ids []string
	for i := range q.rows {
		if !strings.Contains(q.hay[i], needle) {
			ids = append(ids, q.rows[i].DocID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	q.searching = needle
	svc := q.svc
	return func() tea.Msg { return deepSearch(svc.ctx, svc.store, svc.corpus.ID, ids, needle) }
}

// applyDeep adds a background search's matches when it is still the query.
func (q *queuePage) applyDeep(msg deepMatchMsg) {
	if msg.Needle != q.needle() {
		return
	}
	q.searching = ""
	if msg.Err != nil {
		q.note = msg.Err.Error()
		return
	}
	q.deep = make(map[string]bool, len(msg.IDs))
	for _, id := range msg.IDs {
		q.deep[id] = true
	}
	q.deepFor = msg.Needle
	q.Refilter()
}
