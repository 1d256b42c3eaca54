package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/reflect-mcp/reflect/policy"
)

func runPolicy(ctx context.Context, args []string, stdio Stdio) error {
	if len(args) == 0 || args[0] != "check" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprintln(stdio.Out, "Usage: reflect policy check FILE\n\nLoads an operator policy pack and runs the examples embedded in it.")
			return nil
		}
		return usageErr(errors.New("usage: reflect policy check FILE"))
	}
	fs := newFlagSet("policy check", "FILE", stdio)
	pos, err := parseFlags(fs, args[1:], stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) != 1 {
		return usageErr(errors.New("policy check needs one pack FILE"))
	}
	p, err := loadPackFile(pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "%s: %d rules loaded\n", pos[0], len(p.Rules()))
	res := policy.RunExamples(ctx, p)
	failed := 0
	for _, r := range res {
		mark := "ok  "
		if !r.Pass {
			mark = "FAIL"
			failed++
		}
		fmt.Fprintf(stdio.Out, "%s %s (%s): %s %s", mark, r.Name, r.Source, r.Got.Decision, r.Got.Rule)
		if r.Err != nil && !errors.Is(r.Err, policy.ErrFailClosed) {
			fmt.Fprintf(stdio.Out, " error: %v", r.Err)
		}
		if !r.Pass {
			fmt.Fprintf(stdio.Out, "; want %s %s", r.Decision, r.Rule)
		}
		fmt.Fprintln(stdio.Out)
	}
	if failed > 0 {
		return &exitError{code: ExitNeedsReview, err: fmt.Errorf("%d of %d examples failed", failed, len(res)), loud: true}
	}
	switch len(res) {
	case 0:
		fmt.Fprintln(stdio.Out, "no examples to run")
	case 1:
		fmt.Fprintln(stdio.Out, "1 example passes")
	default:
		fmt.Fprintf(stdio.Out, "%d examples pass\n", len(res))
	}
	return nil
}
