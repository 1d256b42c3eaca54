package main

import (
	"context"
	"errors"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Exit codes, set here once. Every verb returns an error; main maps it.
const (
	ExitOK          = 0   // every document ok
	ExitNeedsReview = 1   // at least one document needs review (and none failed)
	ExitUsage       = 2   // bad flags, bad input, bad schema or dataset
	ExitPipeline    = 3   // a model call, parse or pipeline build failed; a batch line failed (malformed, duplicate id)
	ExitInterrupted = 130 // stopped by Ctrl-C / SIGTERM
)

// errNeedsReview is returned when the verb worked and a human must look.
var errNeedsReview = errors.New("needs review")

// exitError carries an exit code for an error already reported (e.g. as a JSON
// envelope on stdout): main prints nothing more for it unless loud is set.
type exitError struct {
	code int
	err  error
	loud bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(err error) error { return &exitError{code: ExitUsage, err: err, loud: true} }

// ExitCode maps an error from Run to the process exit code.
func ExitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, errNeedsReview):
		return ExitNeedsReview
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, pipeline.ErrInput):
		return ExitUsage
	}
	return ExitPipeline
}

// errorMessage is what main prints to stderr for err ("" for nothing).
func errorMessage(err error) string {
	var ee *exitError
	switch {
	case err == nil, errors.Is(err, errNeedsReview):
		return ""
	case errors.As(err, &ee) && !ee.loud:
		return ""
	case errors.Is(err, context.Canceled):
		return "interrupted"
	}
	return err.Error()
}

// codeFor maps one result to the exit code it deserves.
func codeFor(status pipeline.Status, err error) int {
	switch {
	case err != nil && errors.Is(err, pipeline.ErrInput):
		return ExitUsage
	case err != nil || status == pipeline.StatusError:
		return ExitPipeline
	case status == pipeline.StatusNeedsReview:
		return ExitNeedsReview
	}
	return ExitOK
}

// severity orders codes for "a batch exits with its worst line".
func severity(code int) int {
	switch code {
	case ExitPipeline, ExitUsage:
		return 3
	case ExitNeedsReview:
		return 1
	}
	return 0
}

// resultErr turns a final code into Run's error (nil for ok).
func resultErr(code int, cause error) error {
	switch code {
	case ExitOK:
		return nil
	case ExitNeedsReview:
		return errNeedsReview
	}
	if cause == nil {
		cause = errors.New("failed")
	}
	return &exitError{code: code, err: cause}
}
