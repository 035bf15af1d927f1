import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HookboxError } from "../../src/core/errors.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { AGENT_NAMES, PROTOCOLS, type AgentName } from "../../src/agents/protocols.ts";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import { agentSamples, FUZZ_RUNS, FUZZ_TIMEOUT_MS, fuzzParameters, hostileJson, mutated } from "./arbitraries.ts";

/**
 * Fuzzing each agent adapter from real and research payloads, mutated: decoding yields an event
 * the daemon itself accepts, or refuses with event_invalid — nothing else; and `hookbox emit`
 * (the binary, with and without a daemon) always answers in the agent's protocol: exit 0, 1 or
 * 2, stdout empty or exactly one JSON object, never a crash or a hang.
 */

const NATIVE_SEEDS: Record<string, unknown>[] = [
  { event_type: "PreToolUse", session_id: "s", cwd: "/proj", tool_name: "Bash", tool_input: { command: "ls" } },
  { event_type: "UserPromptSubmit", session_id: "s", prompt: "hi" },
  { event_type: "task.completed", session_id: "s", result: { ok: true } },
];

function seedsOf(agent: AgentName): Record<string, unknown>[] {
  const samples = agent === "native" ? NATIVE_SEEDS : agentSamples(agent);
  expect(samples.length, `seed payloads for ${agent}`).toBeGreaterThan(0);
  return samples;
}

function payloads(agent: AgentName): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: mutated(seedsOf(agent)) }, { weight: 1, arbitrary: hostileJson });
}

const EVENT_ARGS = ["PreToolUse", "Stop", "BeforeTool", "preToolUse", "beforeShellExecution", "userPromptSubmitted", "x"];

interface Emitted {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

function emit(world: DaemonWorld, args: readonly string[], stdin: string): Promise<Emitted> {
  return new Promise((done, reject) => {
    const child = spawn(BUILT_BINARY, ["emit", ...args], { cwd: world.dir, env: world.env(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, 30_000);
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin);
  });
}

function expectAgentAnswer(out: Emitted, context: string): void {
  expect(out.timedOut, `${context}: emit hung`).toBe(false);
  expect([0, 1, 2], `${context}: exit ${out.code}, stderr ${out.stderr.slice(0, 500)}`).toContain(out.code);
  expect(out.stderr, context).not.toMatch(/internal error|error\[internal\]|Unhandled|at .*\.ts:\d+/);
  if (out.stdout === "") return;
  const parsed: unknown = JSON.parse(out.stdout);
  expect(parsed !== null && typeof parsed === "object" && !Array.isArray(parsed), `${context}: stdout ${out.stdout.slice(0, 300)}`).toBe(true);
  expect(JSON.stringify(parsed), `${context}: stdout holds more than one JSON object`).toBe(out.stdout);
}

describe("fuzz: agent payloads", { timeout: FUZZ_TIMEOUT_MS }, () => {
  for (const agent of AGENT_NAMES) {
    it(`${agent}: decoding yields an event the daemon accepts, or event_invalid (${FUZZ_RUNS * 10} payloads)`, () => {
      fc.assert(
        fc.property(payloads(agent), fc.constantFrom(undefined, ...EVENT_ARGS), (payload, eventName) => {
          let event;
          try {
            event = PROTOCOLS[agent].decode(payload, { ...(eventName ? { eventName } : {}), env: {}, now: () => new Date("2026-01-01T00:00:00Z") });
          } catch (error) {
            expect(error instanceof HookboxError && error.code === "event_invalid", `${agent} decode threw ${String(error)}`).toBe(true);
            return;
          }
          // emit forwards the decoded event to the daemon as JSON: the daemon's own parser must take it.
          const wire = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
          expect(() => parseEvent(wire, event.event_type), `${agent}: ${JSON.stringify(wire).slice(0, 600)}`).not.toThrow();
        }),
        fuzzParameters(FUZZ_RUNS * 10),
      );
    });
  }

  describe("through the binary", () => {
    let world: DaemonWorld;
    let daemonWorld: DaemonWorld;
    let daemon: DaemonProcess;
    const GUARD =
      "id: guard\nevents: [PreToolUse]\nmatch: { tool: Bash }\nhandler: { code: \"export default (e) => ({ action: 'deny', reason: 'bash is audited: ' + JSON.stringify(e.tool_input).slice(0, 200) })\" }\n";
    beforeAll(async () => {
      world = new DaemonWorld();
      writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
      daemonWorld = new DaemonWorld();
      writeFileSync(join(daemonWorld.hooks, "guard.yaml"), GUARD);
      daemon = await DaemonProcess.start([BUILT_BINARY], daemonWorld, ["--workers", "1"]);
    });
    afterAll(async () => {
      await daemon?.stop("SIGKILL");
      world?.cleanup();
      daemonWorld?.cleanup();
    });

    const runs = Math.max(2, Math.ceil(FUZZ_RUNS / 10));
    for (const agent of AGENT_NAMES) {
      it(`${agent}: hookbox emit answers in the agent's protocol, in-process and through a daemon (${runs * 2} runs)`, async () => {
        await fc.assert(
          fc.asyncProperty(
            payloads(agent),
            fc.constantFrom(...EVENT_ARGS),
            fc.boolean(),
            fc.boolean(),
            async (payload, eventName, failClosed, raw) => {
              const stdin = raw ? `${JSON.stringify(payload)}\n{"second": true}` : JSON.stringify(payload);
              const flags = ["--agent", agent, ...(failClosed ? ["--fail-closed"] : [])];
              const local = await emit(world, [eventName, ...flags, "--no-daemon", "--hooks", world.hooks], stdin);
              expectAgentAnswer(local, `${agent} in-process`);
              const remote = await emit(daemonWorld, [eventName, ...flags], stdin);
              expectAgentAnswer(remote, `${agent} via daemon`);
            },
          ),
          fuzzParameters(runs),
        );
        expect(daemon.child.exitCode).toBeNull();
      });
    }
  });
});
