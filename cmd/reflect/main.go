// Command reflect extracts typed records from messy text and verifies every
// field before anyone relies on it. See README.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C gets the default behaviour: exit now
	}()
	err := Run(ctx, os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	if msg := errorMessage(err); msg != "" {
		fmt.Fprintln(os.Stderr, "reflect:", msg)
	}
	os.Exit(ExitCode(err))
}
