import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { parseEmitArgs } from "../../src/cli/emit-args.ts";

/** What emit parsed with node:util parseArgs before it had its own parser: the reference. */
function reference(args: readonly string[]): ReturnType<typeof parseEmitArgs> | "error" {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        agent: { type: "string" },
        "fail-closed": { type: "boolean" },
        socket: { type: "string" },
        "no-daemon": { type: "boolean" },
        "process-isolation": { type: "boolean" },
        "thread-worker": { type: "boolean" },
        hooks: { type: "string", multiple: true },
        config: { type: "string" },
        builtin: { type: "string", multiple: true },
        system: { type: "boolean" },
        "system-root": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (positionals.length > 1) return "error";
    if (values["process-isolation"] === true && values["thread-worker"] === true) return "error";
    if (values.system === true && values.hooks !== undefined) return "error";
    if (values.agent !== undefined && !["claude", "gemini", "cursor", "codex", "copilot", "qwen", "native"].includes(values.agent)) return "error";
    return {
      eventName: positionals[0],
      agent: values.agent as never,
      failClosed: values["fail-closed"] === true,
      socket: values.socket,
      daemon: values["no-daemon"] !== true,
      processIsolation: values["thread-worker"] !== true,
      hooks: values.hooks ?? [],
      config: values.config,
      builtin: values.builtin ?? [],
      system: values.system === true,
      systemRoot: values["system-root"],
      help: values.help === true,
    };
  } catch {
    return "error";
  }
}

const CASES: readonly (readonly string[])[] = [
  [],
  ["PreToolUse"],
  ["PreToolUse", "--agent", "claude"],
  ["--agent=gemini", "BeforeTool"],
  ["--agent", "nobody"],
  ["--agent"],
  ["--agent", "--fail-closed"],
  ["--agent=-x"],
  ["--fail-closed", "--no-daemon", "--socket", "/tmp/s.sock"],
  ["--no-daemon", "--process-isolation"],
  ["--no-daemon", "--thread-worker"],
  ["--process-isolation", "--thread-worker"],
  ["--fail-closed=yes"],
  ["--hooks", "a", "--hooks=b", "--builtin", "all", "--builtin", "x,y"],
  ["--config", "one.yaml", "--config", "two.yaml"],
  ["-h"],
  ["--help"],
  ["-x"],
  ["-hx"],
  ["--unknown"],
  ["--unknown=1"],
  ["A", "B"],
  ["--", "--agent"],
  ["--", "A", "B"],
  ["-"],
  ["Stop", "--socket="],
  ["--hooks", ""],
  ["PreToolUse", "--agent", "claude", "--system"],
  ["PreToolUse", "--system", "--system-root", "/tmp/root"],
  ["--system", "--hooks", "a"],
  ["--system-root"],
];

describe("emit's flags parse exactly as node:util parseArgs did", () => {
  it.each(CASES.map((c) => [c.join(" ") || "(none)", c] as const))("%s", (_name, args) => {
    const expected = reference(args);
    if (expected === "error") expect(() => parseEmitArgs(args)).toThrow(/hookbox emit/);
    else expect(parseEmitArgs(args)).toEqual(expected);
  });
});
