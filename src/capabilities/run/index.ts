// src/capabilities/run owns hook.run (and gitDiff, fileDiff, runTests) and its run grants; it must not import above src/capabilities.
import type { Capability } from "../capability.ts";
import { fileDiffMethod, gitDiffMethod } from "./git.ts";
import { parseRunPolicy, runSummary, type RunPolicy } from "./policy.ts";
import { runMethod } from "./run-method.ts";
import { runTestsMethod } from "./run-tests.ts";

/** `run`: hook.run and what is built on it (gitDiff, fileDiff, runTests), all through the invocation's Runner. */
export const runCapability: Capability<RunPolicy> = {
  name: "run",
  parse: (sources, deps, errors, warnings) => parseRunPolicy(sources, deps.io, deps.env.PATH, errors, warnings),
  summary: runSummary,
  contribute: (_policy, scope) => ({
    run: runMethod(scope),
    gitDiff: gitDiffMethod(scope),
    fileDiff: fileDiffMethod(scope),
    runTests: runTestsMethod(scope),
  }),
};
