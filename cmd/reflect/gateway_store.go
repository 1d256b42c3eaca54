package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/reflect-mcp/reflect/gateway"
	"github.com/reflect-mcp/reflect/mcp"
	"github.com/reflect-mcp/reflect/store"
)

// storePins is gateway.PinStore on the review store.
type storePins struct{ st *store.Store }

func (p storePins) Check(ctx context.Context, upstream, tool, hash string) (gateway.PinState, error) {
	rec, first, err := p.st.Pin(ctx, upstream+gateway.Separator+tool, hash)
	switch {
	case err != nil:
		return gateway.PinChanged, err
	case first:
		return gateway.PinNew, nil
	case rec.Hash == hash:
		return gateway.PinSame, nil
	}
	return gateway.PinChanged, nil
}

func (p storePins) Accept(ctx context.Context, upstream, tool, hash string) error {
	_, err := p.st.AcceptPin(ctx, upstream+gateway.Separator+tool, hash, "")
	return err
}

// storeHolds is gateway.HoldTracker on the review store.
type storeHolds struct{ st *store.Store }

func (h storeHolds) Get(ctx context.Context, key string) (gateway.PendingHold, bool, error) {
	var p gateway.PendingHold
	v, ok, err := h.st.GatewayHold(ctx, key)
	if err != nil || !ok {
		return p, false, err
	}
	if err := json.Unmarshal(v, &p); err != nil {
		return p, false, fmt.Errorf("tracked hold %s: %w", key, err)
	}
	return p, true, nil
}

func (h storeHolds) Put(ctx context.Context, key string, p gateway.PendingHold) error {
	v, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return h.st.PutGatewayHold(ctx, key, v)
}

func (h storeHolds) Delete(ctx context.Context, key string) error {
	return h.st.DeleteGatewayHold(ctx, key)
}

// queueHold is the gateway's OnHold on the review store: each new hold
// becomes a tool_call item in the queue named for its client, the queue
// the client's extraction results go to. A failure is logged, not fatal:
// the engine has the hold, so `reflect holds` can still resolve it.
func queueHold(st *store.Store, log *slog.Logger) func(context.Context, gateway.HeldCall) {
	return func(ctx context.Context, h gateway.HeldCall) {
		c := store.ToolCall{HoldID: h.HoldID, DecisionID: h.DecisionID, Client: h.Client, SessionID: h.SessionID,
			Upstream: h.Upstream, Tool: h.Tool, Arguments: h.Arguments, Class: h.Class.Verb, Source: h.Class.Source,
			Rule: h.Rule, Reason: h.Reason, Expires: h.ExpiresTS, Budget: h.Budget}
		if l := h.Link; l != nil {
			c.Linked = &store.LinkedValue{TraceID: l.TraceID, Field: l.Field, Value: l.Value, Argument: l.Argument}
		}
		if _, _, err := st.EnqueueToolCall(ctx, mcp.QueueName(h.Client), c); err != nil {
			log.Warn("the hold is not in the review queue (reflect holds still resolves it)", "hold_id", h.HoldID, "error", err.Error())
		}
	}
}

const pinsUsage = "[accept <upstream>__<tool> | remove <upstream>__<tool>|<upstream> [--force]] [--store FILE] [--reviewer NAME]"

// runGatewayPins lists pinned tool definitions, accepts a changed one, or
// forgets pins.
func runGatewayPins(ctx context.Context, args []string, stdio Stdio) error {
	var sf storeFlags
	fs := newFlagSet("gateway pins", pinsUsage, stdio)
	sf.register(fs)
	force := fs.Bool("force", false, "remove: forget a pin whose tool's definition changed too (the gateway then pins whatever it lists next, unread)")
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if *force && (len(pos) == 0 || pos[0] != "remove") {
		return usageErr(errors.New("--force goes with remove"))
	}
	st, err := sf.open()
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		pins, err := st.Pins(ctx)
		if err != nil {
			return err
		}
		for _, p := range pins {
			state := "pinned " + p.PinnedAt.Format(time.RFC3339)
			if p.Seen != "" {
				state = "CHANGED " + p.SeenAt.Format(time.RFC3339) + ": held until accepted"
			}
			fmt.Fprintf(stdio.Out, "%-50s %s  %s\n", p.Tool, p.Hash[:12], state)
		}
		return nil
	case len(pos) == 2 && pos[0] == "accept":
		rec, err := st.AcceptPin(ctx, pos[1], "", sf.reviewerName())
		if errors.Is(err, store.ErrPinNotFound) {
			return usageErr(fmt.Errorf("no tool %q has been pinned (reflect gateway pins lists them)", pos[1]))
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "%s: definition %s accepted by %s; a running gateway uses it from the tool's next call\n",
			rec.Tool, rec.Hash[:min(12, len(rec.Hash))], sf.reviewerName())
		return nil
	case len(pos) == 2 && pos[0] == "remove":
		return removePins(ctx, stdio, st, pos[1], *force)
	}
	return usageErr(errors.New("usage: reflect gateway pins " + pinsUsage))
}

