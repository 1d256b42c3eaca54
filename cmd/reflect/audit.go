package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// runReviewAudit prints the review audit trail the store keeps: every
// decision and undo with who, when, before and after.
func runReviewAudit(ctx context.Context, args []string, stdio Stdio) error {
	var sf storeFlags
	fs := newFlagSet("audit", "[--corpus C] [--document ID] [--reviewer R] [--json]", stdio)
	sf.register(fs)
	corpusRef := fs.String("corpus", "", "corpus id, path or queue (mcp:NAME); default: every corpus")
	docID := fs.String("document", "", "only this document's decisions")
	// --reviewer (the store flags' own) filters here: whose decisions.
	fs.Lookup("reviewer").Usage = "only this reviewer's decisions (default: every reviewer's)"
	asJSON := fs.Bool("json", false, "print JSON lines, one entry each")
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	reviewer := &sf.reviewer
	st, err := sf.openExisting()
	if err != nil {
		return err
	}
	corpusID := ""
	if *corpusRef != "" {
		ids, err := corpusIDs(ctx, st, *corpusRef)
		if err != nil {
			return err
		}
		corpusID = ids[0]
	}
	all, err := st.Audit(ctx, corpusID)
	if err != nil {
		return err
	}
	var es []store.AuditEntry
	for _, e := range all {
		if (*docID == "" || e.DocID == *docID) && (*reviewer == "" || e.Who == *reviewer) {
			es = append(es, e)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdio.Out)
		enc.SetEscapeHTML(false)
		for _, e := range es {
			if err := enc.Encode(e); err != nil {
				return fmt.Errorf("encode audit entry: %w", err)
			}
		}
		return nil
	}
	if len(es) == 0 {
		fmt.Fprintln(stdio.Out, "no decisions match")
		return nil
	}
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WHEN\tWHO\tCORPUS\tDOCUMENT\tFIELD\tACTION\tBEFORE\tAFTER")
	for _, e := range es {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.At.UTC().Format(time.RFC3339), e.Who, e.CorpusID, e.DocID,
			e.Field, e.Action, auditValue(e.Before), auditValue(e.After))
	}
	return tw.Flush()
}

func auditValue(v any) string {
	if v == nil {
		return "null"
	}
	s := pipeline.FormatValue(v)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	return s
}
