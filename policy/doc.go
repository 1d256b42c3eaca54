// Package policy is reflect's decision engine: an action envelope in, a
// verdict out, wire-compatible with reeflex-core 0.2.0 (see
// ../shared/spec/decision-engine.md). It normalizes the envelope exactly as
// the reference does, evaluates a rule pack (the embedded base pack R0-R5,
// optionally under an operator's YAML/JSON pack), keeps the session ledger,
// the holds and the nonce set in a State (MemState here, the bbolt one in
// package store), runs the resubmission chain with argument binding, and
// resolves holds with the reference's approver verification.
//
// It imports nothing of this module and no model is anywhere near it.
// policy/coreapi serves an Engine over reeflex-core's REST API.
package policy
