package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reflect-mcp/reflect/policy"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/tui"
)

// holdsSubUsage is each subcommand's own usage line, after its name.
var holdsSubUsage = map[string]string{
	"list":    "[--status S] [--json] [--limit N] [--store FILE | --core-url URL]",
	"show":    "ID [--store FILE | --core-url URL]",
	"approve": "ID [--reason TEXT] [--reviewer NAME] [--store FILE | --core-url URL]",
	"reject":  "ID [--reason TEXT] [--reviewer NAME] [--store FILE | --core-url URL]",
}

const holdsUsage = `list [--status S] [--json] | show ID | approve ID [--reason TEXT] | reject ID [--reason TEXT]
    [--store FILE | --core-url URL] [--reviewer NAME]`

func runHolds(ctx context.Context, args []string, stdio Stdio) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := stdio.Out
		if len(args) == 0 {
			w = stdio.Err
		}
		fmt.Fprintf(w, "Usage: reflect holds %s\n\nHolds the decision engine created, on the store file or a running core.\n", holdsUsage)
		if len(args) == 0 {
			return usageErr(errors.New("holds needs list, show, approve or reject"))
		}
		return nil
	}
	sub := args[0]
	switch sub {
	case "list", "show", "approve", "reject":
	default:
		return usageErr(fmt.Errorf("unknown holds command %q (want list, show, approve or reject)", sub))
	}
	var ef engineFlags
	fs := newFlagSet("holds "+sub, holdsSubUsage[sub], stdio)
	ef.register(fs, false)
	fs.StringVar(&ef.store.reviewer, "reviewer", "", "approver recorded as human:NAME (default: the OS user)")
	coreURL := fs.String("core-url", os.Getenv("REEFLEX_CORE_URL"), "work against a running core instead of the store: the engine a gateway with REEFLEX_CORE_URL decides with (env REEFLEX_CORE_URL; a --store given wins over the env; bearer from REEFLEX_CORE_TOKEN or REEFLEX_AUTH_TOKEN)")
	status := fs.String("status", "", "list: only holds with this status (pending, approved, rejected, expired, consumed)")
	asJSON := fs.Bool("json", false, "list: print the API's JSON ({items, count}) for scripts")
	reason := fs.String("reason", "", "approve/reject: the reason recorded with the decision")
	limit := fs.Int("limit", 1000, "list: at most this many holds")
	pos, err := parseFlags(fs, args[1:], stdio)
	if err != nil {
		return helpOK(err)
	}
	wantArgs := 1
	if sub == "list" {
		wantArgs = 0
	}
	if len(pos) != wantArgs {
		return usageErr(fmt.Errorf("holds %s takes %d argument(s), got %d", sub, wantArgs, len(pos)))
	}
	switch *status {
	case "", policy.StatusPending, policy.StatusApproved, policy.StatusRejected, policy.StatusExpired, policy.StatusConsumed:
	default:
		return usageErr(fmt.Errorf("--status %q: want pending, approved, rejected, expired or consumed", *status))
	}
	var b holdsBackend
	var st *store.Store
	if *coreURL != "" && (flagWasSet(fs, "core-url") || !flagWasSet(fs, "store")) {
		c, err := newCoreClient(*coreURL)
		if err != nil {
			return err
		}
		b = &remoteHolds{c: c}
	} else {
		e, s, err := ef.engine(nil, nil)
		if err != nil {
			return err
		}
		defer e.Close()
		b, st = &localHolds{e: e, path: s.Path()}, s
	}
	return holdsDo(ctx, stdio, holdDecider{b: b, st: st}, sub, pos, *status, *limit, *asJSON, ef.store.reviewerName(), *reason)
}

// holdDecider is the one path a human's answer to a hold takes, from
// `reflect holds approve|reject` and from the workstation's y/n: the engine
// decides, then the hold's review item in its client's queue is marked, so
// an open workstation shows the call decided.
type holdDecider struct {
	b  holdsBackend
	st *store.Store // nil: reflect holds on a remote core, no queue here to mark
}

