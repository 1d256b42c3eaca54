package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

const trustAdvice = " Returns the result envelope: status \"ok\" means every field passed the gate and data can be used. " +
	"status \"needs_review\" means do not use data blindly: first confirm each field in flagged_fields (value, " +
	"confidence, reason) with the user; field_provenance gives character spans into the text. " +
	"status \"error\" carries error_message (bad input, a provider failure); the call never raises."

func (s *Server) addTools() {
	no := false
	review := ""
	if s.cfg.Store != nil {
		review = " A needs_review result is also queued for a human reviewer: poll review_status with its trace_id to get the corrected record."
	}
	s.sdk.AddTool(&mcpsdk.Tool{
		Name:  "extract",
		Title: "Extract and verify a record",
		Description: "Extract a typed record (by default an invoice: vendor_name, invoice_number, invoice_date, " +
			"subtotal, tax, total, currency) from messy text. A Generator model extracts, deterministic checks and a " +
			"second-model Critic score every field, and a confidence gate decides." + trustAdvice + review,
		InputSchema:  extractInputSchema(),
		OutputSchema: resultOutputSchema(),
		Annotations:  writesQueue("Extract and verify"),
	}, s.handle("extract", propNames(extractInputSchema()), true))
	s.sdk.AddTool(&mcpsdk.Tool{
		Name:  "validate",
		Title: "Verify an existing record against its source",
		Description: "Verify a record you already have (data) against the source text without re-extracting: " +
			"deterministic checks and a second-model Critic score every field, and the confidence gate decides. " +
			"Use it to check values before acting on them." + trustAdvice + review,
		InputSchema:  validateInputSchema(),
		OutputSchema: resultOutputSchema(),
		Annotations:  writesQueue("Validate against source"),
	}, s.handle("validate", propNames(validateInputSchema()), false))
	if s.cfg.Store == nil {
		return
	}
	s.sdk.AddTool(&mcpsdk.Tool{
		Name:  "review_status",
		Title: "Human review status",
		Description: "Ask whether a human has reviewed a needs_review result. status \"reviewed\" returns record, " +
			"only the fields a human confirmed or corrected (use them as-is), and unreviewed, the pipeline's values " +
			"of the fields nobody looked at (still unconfirmed); \"pending\" means the flagged fields are not " +
			"settled yet, so keep treating them as unconfirmed; \"rejected\" means a human judged the input not a " +
			"document (note says why): use none of its values; \"unknown\" means no queued result has that trace_id.",
		InputSchema:  reviewInputSchema(),
		OutputSchema: reviewOutputSchema(),
		Annotations:  &mcpsdk.ToolAnnotations{Title: "Review status", ReadOnlyHint: true, OpenWorldHint: &no},
	}, s.reviewStatus)
}

// writesQueue annotates extract and validate honestly: they are not
// read-only (a needs_review result is written to the review queue, and a
// call spends the operator's model budget), so a client must not
// auto-approve them as it may a read-only tool. They add and never
// overwrite or delete (not destructive), and a repeated call queues and
// spends again (not idempotent). They reach a model vendor (open world).
func writesQueue(title string) *mcpsdk.ToolAnnotations {
	yes, no := true, false
	return &mcpsdk.ToolAnnotations{Title: title, ReadOnlyHint: false, DestructiveHint: &no, IdempotentHint: false, OpenWorldHint: &yes}
}

// handle returns the handler of extract (generate true) or validate.
func (s *Server) handle(tool string, allowed []string, generate bool) mcpsdk.ToolHandler {
	return func(ctx context.Context, req *mcpsdk.CallToolRequest) (out *mcpsdk.CallToolResult, err error) {
		start := time.Now()
		client := s.clientName(req)
		res := s.run(ctx, tool, client, req.Params.Arguments, allowed, generate)
		// An error message may quote an argument (a schema's field name, a
		// bad value); the agent and the log get a bounded one.
		res.ErrorMessage = clip(res.ErrorMessage, 16*maxEcho)
		out, err = envelope(res)
		flagged := make([]string, len(res.FlaggedFields))
		for i, f := range res.FlaggedFields {
			flagged[i] = f.Field
		}
		s.log.Info("tool call", "tool", tool, "client", clip(client, maxEcho), "status", string(res.Status), "trace_id", res.TraceID,
			"flagged", flagged, "error", clip(res.ErrorMessage, 4*maxEcho), "duration_ms", time.Since(start).Milliseconds())
		return out, err
	}
}

