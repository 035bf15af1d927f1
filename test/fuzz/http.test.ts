import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import {
  agentSamples,
  deepJsonText,
  FUZZ_RUNS,
  FUZZ_TIMEOUT_MS,
  fuzzParameters,
  hostileJson,
  hostileString,
  mutated,
  pctEncode,
  rawCall,
} from "./arbitraries.ts";

/**
 * Fuzzing the daemon's HTTP API (the binary, over its unix socket): whatever the body, path or
 * query, the answer is a 200 or a 4xx whose body names a stable error code with the status that
 * code maps to — never a 5xx, a dropped connection or a hang — and the daemon keeps evaluating.
 */

/** src/serve/api/error-response.ts: the client errors a request may earn. */
const CLIENT_ERRORS: Readonly<Record<string, number>> = {
  usage: 400,
  event_invalid: 400,
  config_invalid: 400,
  request_too_large: 413,
  unauthorized: 401,
  capability_denied: 403,
  not_found: 404,
  conflict: 409,
};

const HOOKS: Record<string, string> = {
  "recorder.yaml": `id: recorder
events: [PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, Notification, fuzz.event]
permissions: { inject_context: true }
handler: { code: "export default (e) => ({ reason: 'keys ' + Object.keys(e).length, context_injection: typeof e.prompt === 'string' ? e.prompt.slice(0, 100) : undefined })" }
`,
  "echo.yaml": `id: echo
events: [PreToolUse]
match: { tool: Echo }
handler: { code: "export default (e) => ({ action: 'modify', data: e.tool_input ?? {} })" }
`,
  "guard.yaml": `id: guard
events: [PreToolUse]
match: { tool: "Write|Edit", paths: ["**/.env"] }
handler: { code: "export default (e) => ({ action: 'deny', reason: 'no .env' })" }
`,
};

const EVENT_TYPES = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
  "Notification",
  "PermissionRequest",
  "fuzz.event",
  "PreAbilityCall",
  "x.y",
];

const nativeSeeds: Record<string, unknown>[] = [
  { session_id: "s", cwd: "/proj", tool_name: "Write", tool_input: { file_path: "/proj/.env", content: "k=v" } },
  { session_id: "s", cwd: "/proj", tool_name: "Echo", tool_input: { a: 1, nested: { b: [1, 2] } } },
  { session_id: "s", prompt: "hello", cwd: "/proj" },
  { event_type: "Stop", session_id: "s", stop_hook_active: false },
];

const segment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...EVENT_TYPES),
  hostileString.map(pctEncode),
  fc.constantFrom("%ZZ", "%E0%A4%A", "..", "%2e%2e", "a%2Fb", "%00", "recorder", "echo", "guard", "x".repeat(3000)),
);

const body: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
  { weight: 4, arbitrary: mutated(nativeSeeds).map((v) => JSON.stringify(v)) },
  { weight: 3, arbitrary: hostileJson.map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }) },
  { weight: 1, arbitrary: deepJsonText },
  { weight: 1, arbitrary: fc.integer({ min: 1_048_000, max: 1_049_000 }).map((n) => JSON.stringify({ session_id: "s", pad: "p".repeat(n) })) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const query: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom("limit", "status", "hook", "event", "x"), fc.oneof(hostileString, fc.integer().map(String))), { maxLength: 3 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${pctEncode(v)}`).join("&")}` : ""));

const request = fc.oneof(
  { weight: 5, arbitrary: fc.record({ method: fc.constant("POST"), path: segment.map((s) => `/v1/events/${s}`), body }) },
  {
    weight: 3,
    arbitrary: fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/v1/agents/claude"),
      body: fc.oneof(
        mutated(agentSamples("claude")).map((v) => JSON.stringify(v)),
        body,
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ method: fc.constant("POST"), path: segment.map((s) => `/v1/hooks/${s}/fire`), body }) },
  { weight: 1, arbitrary: fc.record({ method: fc.constant("POST"), path: segment.map((s) => `/v1/approvals/${s}`), body }) },
  { weight: 1, arbitrary: fc.record({ method: fc.constant("GET"), path: query.map((q) => `/v1/runs${q}`), body: fc.constant(undefined) }) },
  { weight: 1, arbitrary: fc.record({ method: fc.constant("GET"), path: segment.map((s) => `/v1/hooks/${s}`), body: fc.constant(undefined) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      method: fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "POST"),
      path: fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join("/")}`),
      body,
    }),
  },
);

describe("fuzz: the daemon's HTTP API", { timeout: FUZZ_TIMEOUT_MS }, () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  beforeAll(async () => {
    world = new DaemonWorld();
    for (const [name, text] of Object.entries(HOOKS)) writeFileSync(join(world.hooks, name), text);
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "2"]);
  });
  afterAll(async () => {
    await daemon?.stop("SIGKILL");
    world?.cleanup();
  });

  it(`every request is answered with a 200 or a 4xx naming a stable code (${FUZZ_RUNS * 5} requests)`, async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, body: payload }) => {
        const reply = await rawCall(world.socket, method, path, method === "GET" ? undefined : payload);
        // FUZZ_LOG=file keeps every exchange, to replay a failure that depends on what came before.
        if (process.env.FUZZ_LOG)
          appendFileSync(
            process.env.FUZZ_LOG,
            `${JSON.stringify({ method, path, body: typeof payload === "string" ? payload : payload === undefined ? null : [...payload], status: reply.status })}\n`,
          );
        if (reply.status === 200) {
          expect(() => JSON.parse(reply.text), `${method} ${path.slice(0, 200)} → 200 ${JSON.stringify(reply.text.slice(0, 300))}`).not.toThrow();
          return;
        }
        expect(reply.status, `${method} ${path.slice(0, 200)} → ${reply.status} ${reply.text.slice(0, 500)}`).toBeGreaterThanOrEqual(400);
        expect(reply.status, `${method} ${path.slice(0, 200)} → ${reply.text.slice(0, 500)}`).toBeLessThan(500);
        let error: { code?: string; message?: string } | undefined;
        try {
          error = (JSON.parse(reply.text) as { error?: { code?: string; message?: string } }).error;
        } catch {
          throw new Error(
            `${method} ${path.slice(0, 200)} → ${reply.status} with a body that is not JSON: ${JSON.stringify(reply.text.slice(0, 300))}`,
          );
        }
        expect(Object.keys(CLIENT_ERRORS), `${method} ${path.slice(0, 200)} → ${reply.text.slice(0, 500)}`).toContain(error?.code);
        expect(reply.status).toBe(CLIENT_ERRORS[error?.code as string]);
        expect(typeof error?.message).toBe("string");
      }),
      fuzzParameters(FUZZ_RUNS * 5),
    );
  });

  it("afterwards the daemon still decides correctly, logged nothing alarming, and every audit line parses", async () => {
    const denied = await call(world.socket, "POST", "/v1/events/PreToolUse", nativeSeeds[0] as object);
    expect(denied.json).toMatchObject({ decision: "deny", decided_by: "guard" });
    expect(daemon.child.exitCode).toBeNull();
    expect(daemon.stderr).not.toMatch(/internal error|error\[internal\]|Unhandled|TypeError|RangeError/);
    for (const line of readFileSync(world.auditFile, "utf8").split("\n").filter(Boolean)) JSON.parse(line);
  });
});
