import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { compileHandler } from "../../sandbox/index.ts";
import { createCapabilityHost } from "../../src/capabilities/index.ts";
import type { Diagnostic } from "../../src/hooks/config/diagnostics.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { loadHooks } from "../../src/hooks/registry/load.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { memoryFs } from "../helpers/memory-fs.ts";
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS, fuzzParameters, hostileJson, hostileString, mutated } from "./arbitraries.ts";

/**
 * Fuzzing hook files: whatever a hook author writes, the loader answers with diagnostics that
 * name a file, a line and a column — never an exception, never a hook that half-loaded. Handler
 * sources go through the transpiler the same way. A sample also goes through `hookbox validate`.
 */

const SKELETONS: Record<string, unknown>[] = [
  {
    id: "guard",
    events: ["PreToolUse"],
    match: { tool: "Write|Edit", paths: ["**/.env"] },
    handler: { code: "export default (e) => ({ action: 'deny' })" },
  },
  {
    id: "full",
    events: ["PreToolUse", "task.done"],
    priority: 5,
    enabled: true,
    match: { tool: "Bash", fields: { "tool_input.command": "^git " } },
    handler: { code: "export default async (e, hook) => { await hook.readFile('a'); }" },
    permissions: {
      read: ["${workspace}/**"],
      run: [{ cmd: "git", args: ["diff", "*"], env: ["LANG_HINT"] }],
      env: ["HOME"],
      net: ["example.com"],
      inject_context: true,
      store: true,
    },
    limits: { cpu_ms: 50, memory_mb: 16, timeout_ms: 1000, stack_kb: 128, result_kb: 64, log_kb: 8, host_calls: 10 },
    on_error: "deny",
    isolation: "fresh",
    approval: { timeout_ms: 5000, default: "allow" },
    config: { a: 1 },
    effects: ["append_to: x"],
  },
  { id: "seed", event_type: "Stop", handler: "./handler.ts", cooldown_seconds: 3 },
];

const YAML_TOKENS = [
  "id:",
  "events:",
  "handler:",
  "permissions:",
  "limits:",
  " ",
  "  ",
  "\n",
  "- ",
  "&a ",
  "*a",
  "!!binary ",
  "!!js/function ",
  "{",
  "}",
  "[",
  "]",
  ": ",
  "'",
  '"',
  "# ",
  "\t",
  "<<: *a",
  "---\n",
  "...\n",
  "%YAML 1.2\n",
  "? ",
  "|\n",
  ">\n",
  "~",
  "0x1F",
  "1e400",
  ".inf",
  "@",
  "`",
];

const yamlText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: mutated(SKELETONS).map((hook) => stringify(hook)) },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.constantFrom(...YAML_TOKENS), hostileString), { maxLength: 40 }).map((parts) => parts.join("")) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        mutated(SKELETONS).map((hook) => stringify(hook)),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 5 }), fc.constantFrom(...YAML_TOKENS)), { maxLength: 4 }),
      )
      .map(([text, edits]) =>
        edits.reduce((t, [at, cut, insert]) => t.slice(0, at % (t.length + 1)) + insert + t.slice((at % (t.length + 1)) + cut), text),
      ),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
  { weight: 1, arbitrary: hostileJson.map((v) => stringify(v)) },
);

const JS_TOKENS = [
  "export default",
  "(",
  ")",
  "=>",
  "{",
  "}",
  "async",
  "await",
  "function",
  "import",
  "from",
  "'",
  '"',
  "`",
  "${",
  "class",
  "<T>",
  ": any",
  "as",
  "enum",
  "namespace",
  "declare",
  "/*",
  "*/",
  "//",
  "\n",
  ";",
  "x",
  "1",
  "new",
  "yield*",
  "#priv",
  "@dec",
];

const code: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.constantFrom(...JS_TOKENS), { maxLength: 40 }).map((parts) => parts.join(" ")),
  fc.string({ maxLength: 200 }),
  fc.nat({ max: 3000 }).map((n) => `export default () => ${"[".repeat(n)}${"]".repeat(n)}`),
);

