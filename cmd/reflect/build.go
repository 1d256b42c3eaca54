package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/llm"
	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/providers/local"
)

// runEnv is a built pipeline and the resources behind it.
type runEnv struct {
	p    *pipeline.Pipeline
	base pipeline.Config // what p was built from; pipelineFor varies schema and gate
	*runRes
}

// runRes is what every pipeline of one run shares: the run's client stack
// (one cache handle, one budget, one replay fixture) and one recorder
// (--record writes every reply of the run to one fixture).
type runRes struct {
	cache    *providers.Cache
	recorder *providers.Recorder
	record   string
	budget   *providers.Budget
	stack    *providers.Stack
}

// finish writes what a run must leave behind (the recorded fixture).
func (r *runRes) finish() error {
	if r.recorder != nil {
		if err := r.recorder.Save(r.record); err != nil {
			return fmt.Errorf("--record: %w", err)
		}
	}
	return nil
}

// Close releases the cache.
func (r *runRes) Close() {
	if r.cache != nil {
		_ = r.cache.Close()
	}
}

// validate checks the flags that buildEnv would otherwise only trip over
// later, or silently bend (a negative --retries, a NaN --max-cost).
func (pf *pipelineFlags) validate() error {
	if _, err := pf.gate(); err != nil {
		return err
	}
	for _, p := range []string{pf.prov.Provider, pf.prov.CriticProvider} {
		switch p {
		case "", providers.ProviderLocal, providers.ProviderReplay, providers.ProviderOpenAI, providers.ProviderAnthropic, providers.ProviderBedrock:
		default:
			return usageErr(fmt.Errorf("unknown provider %q: want local, replay, openai, anthropic or bedrock", p))
		}
	}
	if err := pf.prov.Validate(); err != nil {
		return usageErr(err)
	}
	switch {
	case pf.maxTextBytes < 1:
		return usageErr(fmt.Errorf("--max-text-bytes must be at least 1, got %d", pf.maxTextBytes))
	case pf.retries < 0:
		return usageErr(fmt.Errorf("--retries must be >= 0, got %d", pf.retries))
	case pf.maxTokensPerDoc < 0 || !(pf.maxCost >= 0) || math.IsInf(pf.maxCost, 0):
		return usageErr(errors.New("--max-tokens-per-doc and --max-cost must be finite and >= 0"))
	}
	return nil
}

// buildEnv assembles the pipeline the flags and environment describe. With
// needGenerator false (validate) no Generator is built, and with
// --heuristics-only no Critic either, so no key is needed.
func buildEnv(ctx context.Context, pf *pipelineFlags, needGenerator bool, log *slog.Logger) (*runEnv, error) {
	env, err := buildEnvShared(ctx, pf, needGenerator, log, nil)
	if err == nil && pf.record != "" && env.recorder == nil {
		env.Close()
		return nil, usageErr(errors.New("--record keeps model replies, and this run calls no model (the local provider and --heuristics-only do not): leave --record out"))
	}
	return env, err
}

// buildEnvShared is buildEnv on resources shared with other pipelines of the
// run (nil: fresh ones). It opens the cache into res when it needs one.
func buildEnvShared(ctx context.Context, pf *pipelineFlags, needGenerator bool, log *slog.Logger, res *runRes) (_ *runEnv, err error) {
	if res == nil {
		res = &runRes{record: pf.record, budget: providers.NewBudget(pf.maxTokensPerDoc, pf.maxCost)}
		defer func() {
			if err != nil {
				res.Close()
			}
		}()
	}
	if err := pf.validate(); err != nil {
		return nil, err
	}
	schema, err := pipeline.LoadSchema(pf.schema)
	if err != nil {
		return nil, usageErr(err)
	}
	gate, _ := pf.gate()
	cfg := pf.prov
	env := &runEnv{runRes: res}

	criticProvider, err := cfg.RunCritic(pf.heuristicsOnly)
	if err != nil {
		return nil, usageErr(err)
	}
	needsLive := (needGenerator && providers.Live(cfg.Provider)) || (criticProvider != "" && criticProvider != providers.ProviderReplay)
	client, err := res.clients(pf, log, needsLive)
	if err != nil {
		return nil, err
	}
	pc := pipeline.Config{Schema: schema, Gate: gate, Logger: log, MaxTextBytes: pf.maxTextBytes}
	genDesc, critDesc, err := addStages(&pc, pf, needGenerator, criticProvider, client)
	if err != nil {
		return nil, err
	}
	pc.Version = genDesc + "+" + critDesc + gate.VersionSuffix()
	p, err := pipeline.New(pc)
	if err != nil {
		return nil, usageErr(err)
	}
	env.p, env.base = p, pc
	log.Debug("pipeline built", "generator", genDesc, "critic", critDesc, "schema", schema.Name, "provider_config", cfg)
	return env, nil
}

