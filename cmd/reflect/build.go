package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/providers/local"
)

// runEnv is a built pipeline and the resources behind it.
type runEnv struct {
	p        *pipeline.Pipeline
	base     pipeline.Config // what p was built from; pipelineFor varies schema and gate
	cache    *providers.Cache
	recorder *providers.Recorder
	record   string
	budget   *providers.Budget
	log      *slog.Logger
}

// finish writes what a run must leave behind (the recorded fixture).
func (e *runEnv) finish() error {
	if e.recorder != nil {
		if err := e.recorder.Save(e.record); err != nil {
			return fmt.Errorf("--record: %w", err)
		}
	}
	return nil
}

// Close releases the cache.
func (e *runEnv) Close() {
	if e.cache != nil {
		_ = e.cache.Close()
	}
}

// buildEnv assembles the pipeline the flags and environment describe. With
// needGenerator false (validate) no Generator is built, and with
// --heuristics-only no Critic either, so no key is needed.
func buildEnv(ctx context.Context, pf *pipelineFlags, needGenerator bool, log *slog.Logger) (*runEnv, error) {
	schema, err := pipeline.LoadSchema(pf.schema)
	if err != nil {
		return nil, usageErr(err)
	}
	gate, err := pf.gate()
	if err != nil {
		return nil, err
	}
	cfg := pf.prov
	for _, p := range []string{cfg.Provider, cfg.CriticProvider} {
		switch p {
		case "", providers.ProviderLocal, providers.ProviderReplay, providers.ProviderOpenAI, providers.ProviderAnthropic, providers.ProviderBedrock:
		default:
			return nil, usageErr(fmt.Errorf("unknown provider %q: want local, replay, openai, anthropic or bedrock", p))
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, usageErr(err)
	}
	env := &runEnv{log: log, record: pf.record}
	if pf.maxTokensPerDoc < 0 || pf.maxCost < 0 {
		return nil, usageErr(errors.New("--max-tokens-per-doc and --max-cost must be >= 0"))
	}
	env.budget = providers.NewBudget(pf.maxTokensPerDoc, pf.maxCost)

	// The Critic runs unless heuristics-only was asked for, or the Generator is
	// the keyless local extractor and no Critic provider was named.
	criticProvider := cfg.CriticProvider
	if criticProvider == "" && cfg.Provider != providers.ProviderLocal {
		criticProvider = cfg.Provider
	}
	wantCritic := !pf.heuristicsOnly && criticProvider != ""
	if criticProvider == providers.ProviderLocal && wantCritic {
		return nil, usageErr(errors.New("the local provider has no Critic: name a model provider with --critic-provider, or use --heuristics-only"))
	}

	needsLive := (needGenerator && cfg.Provider != providers.ProviderLocal && cfg.Provider != providers.ProviderReplay) ||
		(wantCritic && criticProvider != providers.ProviderReplay)
	if needsLive && !pf.noCache {
		path := pf.cache
		if path == "" {
			path = defaultCachePath()
		}
		c, err := providers.OpenCache(path)
		if err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		c.Logger = log
		env.cache = c
	}
	var replay *providers.Replay
	client := func(provider string) (providers.Client, error) {
		var c providers.Client
		switch provider {
		case providers.ProviderReplay:
			if replay == nil {
				f, err := loadReplayFixture(pf.replay)
				if err != nil {
					return nil, usageErr(err)
				}
				replay = providers.NewReplay(f)
			}
			c = replay
		default:
			live, err := cfg.NewClient(provider)
			if err != nil {
				return nil, err
			}
			c = live
			if env.cache != nil {
				c = env.cache.Wrap(provider, c)
			}
		}
		c = env.budget.Wrap(c)
		if pf.record != "" {
			if env.recorder == nil {
				env.recorder = providers.NewRecorder()
			}
			c = env.recorder.Tap(c)
		}
		return c, nil
	}

	pc := pipeline.Config{Schema: schema, Gate: gate, Logger: log, MaxTextBytes: pf.maxTextBytes}
	genDesc, critDesc := "none", "none"
	if needGenerator {
		if cfg.Provider == providers.ProviderLocal {
			pc.Generator = local.New()
			genDesc = "local"
		} else {
			c, err := client(cfg.Provider)
			if err != nil {
				env.Close()
				return nil, err
			}
			_, model := cfg.Generator()
			pc.Generator = pipeline.NewLLMGenerator(c, pipeline.LLMOptions{Model: model, Retries: retriesFlag(pf.retries)})
			genDesc = cfg.Provider + ":" + model
		}
	}
	if wantCritic {
		c, err := client(criticProvider)
		if err != nil {
			env.Close()
			return nil, err
		}
		_, model := cfg.Critic()
		if cfg.CriticModel == "" && criticProvider != cfg.Provider {
			_, model = providers.DefaultModels(criticProvider)
		}
		pc.Critic = pipeline.NewLLMCritic(c, pipeline.LLMOptions{Model: model, Retries: retriesFlag(pf.retries)})
		critDesc = criticProvider + ":" + model
	}
	pc.Version = genDesc + "+" + critDesc
	p, err := pipeline.New(pc)
	if err != nil {
		env.Close()
		return nil, usageErr(err)
	}
	env.p, env.base = p, pc
	log.Debug("pipeline built", "generator", genDesc, "critic", critDesc, "schema", schema.Name, "provider_config", cfg)
	return env, nil
}

// pipelineFor builds a pipeline on the same stages (and so the same clients
// and cache) with another schema and gate.
func (e *runEnv) pipelineFor(schema *pipeline.Schema, gate pipeline.GateConfig, heuristicsOnly bool) (*pipeline.Pipeline, error) {
	c := e.base
	c.Schema, c.Gate = schema, gate
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
