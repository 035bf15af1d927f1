// src/capabilities/read owns hook.readFile and hook.listFiles and their read grants; it must not import above src/capabilities.
import type { Capability } from "../capability.ts";
import { listFilesMethod } from "./list-files.ts";
import { parseReadPolicy, readSummary, type ReadPolicy } from "./policy.ts";
import { readFileMethod } from "./read-file.ts";

/** `read`: hook.readFile and hook.listFiles. The policy itself is enforced by the invocation's PathGuard. */
export const readCapability: Capability<ReadPolicy> = {
  name: "read",
  parse: (sources, _deps, errors) => parseReadPolicy(sources, errors),
  summary: readSummary,
  contribute: (_policy, scope) => ({ readFile: readFileMethod(scope), listFiles: listFilesMethod(scope) }),
};
