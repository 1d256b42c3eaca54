// Package mcp serves reflect's pipeline as a headless MCP server: the tools
// extract, validate and review_status over stdio or streamable HTTP. It is the
// only package that imports the MCP SDK.
//
// Tool results are the pipeline's JSON envelope, sent both as text content and
// as structured content. A failed call is never a protocol error: it returns
// the envelope {"status":"error","error_message":...} with isError set to true,
// so an agent that ignores the JSON still sees the call failed.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// BuildOptions says what pipeline one tool call needs.
type BuildOptions struct {
	Schema *pipeline.Schema
	Gate   pipeline.GateConfig
	// HeuristicsOnly skips the Critic.
	HeuristicsOnly bool
	// NeedGenerator is false for validate: with HeuristicsOnly too, the
	// Builder must build no provider client at all, so no key is needed.
	NeedGenerator bool
}

// Builder builds the pipeline for one call. The CLI's builds on shared provider
// clients, so calling it per request is cheap.
type Builder func(ctx context.Context, o BuildOptions) (*pipeline.Pipeline, error)

// Config configures a Server.
type Config struct {
	Build Builder
	// Store receives every needs_review result so a human can settle it with
	// `reflect review --queue <client>`; nil disables the review loop and the
	// review_status tool.
	Store *store.Store
	// Logger gets one line per call. nil logs JSON to stderr: on stdio,
	// stdout is the protocol and must carry nothing else.
	Logger  *slog.Logger
	Version string
	// Getenv reads the operator's threshold floor (os.Getenv in production).
	Getenv func(string) string
	// Schema is used when a call names none; nil means the built-in invoice.
	Schema *pipeline.Schema
	// HTTP bounds what streamable HTTP clients can hold (ignored on stdio).
	HTTP HTTPOptions
	// BehindGateway says the server is the gateway's in-process upstream:
	// its one client is the gateway, which names the real client in
	// _meta[MetaGatewayClient]. Only then is that key believed; any other
	// client could use it to file results in another client's queue.
	BehindGateway bool
}

// _meta keys the gateway sets on its calls to the built-in upstream.
const (
	MetaGatewayClient  = "reflect.dev/gateway-client"
	MetaGatewaySession = "reflect.dev/gateway-session"
)

// Server is reflect's MCP server.
type Server struct {
	cfg    Config
	log    *slog.Logger
	sdk    *mcpsdk.Server
	floor  pipeline.GateConfig
	schema *pipeline.Schema
	// floorErr is set when the operator's floor is malformed. It fails every
	// call rather than the server's start, so the client can show the reason.
	floorErr error
}

// Environment variables holding the operator's threshold floor.
const (
	EnvFieldThreshold   = "REFLECT_FIELD_THRESHOLD"
	EnvOverallThreshold = "REFLECT_OVERALL_THRESHOLD"
)

// NewServer returns a server with its tools registered.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Build == nil {
		return nil, errors.New("mcp: Config.Build is required")
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	s := &Server{cfg: cfg, log: log, schema: cfg.Schema}
	if s.schema == nil {
		s.schema = pipeline.Invoice()
	}
	s.floor, s.floorErr = readFloor(cfg.Getenv)
	if s.floorErr != nil {
		log.Error("threshold floor is malformed: every call will fail", "error", s.floorErr.Error())
	}
	s.sdk = mcpsdk.NewServer(&mcpsdk.Implementation{Name: "reflect", Title: "reflect", Version: version},
		&mcpsdk.ServerOptions{
			Instructions: instructions(cfg.Store != nil),
			// The SDK logs protocol trouble; ours go to the same place.
			Logger:       log,
			Capabilities: &mcpsdk.ServerCapabilities{Tools: &mcpsdk.ToolCapabilities{}},
		})
	// Every error response carries a JSON-RPC code, whatever the transport.
	s.sdk.AddReceivingMiddleware(func(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
		return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil {
				err = codedError(err)
			}
			return res, err
		}
	})
	s.addTools()
	return s, nil
}

// SDK is the underlying SDK server, for transports and tests.
func (s *Server) SDK() *mcpsdk.Server { return s.sdk }

// Floor is the operator's threshold floor, or the error that makes every call
// fail.
func (s *Server) Floor() (pipeline.GateConfig, error) { return s.floor, s.floorErr }

// ServeStdio serves one client on stdin/stdout until it disconnects or ctx ends.
func (s *Server) ServeStdio(ctx context.Context) error {
	s.log.Info("serving MCP on stdio", "store", s.storePath())
	return s.ServeIO(ctx, os.Stdin, os.Stdout)
}

// ServeIO serves one client speaking newline-delimited JSON-RPC on r and w
// (stdin and stdout for ServeStdio) until r ends or ctx does.
func (s *Server) ServeIO(ctx context.Context, r io.ReadCloser, w io.Writer) error {
	err := s.sdk.Run(ctx, &lineTransport{r: r, w: w, log: s.log})
	if errors.Is(err, io.EOF) {
		err = nil
	}
	if err != nil && ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mcp stdio: %w", err)
	}
	return nil
}

func (s *Server) storePath() string {
	if s.cfg.Store == nil {
		return ""
	}
	return s.cfg.Store.Path()
}

func instructions(review bool) string {
	msg := "reflect extracts typed records (default: invoices) from messy text and checks every field. " +
		"Use extract to pull fields from text, validate to check data you already have against the text. " +
		"Trust a result's data only when status is \"ok\". When status is \"needs_review\", do not use data " +
		"blindly: confirm each field in flagged_fields (its value, confidence and reason) with the user first; " +
		"field_provenance gives character spans into the source. status \"error\" carries error_message."
	if review {
		msg += " needs_review results are also queued for a human reviewer; review_status(trace_id) says " +
			"whether they have settled it and returns the corrected record."
	}
	return msg
}
