// src/decide owns the evaluator (hook sets, chain rules, approvals, audit, steps); it must not import src/serve, src/cli or an entry point.
// Its files at the top are the evaluator itself (evaluator.ts, compose.ts, hook-sets.ts, rule.ts, identity.ts, self-protect.ts …);
// chain/ runs one event's hooks, approvals/ holds ask_user, audit/ records, steps/ runs declarative hooks,
// replay/ decides recorded sessions again with no effect. Import its files directly: this index re-exports nothing.
export {};
