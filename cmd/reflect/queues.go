package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/reflect-mcp/reflect/store"
)

// queueInfo is one line of `reflect queues`.
type queueInfo struct {
	Queue       string `json:"queue,omitempty"` // an MCP client's queue name; "" for a corpus file
	Corpus      string `json:"corpus"`
	Name        string `json:"name"`
	Path        string `json:"path,omitempty"`
	Documents   int    `json:"documents"`
	NeedsReview int    `json:"needs_review"`
	Reviewed    int    `json:"reviewed"`
}

func runQueues(ctx context.Context, args []string, stdio Stdio) error {
	var sf storeFlags
	fs := newFlagSet("queues", "[--json]", stdio)
	sf.register(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	st, err := sf.openExisting()
	if err != nil {
		return err
	}
	qs, err := listQueues(ctx, st)
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(qs, "", "  ")
		if err != nil {
			return fmt.Errorf("encode queues: %w", err)
		}
		fmt.Fprintln(stdio.Out, string(b))
		return nil
	}
	if len(qs) == 0 {
		fmt.Fprintln(stdio.Out, "no queues or corpora in this store yet")
		return nil
	}
	writeQueues(stdio.Out, qs)
	return nil
}

// listQueues is every corpus in the store with its counts, MCP queues first.
func listQueues(ctx context.Context, st *store.Store) ([]queueInfo, error) {
	cs, err := st.Corpora(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]queueInfo, 0, len(cs))
	for _, c := range cs {
		s, err := st.Stats(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		q, isQueue := store.QueueName(c.ID)
		if !isQueue {
			q = "" // a corpus file: named by its file, opened by its path
		}
		out = append(out, queueInfo{Queue: q, Corpus: c.ID, Name: c.Name, Path: c.Path, Documents: s.Documents,
			NeedsReview: s.NeedsReview, Reviewed: s.Reviewed})
	}
	sort.SliceStable(out, func(i, j int) bool { return (out[i].Queue != "") && (out[j].Queue == "") })
	return out, nil
}

// queueNames lists the MCP queues for an error message: "claude-ai (3
// docs), mcp (1 docs)", or says there are none.
func queueNames(qs []queueInfo) string {
	var names []string
	for _, q := range qs {
		if q.Queue != "" {
			names = append(names, fmt.Sprintf("%s (%d docs)", q.Queue, q.Documents))
		}
	}
	if len(names) == 0 {
		return "this store has no MCP queues yet; an MCP client's needs_review results appear once `reflect mcp` has served one"
	}
	return "queues in this store: " + strings.Join(names, ", ")
}

func writeQueues(w io.Writer, qs []queueInfo) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	// NAME, not QUEUE: corpus files are listed by their name, and only the
	// MCP queues open with --queue (OPEN WITH says how each opens).
	fmt.Fprintln(tw, "NAME\tDOCS\tNEEDS REVIEW\tREVIEWED\tPATH\tOPEN WITH")
	for _, q := range qs {
		name, path, open := q.Queue, "(MCP client queue)", "reflect review --queue "+q.Queue
		if name == "" {
			name, path, open = q.Name, q.Path, "reflect review "+shellQuote(q.Path)
			if _, err := os.Stat(q.Path); err != nil {
				// Moved or deleted: opening the file where it is now
				// finds this corpus by its content (golden.OpenCorpus).
				path, open = q.Path+" (not there now)", "reflect review NEW-PATH"
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", name, q.Documents, q.NeedsReview, q.Reviewed, path, open)
	}
	_ = tw.Flush()
}

// shellQuote quotes a path for a command line a user copies, when it needs it.
func shellQuote(p string) string {
	if p != "" && !strings.ContainsAny(p, " \t'\"$`\\!*?[]{}()<>|&;#~") {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