// run performs one extract or validate call. Every failure, including a
// panic in a stage, becomes the error envelope.
func (s *Server) run(ctx context.Context, tool, client string, raw json.RawMessage, allowed []string, generate bool) (res pipeline.Result) {
	traceID := pipeline.NewTraceID()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("tool panicked", "tool", tool, "trace_id", traceID, "panic", fmt.Sprint(r))
			res = pipeline.ErrorResult("", traceID, fmt.Errorf("internal error: %v", r))
		}
	}()
	if s.floorErr != nil {
		return pipeline.ErrorResult("", traceID, s.floorErr)
	}
	args, err := decodeArgs(raw, allowed, s.schema)
	if err != nil {
		return pipeline.ErrorResult("", traceID, err)
	}
	if !generate && !args.HasData {
		return pipeline.ErrorResult("", traceID, fmt.Errorf("%w: data is required", pipeline.ErrInput))
	}
	// No size limit here: the built pipeline enforces the operator's
	// (--max-text-bytes), which may be above or below the default.
	if err := pipeline.CheckText(args.Text, 0); err != nil {
		return pipeline.ErrorResult("", traceID, err)
	}
	gate, notes := applyFloor(s.floor, args.Field, args.Overall)
	p, err := s.cfg.Build(ctx, BuildOptions{Schema: args.Schema, Gate: gate, HeuristicsOnly: args.HeuristicsOnly, NeedGenerator: generate})
	if err != nil {
		return pipeline.ErrorResult("", traceID, fmt.Errorf("building the pipeline: %w", err))
	}
	if p == nil {
		return pipeline.ErrorResult("", traceID, errors.New("building the pipeline: the builder returned none"))
	}
	doc := pipeline.Document{Text: args.Text, TraceID: traceID}
	if generate {
		res, err = p.Extract(ctx, doc)
	} else {
		res, err = p.Validate(ctx, doc, args.Data)
	}
	if err != nil || res.Status == pipeline.StatusError {
		if res.Status != pipeline.StatusError {
			res = pipeline.ErrorResult("", traceID, err)
		}
		return res
	}
	if len(notes) > 0 {
		res.Notes = strings.TrimSpace(strings.Join(notes, " ") + " " + res.Notes)
	}
	if res.Status == pipeline.StatusNeedsReview && s.cfg.Store != nil {
		s.enqueue(ctx, client, doc, p.Version(), &res)
	}
	return res
}

