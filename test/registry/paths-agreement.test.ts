import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileHandler, createHandlerSpec, type HandlerSpec, type SandboxEngine } from "../../sandbox/index.ts";
import { guestModuleSources } from "../../src/hooks/builtin/index.ts";
import type { NativeEvent } from "../../src/core/events/types.ts";
import { PROTOCOLS, detectAgent, type AgentName } from "../../src/agents/protocols.ts";
import { compileMatcher } from "../../src/hooks/registry/matcher.ts";
import { eventPaths } from "../../src/hooks/registry/tool-paths.ts";
import { normalizePath, resolvePath } from "../../src/core/text/posix-path.ts";
import { allPayloads, hintFor } from "../contracts/helpers/payloads.ts";
import { createEngine, limits, noHost } from "../helpers/sandbox.ts";

// One implementation of "the paths a tool call touches" (handlers/lib/paths/tool-paths.ts) runs on
// both sides: the host's match.paths imports it, handlers get it linked as hookbox:paths. This
// runs every agent payload the repository holds through both and checks they agree.
const ROOT = resolve(import.meta.dirname, "../..");
const now = (): Date => new Date("2026-01-01T00:00:00.000Z");

/** Every payload: the contract samples and captured fixtures (as the golden decode tests read them), the e2e captures, the other agents' captures. */
function corpus(): { id: string; event: NativeEvent }[] {
  const out = allPayloads().map((item) => ({ id: item.id, event: PROTOCOLS[item.agent].decode(item.payload, hintFor(item)) }));
  const readDir = (dir: string, agent: AgentName | undefined): void => {
    for (const file of readdirSync(join(ROOT, dir)).filter((f) => f.endsWith(".json") && !/^(index|cases)\.json$/.test(f))) {
      const raw = JSON.parse(readFileSync(join(ROOT, dir, file), "utf8")) as Record<string, unknown>;
      // Claude's http hook capture is the request: its body is the payload.
      const payload = file.startsWith("http-") ? (raw.body as Record<string, unknown>) : raw;
      // Copilot's camelCase payloads name no event: the file does, as `hookbox emit <EVENT>` would.
      const eventName = /^([A-Za-z]+)(?:-\d+)?\.json$/.exec(file)?.[1];
      const name = agent ?? detectAgent(payload) ?? "claude";
      out.push({ id: `${dir}/${file}`, event: PROTOCOLS[name].decode(payload, { ...(eventName ? { eventName } : {}), env: {}, now }) });
    }
  };
  readDir("test/e2e/agents/captured/claude-code", "claude");
  readDir("test/e2e/agents/captured/gemini-cli", "gemini");
  readDir("test/fixtures/agents/codex-cli", "codex");
  readDir("test/fixtures/agents/copilot-cli", "copilot");
  readDir("test/fixtures/agents/qwen-code", undefined);
  return out;
}

/** A match.paths glob naming exactly this path (glob characters escaped), as the matcher will see it. */
function exactGlob(event: NativeEvent, path: string): string {
  const cwd = typeof event.cwd === "string" ? event.cwd : undefined;
  const full = cwd ? resolvePath(cwd, path) : normalizePath(path);
  return full.replace(/[*?[\]{}()!@+\\]/g, "\\$&");
}

let engine: SandboxEngine;
let guest: HandlerSpec;
beforeAll(async () => {
  engine = await createEngine();
  const compiled = await compileHandler(
    `import { eventPaths } from "hookbox:paths";\nexport default (event: unknown) => eventPaths(event);`,
    "/hooks/paths/handler.ts",
    guestModuleSources,
  );
  if (!compiled.ok) throw new Error(compiled.failure.message);
  guest = await createHandlerSpec({ id: "paths", handler: compiled.handler });
});
afterAll(() => engine.dispose());

async function guestPaths(event: NativeEvent): Promise<unknown> {
  const outcome = await engine.invoke(guest, event, limits(), noHost);
  if (!outcome.ok) throw new Error(outcome.failure.message);
  return outcome.value;
}

function matches(glob: string, event: NativeEvent): boolean {
  const built = compileMatcher({ paths: [glob] });
  if (!built.ok) throw new Error(`${glob}: ${built.errors.map((e) => e.message).join("; ")}`);
  return built.matcher.matches(event);
}

describe("match.paths (host) and hookbox:paths (guest) agree on the paths a tool call touches", () => {
  it("on every agent payload in the repository: the same list, and match.paths matches each path and nothing more", async () => {
    const events = corpus();
    expect(events.length).toBeGreaterThan(400);
    let withPaths = 0;
    for (const { id, event } of events) {
      const host = eventPaths(event);
      expect(await guestPaths(event), id).toEqual(host);
      if (host.length > 0) withPaths++;
      for (const path of host) expect(matches(exactGlob(event, path), event), `${id}: ${path}`).toBe(true);
      expect(matches("**", event) || matches("/**", event), id).toBe(host.length > 0);
    }
    // Not vacuous: Claude's and Gemini's file tools, Codex patches, Copilot's and Cursor's shapes.
    expect(withPaths).toBeGreaterThanOrEqual(10);
  });

  it("the issue-16 case: a YAML match.paths [**/*.secret] runs for a Codex patch adding k.secret (padded header), as hookbox:paths sees it", async () => {
    const event = PROTOCOLS.codex.decode(
      {
        session_id: "s",
        turn_id: "1",
        transcript_path: null,
        cwd: "/home/dev/shop",
        hook_event_name: "PreToolUse",
        model: "m",
        tool_name: "apply_patch",
        tool_input: { command: "*** Begin Patch\n\t *** Add File:  k.secret\n+x\n*** End Patch\n" },
      },
      { env: {}, now },
    );
    expect(matches("**/*.secret", event)).toBe(true);
    expect(await guestPaths(event)).toEqual(["k.secret"]);
  });

  it("MCP servers' keys: relative_path, pathInProject, file, filename, file:// uri, files: [{path}]", async () => {
    const event: NativeEvent = {
      event_type: "PreToolUse",
      session_id: "s",
      timestamp: "t",
      cwd: "/w",
      tool_name: "mcp__x__write",
      tool_input: {
        relative_path: "a",
        pathInProject: "b",
        file: "c",
        filename: "d",
        uri: "file:///w/e%20f",
        files: [{ path: "g", content: "x" }, "h"],
        content: "not a path",
        url: "https://example.com/i",
      },
    };
    const expected = ["a", "b", "c", "d", "/w/e f", "g", "h"];
    expect(eventPaths(event)).toEqual(expected);
    expect(await guestPaths(event)).toEqual(expected);
    for (const path of expected) expect(matches(exactGlob(event, path), event)).toBe(true);
  });
});