function expectWellFormed(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    expect(typeof d.file).toBe("string");
    expect(Number.isInteger(d.line) && d.line >= 1, JSON.stringify(d)).toBe(true);
    expect(Number.isInteger(d.column) && d.column >= 1, JSON.stringify(d)).toBe(true);
    expect(typeof d.message === "string" && d.message.length > 0, JSON.stringify(d)).toBe(true);
  }
}

describe("fuzz: hook files", { timeout: FUZZ_TIMEOUT_MS }, () => {
  const capabilities = createCapabilityHost({
    io: nodeCapabilityIO,
    env: { PATH: process.env.PATH, HOME: "/nonexistent" },
    home: "/nonexistent",
    dataDir: "/nonexistent",
  });
  const operator = operatorFileSchema.parse({});
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it(`the loader turns any hook file into a hook or into diagnostics with a position (${FUZZ_RUNS * 5} files)`, async () => {
    await fc.assert(
      fc.asyncProperty(yamlText, async (text) => {
        const fs = memoryFs({ "/hooks/h.yaml": text, "/hooks/handler.ts": "export default () => {}" });
        const result = await loadHooks(
          { sources: [{ dir: "/hooks", origin: "dir", required: true }], operator, operatorFile: undefined, embedded: new Map() },
          { fs, capabilities },
        );
        expectWellFormed(result.diagnostics);
        const problems = result.diagnostics.filter((d) => d.file.startsWith("/hooks/h.yaml"));
        expect(result.hooks.length + problems.length, `neither loaded nor diagnosed:\n${text.slice(0, 500)}`).toBeGreaterThan(0);
        if (result.hooks.length > 0) expect(problems).toEqual([]);
      }),
      fuzzParameters(FUZZ_RUNS * 5),
    );
  });

  it(`the transpiler refuses any handler source with a failure, never an exception (${FUZZ_RUNS * 5} sources)`, async () => {
    await fc.assert(
      fc.asyncProperty(code, async (source) => {
        const compiled = await compileHandler(source, "/hooks/h/handler.ts");
        if (!compiled.ok) {
          expect(typeof compiled.failure.code).toBe("string");
          expect(compiled.failure.message.length).toBeGreaterThan(0);
        }
      }),
      fuzzParameters(FUZZ_RUNS * 5),
    );
  });

  it(`hookbox validate --json (the binary) reports every problem and exits 0 or 1 (${Math.max(3, Math.ceil(FUZZ_RUNS / 8))} directories of 8 files)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(yamlText, { minLength: 8, maxLength: 8 }), fc.option(yamlText), async (files, operatorText) => {
        const dir = mkdtempSync(join(tmpdir(), "hookbox-fuzz-"));
        dirs.push(dir);
        files.forEach((text, i) => writeFileSync(join(dir, `h${i}.yaml`), text));
        writeFileSync(join(dir, "handler.ts"), "export default () => {}");
        const args = ["validate", "--json", "--hooks", dir];
        if (operatorText !== null) {
          writeFileSync(join(dir, "operator.yml"), operatorText);
          args.push("--config", join(dir, "operator.yml"));
        }
        const run = spawnSync(BUILT_BINARY, args, {
          cwd: dir,
          env: { HOME: dir, PATH: process.env.PATH ?? "/usr/bin:/bin" },
          encoding: "utf8",
          timeout: 30_000,
        });
        expect(run.error).toBeUndefined();
        expect([0, 1], `exit ${run.status}: ${run.stderr.slice(0, 1000)}`).toContain(run.status);
        expect(run.stderr).not.toMatch(/internal error|error\[internal\]/);
        const report = JSON.parse(run.stdout) as { ok: boolean; hooks: number; problems: Diagnostic[] };
        expectWellFormed(report.problems);
        expect(report.ok).toBe(report.problems.length === 0);
        expect(run.status).toBe(report.ok ? 0 : 1);
      }),
      fuzzParameters(Math.max(3, Math.ceil(FUZZ_RUNS / 8))),
    );
  });
});
