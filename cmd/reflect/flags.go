package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/store"
)

// openForWrite opens the store for a verb that will write into it (review,
// extract/validate --save): a file that fails bbolt's consistency check is
// refused before anything is written into it, where it could be lost with
// the rest. The full check costs about 0.5 s on a 100k-document store
// (BenchmarkStoreCheck100k); every writing verb opens its store once, so it
// is paid once per process, at start.
func (s *storeFlags) openForWrite(ctx context.Context) (*store.Store, error) {
	st, err := s.open()
	if err != nil {
		return nil, err
	}
	if err := st.CheckWritable(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

// pipelineFlags are the flags every verb that runs the pipeline shares.
type pipelineFlags struct {
	schema string
	// prov is the provider setup: environment first, then its flags
	// (--provider, --generator-model, --critic-model, --critic-provider,
	// --openai-base-url, --openai-response-format, --timeout, --max-retries,
	// --prices).
	prov             providers.Config
	heuristicsOnly   bool
	fieldThreshold   float64
	overallThreshold float64
	gateFile         string // --gate / REFLECT_GATE: a calibrated gate profile
	logLevel         string
	replay           string
	record           string
	cache            string
	noCache          bool
	maxTextBytes     int
	retries          int
	maxTokensPerDoc  int
	maxCost          float64
	// concurrency is how many documents the verb runs at once (its own
	// flag: --batch-concurrency, --concurrency); it sizes the run's HTTP
	// connection pool so no call waits for, or dials past, a pooled
	// connection. 0: providers.MinIdleConnsPerHost.
	concurrency int
}

func (p *pipelineFlags) register(fs *flag.FlagSet) {
	g := pipeline.DefaultGate()
	fs.StringVar(&p.schema, "schema", "invoice", "schema: a built-in name (invoice) or a YAML/JSON schema file")
	p.prov = providers.ConfigFromEnv(os.Getenv)
	p.prov.RegisterFlags(fs)
	fs.BoolVar(&p.heuristicsOnly, "heuristics-only", false, "skip the Critic model call; verify with deterministic checks only")
	fs.Float64Var(&p.fieldThreshold, "field-threshold", g.FieldThreshold, "flag a field whose confidence is below this, in [0,1]")
	fs.Float64Var(&p.overallThreshold, "overall-threshold", g.OverallThreshold, "needs_review when overall confidence is below this, in [0,1]")
	fs.StringVar(&p.gateFile, "gate", os.Getenv("REFLECT_GATE"), "gate profile FILE from reflect calibrate: measured per-field/kind/evidence thresholds replace --field-threshold (env REFLECT_GATE)")
	fs.StringVar(&p.logLevel, "log-level", "info", "structured log level on stderr: debug, info, warn, error")
	fs.StringVar(&p.replay, "replay", "", "with --provider replay: recorded fixture file (default: the bundled golden fixtures)")
	fs.StringVar(&p.record, "record", "", "write every model reply of this run to a replay fixture FILE")
	fs.StringVar(&p.cache, "cache", "", "model-call cache file (default under the user cache dir; env REFLECT_CACHE)")
	fs.BoolVar(&p.noCache, "no-cache", false, "do not read or write the model-call cache")
	fs.IntVar(&p.maxTextBytes, "max-text-bytes", pipeline.DefaultMaxTextBytes, "reject a document larger than this many bytes")
	fs.IntVar(&p.retries, "retries", 2, "re-ask a model this many times when its reply cannot be parsed")
	fs.IntVar(&p.maxTokensPerDoc, "max-tokens-per-doc", 0, "fail a document whose model calls would use more tokens than this (0: no limit)")
	fs.Float64Var(&p.maxCost, "max-cost", 0, "stop spending once the run has cost this many USD (0: no limit)")
}

func (p *pipelineFlags) gate() (pipeline.GateConfig, error) {
	g := pipeline.GateConfig{FieldThreshold: p.fieldThreshold, OverallThreshold: p.overallThreshold}
	if err := loadGateProfile(&g, p.gateFile); err != nil {
		return g, err
	}
	if err := g.Validate(); err != nil {
		return g, usageErr(fmt.Errorf("--field-threshold/--overall-threshold: %w", err))
	}
	return g, nil
}

// setPipelineFlag names a pipeline flag given on fs's command line, if any
// ("" when none), for verbs where a mode runs no pipeline.
func setPipelineFlag(fs *flag.FlagSet) string {
	var names pipelineFlags
	all := flag.NewFlagSet("", flag.ContinueOnError)
	names.register(all)
	set := ""
	fs.Visit(func(f *flag.Flag) {
		// --schema still matters: corrections are checked against its kinds.
		if set == "" && all.Lookup(f.Name) != nil && f.Name != "log-level" && f.Name != "schema" {
			set = f.Name
		}
	})
	return set
}