// propNames lists an input schema's properties: the arguments a handler
// accepts are exactly the ones the tool advertises.
func propNames(schema obj) []string {
	props, _ := schema["properties"].(obj)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// enqueue persists a needs_review result for `reflect review`: on disk (the
// store's outbox, fsynced) before the agent is told it is queued, committed
// to the queue right behind the answer. A store that cannot be written does
// not fail the call: the result is still right, only the review loop is
// missing, and notes says so.
func (s *Server) enqueue(ctx context.Context, client string, doc pipeline.Document, version string, res *pipeline.Result) {
	queue := queueName(client)
	corpus, err := s.cfg.Store.EnqueueDurable(ctx, queue, store.Document{Text: doc.Text}, version, *res)
	if err != nil {
		s.log.Warn("could not queue result for review", "trace_id", res.TraceID, "queue", queue, "error", err.Error())
		res.Notes = strings.TrimSpace(res.Notes + " Could not queue this result for human review: " + err.Error())
		return
	}
	s.log.Info("queued for review", "trace_id", res.TraceID, "corpus", corpus)
	res.Notes = strings.TrimSpace(res.Notes + fmt.Sprintf(" Queued for human review (queue %q): call review_status with this trace_id for the settled record.", queue))
}

// envelope turns a result into the tool result: the same JSON as text and as
// structured content; isError for the error envelope.
func envelope(res pipeline.Result) (*mcpsdk.CallToolResult, error) {
	b, err := json.Marshal(res)
	if err != nil {
		// A result that cannot be marshalled (a NaN from a stage) still
		// answers with an envelope.
		b, _ = json.Marshal(pipeline.ErrorResult("", res.TraceID, fmt.Errorf("encoding the result: %w", err)))
		res.Status = pipeline.StatusError
	}
	return &mcpsdk.CallToolResult{
		Content:           []mcpsdk.Content{&mcpsdk.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
		IsError:           res.Status == pipeline.StatusError,
	}, nil
}

// reviewStatus answers review_status(trace_id).
func (s *Server) reviewStatus(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
	out := s.lookupReview(ctx, req.Params.Arguments)
	b, err := json.Marshal(out)
	if err != nil {
		out = reviewAnswer{TraceID: out.TraceID, Status: "error", ErrorMessage: "encoding the answer: " + err.Error()}
		b, _ = json.Marshal(out)
	}
	s.log.Info("tool call", "tool", "review_status", "client", clip(s.clientName(req), maxEcho), "trace_id", clip(out.TraceID, maxEcho), "status", out.Status)
	return &mcpsdk.CallToolResult{
		Content:           []mcpsdk.Content{&mcpsdk.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
		IsError:           out.Status == "error",
	}, nil
}

// maxTraceID is far above any trace id reflect makes (trace- and 32 hex
// digits) and far below what would hurt a log line.
const maxTraceID = 256

// reviewAnswer's Record holds only the fields a human decided; Unreviewed the
// pipeline's value of every other field, never presented as confirmed. Note
// is the reviewer's note of a document-level verdict: why it was rejected
// (status "rejected", no record) or set aside (still "pending").
type reviewAnswer struct {
	TraceID      string          `json:"trace_id"`
	Status       string          `json:"status"`
	Queue        string          `json:"queue,omitempty"`
	Record       pipeline.Record `json:"record,omitempty"`
	Unreviewed   pipeline.Record `json:"unreviewed,omitempty"`
	Reviewer     string          `json:"reviewer,omitempty"`
	ReviewedAt   string          `json:"reviewed_at,omitempty"`
	Note         string          `json:"note,omitempty"`
	ErrorMessage string          `json:"error_message,omitempty"`
}

func (s *Server) lookupReview(ctx context.Context, raw json.RawMessage) reviewAnswer {
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return reviewAnswer{Status: "error", ErrorMessage: "arguments must be a JSON object with trace_id"}
	}
	for k := range args {
		if k != "trace_id" {
			return reviewAnswer{Status: "error", ErrorMessage: fmt.Sprintf("unknown argument %q (this tool takes: trace_id)", clip(k, maxEcho))}
		}
	}
	var id string
	if v, ok := args["trace_id"]; ok {
		if err := json.Unmarshal(v, &id); err != nil {
			return reviewAnswer{Status: "error", ErrorMessage: "trace_id must be a string"}
		}
	}
	id = strings.TrimSpace(id)
	if id == "" {
		return reviewAnswer{Status: "error", ErrorMessage: "trace_id is required"}
	}
	if len(id) > maxTraceID {
		// Not echoed whole: the answer and the log would carry it.
		return reviewAnswer{TraceID: clip(id, maxEcho), Status: "error",
			ErrorMessage: fmt.Sprintf("trace_id is %d bytes; a trace_id is at most %d (copy it from a result)", len(id), maxTraceID)}
	}
	ans := reviewAnswer{TraceID: id, Status: "unknown"}
	fail := func(err error) reviewAnswer {
		return reviewAnswer{TraceID: id, Status: "error", ErrorMessage: err.Error()}
	}
	corpusID, docID, ok, err := s.cfg.Store.FindTrace(ctx, id)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return ans
	}
	ans.Queue, _ = store.QueueName(corpusID)
	if docID != "" {
		v, ok, err := s.cfg.Store.Verdict(ctx, corpusID, docID)
		if err != nil {
			return fail(err)
		}
		if ok && v.Action == store.ActionReject {
			// Not a document: no field of it is confirmed, so no record.
			ans.Status, ans.Note, ans.Reviewer = "rejected", v.Note, v.Reviewer
			ans.ReviewedAt = v.Decision.At.UTC().Format(time.RFC3339)
			return ans
		}
		if ok {
			ans.Note = v.Note
		}
	}
	rec, reviewed, err := s.cfg.Store.Settled(ctx, corpusID, docID)
	if err != nil {
		return fail(err)
	}
	if !reviewed {
		ans.Status = "pending"
		return ans
	}
	decs, err := s.cfg.Store.Decisions(ctx, corpusID, docID)
	if err != nil {
		return fail(err)
	}
	var last store.Decision
	for _, d := range decs {
		if d.At.After(last.At) {
			last = d
		}
	}
	confirmed, unreviewed := pipeline.Record{}, pipeline.Record{}
	for f, v := range rec {
		if _, decided := decs[f]; decided {
			confirmed[f] = v
		} else {
			unreviewed[f] = v
		}
	}
	ans.Status, ans.Record, ans.Unreviewed, ans.Reviewer = "reviewed", confirmed, unreviewed, last.Reviewer
	if !last.At.IsZero() {
		ans.ReviewedAt = last.At.UTC().Format(time.RFC3339)
	}
	return ans
}

// clientName is the caller: behind the gateway the client it names (so a
// needs_review result lands in the queue the gateway's guard and holds use
// for that client, not in one queue named for the gateway).
func (s *Server) clientName(req *mcpsdk.CallToolRequest) string {
	if s.cfg.BehindGateway {
		if name, ok := req.Params.GetMeta()[MetaGatewayClient].(string); ok && name != "" {
			return name
		}
	}
	return clientName(req)
}

func clientName(req *mcpsdk.CallToolRequest) string {
	if info := req.ClientInfo(); info != nil {
		return info.Name
	}
	return ""
}

// QueueName is the review queue a client's items go to; the gateway files
// its holds there too, so a client's answers and actions are one queue.
func QueueName(client string) string { return queueName(client) }

// queueName turns a client's self-reported name into a review queue name a
// reviewer can type: lower case letters, digits, '.', '_' and '-'.
func queueName(client string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(client) {
		ok := (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' || r == '_' || r == '-'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 64 {
			break
		}
	}
	q := strings.Trim(b.String(), "-.")
	if q == "" {
		return "mcp"
	}
	return q
}
