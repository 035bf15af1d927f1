import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS, limitFlag } from "../../src/core/limits.ts";
import { LoneBinary } from "../helpers/binary.ts";

describe("dist/hookbox alone in an empty directory", () => {
  let bin: LoneBinary;
  beforeAll(() => {
    bin = new LoneBinary();
    writeFileSync(
      join(bin.dir, "handler.ts"),
      `interface ToolEvent { tool_name: string; tool_input: { file_path?: string } }
type Verdict = { action: "deny" | "continue"; reason?: string };
async function isSecret(path: string): Promise<boolean> { return /\\.env$/.test(path); }
export default async function handler(event: ToolEvent): Promise<Verdict> {
  const path: string = event.tool_input.file_path ?? "";
  return (await isSecret(path)) ? { action: "deny", reason: \`\${path} is a secret file\` } : { action: "continue" };
}
`,
    );
    writeFileSync(join(bin.dir, "event.json"), JSON.stringify({ tool_name: "Write", tool_input: { file_path: "/p/.env" } }));
    writeFileSync(join(bin.dir, "spin.ts"), `export default function (): never { while (true) {} }\n`);
    writeFileSync(
      join(bin.dir, "typo.ts"),
      `export default function (event: { tool_name?: string }) {\n  if (event.tool_name === "Bash") {\n    return { action: "dny", reason: "no shell" };\n  }\n}\n`,
    );
    writeFileSync(
      join(bin.dir, "uses-hook.ts"),
      `export default async function (event: unknown, hook: Hook) {\n  hook.log("info", \`id \${hook.id}, config \${JSON.stringify(hook.config)}\`);\n  await hook.readFile("a.txt");\n}\n`,
    );
    writeFileSync(join(bin.dir, "broken.ts"), `export default function (e: any) {\n  return { a: 1 + };\n}\n`);
  });
  afterAll(() => bin.cleanup());

  it("runs a TypeScript handler (types, interface, async) and prints its result", async () => {
    const result = await bin.run(["run", "handler.ts", "--event", "event.json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ action: "deny", reason: "/p/.env is a secret file" });
  });

  it("reads the event from stdin and prints the whole outcome with --json", async () => {
    const result = await bin.run(["run", "handler.ts", "--event", "-", "--json"], {
      stdin: JSON.stringify({ tool_name: "Read", tool_input: { file_path: "a.ts" } }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, value: { action: "continue" }, stats: { host_calls: 0 } });
  });

  it("a CPU-bound handler fails with the limit named, exit 1", async () => {
    const result = await bin.run(["run", "spin.ts", "--event", "event.json", "--cpu-ms", "50"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error[sandbox_cpu]: cpu limit 50 ms exceeded");
  });

  it("a result the pipeline would refuse fails as it would there: exit 1, the message, and the line that wrote it", async () => {
    const result = await bin.run(["run", "typo.ts", "--event", "-"], { stdin: JSON.stringify({ tool_name: "Bash" }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^error\[handler_result_invalid\]: the handler returned an invalid result: action: .*; it returned \{"action":"dny","reason":"no shell"\}$/m,
    );
    expect(result.stderr).toContain('    at typo.ts:3:14\n    3 |     return { action: "dny", reason: "no shell" };\n      |              ^');
    const json = await bin.run(["run", "typo.ts", "--event", "-", "--json"], { stdin: JSON.stringify({ tool_name: "Bash" }) });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      failure: { code: "handler_result_invalid", location: { file: "typo.ts", line: 3, column: 14 } },
    });
    // Nothing returned is a valid continue.
    expect((await bin.run(["run", "typo.ts", "--event", "-"], { stdin: "{}" })).code).toBe(0);
  });

  it("the handler gets a hook object (its id, an empty config) whose methods refuse", async () => {
    const result = await bin.run(["run", "uses-hook.ts", "--event", "-", "--json"], { stdin: "{}" });
    expect(result.code).toBe(1);
    const outcome = JSON.parse(result.stdout) as { failure: { message: string }; logs: { message: string }[] };
    expect(outcome.logs[0]?.message).toBe("id hookbox-run, config {}");
    expect(outcome.failure.message).toMatch(/hook\.readFile: no capabilities are granted in `hookbox run`/);
  });

  it("a syntax error names file:line:col", async () => {
    const result = await bin.run(["run", "broken.ts", "--event", "event.json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("broken.ts:2:19: syntax error");
  });

  it("usage errors exit 2 with a clear message; --help exits 0", async () => {
    expect((await bin.run(["run", "missing.ts", "--event", "event.json"])).stderr).toMatch(/cannot read handler missing\.ts/);
    expect((await bin.run(["run", "handler.ts", "--event", "event.json", "--memory-mb", "lots"])).code).toBe(2);
    expect((await bin.run(["frobnicate"])).code).toBe(2);
    const help = await bin.run(["run", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--cpu-ms");
    for (const d of LIMITS)
      expect(help.stdout).toMatch(new RegExp(`${limitFlag(d)} <n> +limits\\.${d.yaml}: ${d.min}–${d.max} \\(default ${d.default}\\)`));
  });

  it("every YAML limit has its flag: --log-kb 0 stops a handler that logs", async () => {
    writeFileSync(join(bin.dir, "chatty.ts"), `export default () => { console.log("hello"); return { action: "continue" }; };\n`);
    const result = await bin.run(["run", "chatty.ts", "--event", "event.json", "--log-kb", "0"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error[sandbox_log_size]: log limit 0 B exceeded");
  });

  it("passes its own doctor with no environment at all", async () => {
    const result = await bin.run(["doctor", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ runtime: "bun", ok: true });
  });
});
