import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { formatDiagnostic } from "../../src/hooks/config/diagnostics.ts";
import { dispatchEnv } from "../helpers/dispatch-env.ts";
import { createEngine } from "../helpers/sandbox.ts";

/**
 * The example prompt hook of docs/prompt-hooks.md, as the page prints it: its skip condition
 * holds only when the whole command is one harmless command, so a line that merely starts with
 * one (`ls && rm -rf /`) is judged. The model is unreachable here (no llm grant is honoured by the
 * stand-in host), so a judged command fails the hook and its `on_error: deny` denies; a skipped
 * one is recorded `skipped` with no model call.
 */
const page = readFileSync(new URL("../../docs/prompt-hooks.md", import.meta.url), "utf8");
const example = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((yaml) => yaml.startsWith("id: no-deletes-outside"));

let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

describe("docs/prompt-hooks.md: a skip condition never lets the agent switch the guard off", () => {
  it("the example is on the page", () => {
    expect(example).toContain("skip_if:");
  });

  it.each([
    ["ls", "skipped"],
    ["ls -la src", "skipped"],
    ["pwd", "skipped"],
    ["git status --short", "skipped"],
    ["ls && rm -rf /", "judged"],
    ["ls; rm -rf ~", "judged"],
    ["ls || rm -rf ~", "judged"],
    ["ls | sh", "judged"],
    ["ls & rm -rf ~", "judged"],
    ["ls\nrm -rf ~", "judged"],
    ["ls $(rm -rf ~)", "judged"],
    ["ls `rm -rf ~`", "judged"],
    ["ls > ~/.bashrc", "judged"],
    ["ls <(rm -rf ~)", "judged"],
    ["ls ${HOME:?$(rm -rf ~)}", "judged"],
    ["ls\\\n; rm -rf ~", "judged"],
    ["lsblk; rm -rf ~", "judged"],
    ["pwdx", "judged"],
    ["rm -rf / # ls", "judged"],
  ])("%j is %s", async (command, expected) => {
    const env = await dispatchEnv(engine, { hooks: [example as string] });
    expect(env.registry.current().diagnostics.map(formatDiagnostic)).toEqual([]);
    const outcome = await env.dispatcher.handle(
      parseEvent({ event_type: "PreToolUse", session_id: "s", cwd: "/proj", tool_name: "Bash", tool_input: { command } }),
    );
    const run = outcome.decision.runs[0];
    if (expected === "skipped") {
      expect(run?.status).toBe("skipped");
      expect(outcome.decision.decision).toBe("allow");
    } else {
      expect(run?.status).not.toBe("skipped");
      expect(outcome.decision.decision).toBe("deny");
    }
  });
});