// decide reads the hold first: one decided since the asker looked
// (elsewhere) is reported as a *tui.DecidedElsewhereError naming who
// decided it, and nothing is sent; its queue item is brought up to date.
func (d holdDecider) decide(ctx context.Context, id string, approve bool, reviewer, note string) (policy.Hold, store.Summary, error) {
	var h policy.Hold
	var err error
	if _, remote := d.b.(*remoteHolds); d.st != nil && !remote {
		// A remote core refuses a decided hold itself, and a resolver
		// token may not read holds: only the store's are read first.
		if h, err = d.b.show(ctx, id); err != nil {
			return h, store.Summary{}, err
		}
		if h.Status != policy.StatusPending {
			res := resolutionOf(h)
			row, _ := d.mark(ctx, id, res) // best effort: the answer is the engine's
			return h, row, &tui.DecidedElsewhereError{HoldID: id, Status: h.Status, Resolution: res}
		}
	}
	decision := "reject"
	if approve {
		decision = "approve"
	}
	if h, err = d.b.resolve(ctx, id, decision, reviewer, note); err != nil {
		return h, store.Summary{}, err
	}
	row, err := d.mark(ctx, id, resolutionOf(h))
	if err != nil {
		return h, row, fmt.Errorf("%s %s in the engine, but its queue item was not marked: %w", id, h.Status, err)
	}
	return h, row, nil
}

// mark records the engine's decision on the hold's queue item, when the
// gateway filed one and it is not marked yet.
func (d holdDecider) mark(ctx context.Context, id string, r store.Resolution) (store.Summary, error) {
	if d.st == nil || r.Reviewer == "" {
		return store.Summary{}, nil
	}
	queue, ok, err := d.st.ToolCallQueue(ctx, id)
	if err != nil || !ok {
		return store.Summary{}, err
	}
	return d.st.ResolveToolCall(ctx, queue, id, r)
}

// resolutionOf is the engine's decision as the queue item records it.
func resolutionOf(h policy.Hold) store.Resolution {
	r := store.Resolution{Approved: h.Status == policy.StatusApproved || h.Status == policy.StatusConsumed,
		Reviewer: strings.TrimPrefix(h.DecidedBy, "human:"), Note: h.Note}
	if t, err := time.Parse(policy.TimeFormat, h.DecidedTS); err == nil {
		r.At = t
	}
	return r
}