// changedPinError refuses to forget a pin whose tool changed: forgetting it
// would let the gateway pin the changed definition at its next sight,
// which is an accept nobody read.
type changedPinError struct{ tool string }

func (e changedPinError) Error() string {
	return fmt.Sprintf("%s changed since it was pinned, and forgetting its pin would let the gateway pin the new definition unread: "+
		"read it and run reflect gateway pins accept %s, or remove it with --force (nothing was removed)", e.tool, e.tool)
}

// removePins forgets the pin of one tool (<upstream>__<tool>) or of every
// tool of an upstream (its name alone), for tools or upstreams the gateway
// no longer serves.
func removePins(ctx context.Context, stdio Stdio, st *store.Store, name string, force bool) error {
	upstream := !strings.Contains(name, gateway.Separator)
	removed, err := st.RemovePins(ctx, func(p store.PinRecord) (bool, error) {
		if p.Tool != name && (!upstream || !strings.HasPrefix(p.Tool, name+gateway.Separator)) {
			return false, nil
		}
		if p.Seen != "" && !force {
			return false, changedPinError{p.Tool}
		}
		return true, nil
	})
	var changed changedPinError
	if errors.As(err, &changed) {
		return usageErr(changed)
	}
	if err != nil {
		return err
	}
	if len(removed) == 0 {
		what := fmt.Sprintf("no tool %q", name)
		if upstream {
			what = fmt.Sprintf("no tool of an upstream %q", name)
		}
		return usageErr(fmt.Errorf("%s has been pinned (reflect gateway pins lists them)", what))
	}
	for _, p := range removed {
		fmt.Fprintf(stdio.Out, "%s: pin %s removed\n", p.Tool, p.Hash[:min(12, len(p.Hash))])
	}
	fmt.Fprintln(stdio.Out, "a gateway that lists these tools again pins their definitions then, at first sight")
	return nil
}

// storeUnsettled is the guard's gateway.UnsettledSource on the review
// store: every unsettled needs_review result in the caller's queue, from
// any process, the outbox included. Each queue's list is kept and brought
// up to date from the store's change log, so a call reads only the rows
// that changed since the last one.
type storeUnsettled struct {
	st *store.Store

	mu     sync.Mutex
	queues map[string]*unsettledQueue
}

type unsettledQueue struct {
	seq  uint64
	docs map[string]store.Unsettled
}

func newStoreUnsettled(st *store.Store) *storeUnsettled {
	return &storeUnsettled{st: st, queues: map[string]*unsettledQueue{}}
}

func (s *storeUnsettled) Unsettled(ctx context.Context, client string) ([]gateway.FlaggedValue, error) {
	queue := mcp.QueueName(client)
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queues[queue]
	if q == nil {
		q = &unsettledQueue{docs: map[string]store.Unsettled{}}
		s.queues[queue] = q
	}
	open, closed, next, err := s.st.UnsettledSince(ctx, store.QueueCorpusID(queue), q.seq)
	if err != nil {
		return nil, err
	}
	for _, id := range closed {
		delete(q.docs, id)
	}
	for _, u := range open {
		q.docs[u.DocID] = u
	}
	q.seq = next
	pending, err := s.st.OutboxUnsettled(queue)
	if err != nil {
		return nil, err
	}
	var out []gateway.FlaggedValue
	add := func(u store.Unsettled) {
		for _, f := range u.Flagged {
			out = append(out, gateway.FlaggedValue{TraceID: u.TraceID, Field: f.Field, Value: f.Value})
		}
	}
	for _, u := range q.docs {
		add(u)
	}
	for _, u := range pending {
		add(u)
	}
	return out, nil
}
