import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentName, DecodeHint } from "../../../src/agents/protocols.ts";

/** One agent payload the suite runs: a captured fixture or a research/synthetic sample. */
export interface AgentPayload {
  /** The adapter it is written for. */
  readonly agent: AgentName;
  /** Stable id, used as the key in golden files: "claude-code/PreToolUse-1.json", "samples/cursor/…json". */
  readonly id: string;
  readonly payload: unknown;
  /** The `hookbox emit <EVENT>` argument, where the payload names no event (Copilot camelCase). */
  readonly eventName?: string;
  /** What auto-detection should say, when it cannot be the adapter itself (documented in the sample). */
  readonly detectsAs: AgentName;
}

const ROOT = resolve(import.meta.dirname, "../../..");
export const FIXTURES_DIR = join(ROOT, "test/fixtures/agents");
const SAMPLES_DIR = join(ROOT, "test/contracts/samples");

/** Decoding is deterministic in tests: payloads without a timestamp get this one. */
export const FIXED_NOW = (): Date => new Date("2026-01-01T00:00:00.000Z");

export function hintFor(item: AgentPayload, env: Readonly<Record<string, string>> = {}): DecodeHint {
  return { ...(item.eventName !== undefined && { eventName: item.eventName }), env, now: FIXED_NOW };
}

const CAPTURED: readonly { readonly dir: string; readonly agent: AgentName }[] = [
  { dir: "claude-code", agent: "claude" },
  { dir: "gemini-cli", agent: "gemini" },
];

export function capturedPayloads(): AgentPayload[] {
  return CAPTURED.flatMap(({ dir, agent }) =>
    readdirSync(join(FIXTURES_DIR, dir))
      .filter((file) => /^[A-Za-z]+-\d+\.json$/.test(file))
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
      .map((file) => ({
        agent,
        id: `${dir}/${file}`,
        payload: JSON.parse(readFileSync(join(FIXTURES_DIR, dir, file), "utf8")) as unknown,
        detectsAs: agent,
      })),
  );
}

interface SampleFile {
  readonly source: string;
  readonly eventName?: string;
  readonly detectsAs?: AgentName;
  readonly payload: unknown;
}

export function samplePayloads(): AgentPayload[] {
  return readdirSync(SAMPLES_DIR)
    .sort()
    .flatMap((agent) =>
      readdirSync(join(SAMPLES_DIR, agent))
        .sort()
        .map((file) => {
          const sample = JSON.parse(readFileSync(join(SAMPLES_DIR, agent, file), "utf8")) as SampleFile;
          return {
            agent: agent as AgentName,
            id: `samples/${agent}/${file}`,
            payload: sample.payload,
            ...(sample.eventName !== undefined && { eventName: sample.eventName }),
            detectsAs: sample.detectsAs ?? (agent as AgentName),
          };
        }),
    );
}

let loaded: readonly AgentPayload[] | undefined;

/** Every captured fixture and sample, read once per test file. */
export function allPayloads(): readonly AgentPayload[] {
  loaded ??= [...capturedPayloads(), ...samplePayloads()];
  return loaded;
}

export function payloadById(id: string): AgentPayload {
  const found = allPayloads().find((item) => item.id === id);
  if (!found) throw new Error(`no payload ${id}`);
  return found;
}

/** What the captured client run recorded for a fixture: the hook's own answer and what the client did with it. */
export interface CapturedRun {
  readonly file: string;
  readonly case: string;
  readonly hook_exit_code: number;
  readonly hook_stdout: string;
  readonly hook_stderr: string;
}

export function capturedRuns(dir: "claude-code" | "gemini-cli"): CapturedRun[] {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, dir, "index.json"), "utf8")) as CapturedRun[];
}