// holdsDo runs one holds subcommand on a backend.
func holdsDo(ctx context.Context, stdio Stdio, hd holdDecider, sub string, pos []string, status string, limit int, asJSON bool, reviewer, reason string) error {
	switch sub {
	case "list":
		items, err := hd.b.list(ctx, status, limit)
		if err != nil {
			return err
		}
		if asJSON {
			out := []byte(`{"items":[`)
			for i := range items {
				if i > 0 {
					out = append(out, ',')
				}
				out = items[i].AppendJSON(out)
			}
			fmt.Fprintf(stdio.Out, "%s],\"count\":%d}\n", out, len(items))
			return nil
		}
		printHolds(stdio, items)
		return nil
	case "show":
		h, err := hd.b.show(ctx, pos[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "%s\n", h.AppendJSON(nil))
		return nil
	}
	h, _, err := hd.decide(ctx, pos[0], sub == "approve", reviewer, reason)
	var elsewhere *tui.DecidedElsewhereError
	if errors.As(err, &elsewhere) {
		return usageErr(err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "%s %s: %s by %s\n", h.ID, h.Rule, h.Status, h.DecidedBy)
	if h.Status == policy.StatusApproved {
		if w := hd.waitsOn(ctx, h.ID); w != "" {
			fmt.Fprintln(stdio.Out, w)
		}
	}
	return nil
}

// waitsOn says what an approved call still waits on: an extraction whose
// flagged value its arguments carry and no human has settled (the agent's
// retry stays held until then; new user report #15). "" when nothing, or
// when it cannot be told (a remote core's holds, no queue item).
func (d holdDecider) waitsOn(ctx context.Context, id string) string {
	if d.st == nil {
		return ""
	}
	queue, ok, err := d.st.ToolCallQueue(ctx, id)
	if err != nil || !ok {
		return ""
	}
	doc, err := d.st.Document(ctx, store.QueueCorpusID(queue), id)
	if err != nil {
		return ""
	}
	c, err := store.ParseToolCall(doc)
	if err != nil || c.Linked == nil {
		return ""
	}
	if settled, err := settledIn(d.st)(ctx, c.Linked.TraceID); err != nil || settled {
		return ""
	}
	l := c.Linked
	return fmt.Sprintf("the approval waits on extraction %s: argument %q carries %s, its field %s, flagged and not settled yet; "+
		"the agent's retry stays held until a reviewer settles it (reflect review --queue %s)", l.TraceID, l.Argument, l.Value, l.Field, queue)
}

func printHolds(stdio Stdio, items []policy.Hold) {
	if len(items) == 0 {
		fmt.Fprintln(stdio.Out, "no holds")
		return
	}
	tw := tabwriter.NewWriter(stdio.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tRULE\tSESSION\tACTION\tCOUNT\tCREATED\tEXPIRES")
	for _, h := range items {
		a, _ := h.Envelope["action"].(map[string]any)
		m, _ := h.Envelope["magnitude"].(map[string]any)
		act := fmt.Sprint(a["verb"])
		if ab, ok := a["ability"].(string); ok && ab != "" {
			act += " " + ab
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\t%s\t%s\n", h.ID, h.Status, policy.ShortName(h.Rule), h.Session(), act, m["count"], h.CreatedTS, h.ExpiresTS)
	}
	tw.Flush()
}

type holdsBackend interface {
	list(ctx context.Context, status string, limit int) ([]policy.Hold, error)
	show(ctx context.Context, id string) (policy.Hold, error)
	resolve(ctx context.Context, id, decision, reviewer, reason string) (policy.Hold, error)
}

// localHolds works on the store file: an approval made here is the
// workstation's, recorded as principal source local.
type localHolds struct {
	e    *policy.Engine
	path string // the store file, for the error a missing hold gets
}

func (l *localHolds) list(ctx context.Context, status string, limit int) ([]policy.Hold, error) {
	items, _, err := l.e.Holds(ctx, status, limit, "")
	return items, err
}

func (l *localHolds) show(ctx context.Context, id string) (policy.Hold, error) {
	h, err := l.e.Hold(ctx, id)
	if errors.Is(err, policy.ErrHoldNotFound) {
		// A gateway deciding with a remote engine files its held calls in
		// this store's queues, but the holds are the engine's.
		return h, usageErr(fmt.Errorf("no hold %s in the store %s; a gateway that decides with a remote engine keeps its holds in that engine: reflect holds approve|reject %s %s",
			id, l.path, id, coreURLHint))
	}
	return h, err
}

func (l *localHolds) resolve(ctx context.Context, id, decision, reviewer, reason string) (policy.Hold, error) {
	h, err := l.e.Resolve(ctx, id, policy.Resolution{Decision: decision, Note: reason,
		Principal: policy.Principal{Type: "human", ID: reviewer, Source: "local"}})
	var re *policy.ResolveError
	if errors.As(err, &re) {
		return h, usageErr(fmt.Errorf("%s: %s", re.Code, re.Reason))
	}
	return h, err
}

// remoteHolds uses the REST API of a running core; its resolve route
// applies the reference's approver verification.
type remoteHolds struct{ c *coreClient }

// wireHold is a hold record as the API sends it.
type wireHold struct {
	ID                string          `json:"id"`
	CreatedTS         string          `json:"created_ts"`
	ExpiresTS         string          `json:"expires_ts"`
	Envelope          policy.Envelope `json:"envelope"`
	EnvelopeHash      string          `json:"envelope_hash"`
	RuleID            string          `json:"rule_id"`
	Status            string          `json:"status"`
	DecidedBy         *string         `json:"decided_by"`
	DecidedByVerified bool            `json:"decided_by_verified"`
	PrincipalSource   *string         `json:"principal_source"`
	DecidedTS         *string         `json:"decided_ts"`
	Reason            *string         `json:"reason"`
	ConsumedTS        *string         `json:"consumed_ts"`
	DecisionID        string          `json:"decision_id"`
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (w wireHold) hold() policy.Hold {
	return policy.Hold{ID: w.ID, CreatedTS: w.CreatedTS, ExpiresTS: w.ExpiresTS, Envelope: w.Envelope, EnvelopeHash: w.EnvelopeHash,
		Rule: w.RuleID, Status: w.Status, DecidedBy: deref(w.DecidedBy), DecidedByVerified: w.DecidedByVerified,
		PrincipalSource: deref(w.PrincipalSource), DecidedTS: deref(w.DecidedTS), Note: deref(w.Reason), ConsumedTS: deref(w.ConsumedTS),
		DecisionID: w.DecisionID}
}

func decodeWire(body []byte, into any) error {
	d := json.NewDecoder(strings.NewReader(string(body)))
	d.UseNumber()
	if err := d.Decode(into); err != nil {
		return fmt.Errorf("core answered something that is not a hold: %w", err)
	}
	return nil
}

func apiError(status int, body []byte) error {
	var e struct {
		Error, Reason string
		HoldID        string `json:"hold_id"`
	}
	_ = json.Unmarshal(body, &e)
	msg := e.Error
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	if msg == "" {
		msg = strings.TrimSpace(string(body))
	}
	switch status {
	case http.StatusUnauthorized:
		msg += " (the core wants its bearer token: set REEFLEX_CORE_TOKEN, or REEFLEX_AUTH_TOKEN)"
	case http.StatusNotFound:
		if e.HoldID == "" { // no such route: this is not a core's address
			msg += " (is " + coreURLHint + " the core's address, with no path?)"
		} else {
			msg += ": this core has no hold " + e.HoldID
		}
	}
	if r := remedyOf(body); r != "" {
		msg += "; " + r
	}
	err := fmt.Errorf("core answered %d %s", status, msg)
	if status >= 400 && status < 500 {
		return usageErr(err)
	}
	return err
}

// remedyOf is what a refused approval's remedy says to do ("bind a
// resolver token to human:ana …"), joined; "" when there is none.
func remedyOf(body []byte) string {
	var e struct {
		Remedy *struct{ Actions []string } `json:"remedy"`
	}
	if json.Unmarshal(body, &e) != nil || e.Remedy == nil {
		return ""
	}
	return strings.Join(e.Remedy.Actions, "; ")
}

func (r *remoteHolds) list(ctx context.Context, status string, limit int) ([]policy.Hold, error) {
	var out []policy.Hold
	cursor := ""
	for len(out) < limit {
		q := url.Values{"limit": {fmt.Sprint(min(limit-len(out), 1000))}}
		if status != "" {
			q.Set("status", status)
		}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		st, body, err := r.c.do(ctx, "GET", "/v1/holds?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		if st != http.StatusOK {
			return nil, apiError(st, body)
		}
		var page struct {
			Items      []wireHold `json:"items"`
			NextCursor string     `json:"next_cursor"`
		}
		if err := decodeWire(body, &page); err != nil {
			return nil, err
		}
		for _, w := range page.Items {
			out = append(out, w.hold())
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	return out, nil
}

func (r *remoteHolds) show(ctx context.Context, id string) (policy.Hold, error) {
	st, body, err := r.c.do(ctx, "GET", "/v1/holds/"+url.PathEscape(id), nil)
	if err != nil {
		return policy.Hold{}, err
	}
	if st != http.StatusOK {
		return policy.Hold{}, apiError(st, body)
	}
	var w wireHold
	err = decodeWire(body, &w)
	return w.hold(), err
}

func (r *remoteHolds) resolve(ctx context.Context, id, decision, reviewer, reason string) (policy.Hold, error) {
	req := map[string]any{"decision": decision, "principal": map[string]string{"type": "human", "id": reviewer}}
	if reason != "" {
		req["reason"] = reason
	}
	st, body, err := r.c.do(ctx, "POST", "/v1/holds/"+url.PathEscape(id)+"/resolve", policy.CanonicalJSON(req))
	if err != nil {
		return policy.Hold{}, err
	}
	if st != http.StatusOK {
		return policy.Hold{}, apiError(st, body)
	}
	var w wireHold
	err = decodeWire(body, &w)
	return w.hold(), err
}