// clients returns the run's client factory, opening the call cache first
// when the run calls a live model.
func (res *runRes) clients(pf *pipelineFlags, log *slog.Logger, needsLive bool) (func(string) (llm.Client, error), error) {
	if needsLive && !pf.noCache && res.cache == nil {
		path := pf.cache
		if path == "" {
			path = defaultCachePath()
		}
		c, err := providers.OpenCache(path)
		if err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		c.Logger = log
		res.cache = c
	}
	if res.stack == nil {
		res.stack = &providers.Stack{Config: pf.prov, Budget: res.budget, Concurrency: pf.concurrency, Fixture: func() (*providers.Fixture, error) {
			f, err := loadReplayFixture(pf.replay)
			if err != nil {
				return nil, usageErr(err)
			}
			return f, nil
		}}
	}
	res.stack.Cache = res.cache
	return func(provider string) (llm.Client, error) {
		// The recorder exists once a model client does: buildEnv tells a
		// --record that would record nothing by its absence.
		if pf.record != "" && res.recorder == nil {
			res.recorder = providers.NewRecorder()
		}
		res.stack.Recorder = res.recorder
		return res.stack.Client(provider)
	}, nil
}

// addStages puts the Generator (when needed) and the Critic (when
// criticProvider is set) into pc and describes each for the pipeline version.
func addStages(pc *pipeline.Config, pf *pipelineFlags, needGenerator bool, criticProvider string,
	client func(string) (llm.Client, error)) (genDesc, critDesc string, err error) {
	cfg := pf.prov
	genDesc, critDesc = "none", "none"
	if needGenerator {
		if cfg.Provider == providers.ProviderLocal {
			pc.Generator = local.New()
			genDesc = "local"
		} else {
			c, err := client(cfg.Provider)
			if err != nil {
				return "", "", err
			}
			_, model := cfg.Generator()
			pc.Generator = pipeline.NewLLMGenerator(c, pipeline.LLMOptions{Model: model, Retries: retriesFlag(pf.retries)})
			genDesc = cfg.Provider + ":" + model
		}
	}
	if criticProvider != "" {
		c, err := client(criticProvider)
		if err != nil {
			return "", "", err
		}
		_, model := cfg.Critic()
		if cfg.CriticModel == "" && criticProvider != cfg.Provider {
			_, model = providers.DefaultModels(criticProvider)
		}
		pc.Critic = pipeline.NewLLMCritic(c, pipeline.LLMOptions{Model: model, Retries: retriesFlag(pf.retries)})
		critDesc = criticProvider + ":" + model
	}
	return genDesc, critDesc, nil
}

// pipelineFor builds a pipeline on the same stages (and so the same clients
// and cache) with another schema and gate.
func (e *runEnv) pipelineFor(schema *pipeline.Schema, gate pipeline.GateConfig, heuristicsOnly bool) (*pipeline.Pipeline, error) {
	c := e.base
	c.Schema, c.Gate = schema, gate
	if gate.Profile == nil {
		c.Gate.Profile = e.base.Gate.Profile // mcp builds its gate per call; --gate still applies
	}
	if heuristicsOnly {
		c.Critic = nil
	}
	return pipeline.New(c)
}

// retriesFlag maps --retries (0 means none) to LLMOptions.Retries (0 means default).
func retriesFlag(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

func loadReplayFixture(path string) (*providers.Fixture, error) {
	if path == "" {
		return golden.BundledFixture()
	}
	return providers.LoadFixture(path)
}

// defaultCachePath is REFLECT_CACHE, else reflect/calls.db under the user's
// cache directory.
func defaultCachePath() string {
	if p := os.Getenv("REFLECT_CACHE"); p != "" {
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "reflect", "calls.db")
}
