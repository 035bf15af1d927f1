import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoneBinary } from "../helpers/binary.ts";

const HANDLERS = resolve(import.meta.dirname, "../../handlers");
const STANDARD = readdirSync(HANDLERS, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== "lib")
  .map((e) => e.name);
/** The standard hooks that ask a model: they need hookbox.yaml llm: to do anything. */
const PROMPT_HOOKS = ["prompt-clarity", "verify-completion"];

interface Report {
  hook_id?: string;
  problems: string[];
  results: { name: string; ok: boolean }[];
}

describe("the standard hook library and the authoring tools, on the binary", () => {
  let bin: LoneBinary;
  let env: Record<string, string>;
  beforeAll(() => {
    bin = new LoneBinary();
    // Some fixtures run git, node or python3 through granted `run` capabilities.
    env = { HOME: bin.dir, PATH: process.env.PATH ?? "/usr/bin:/bin" };
  });
  afterAll(() => bin.cleanup());

  it("hookbox test handlers: every standard hook passes all its fixtures, at least five each, real agent payloads among them", async () => {
    const result = await bin.run(["test", "--json", HANDLERS], { env, timeoutMs: 240_000 });
    const reports = JSON.parse(result.stdout) as Report[];
    const failing = reports.flatMap((r) => [...r.problems, ...r.results.filter((x) => !x.ok).map((x) => `${r.hook_id}: ${x.name}`)]);
    expect(failing).toEqual([]);
    expect(result.code).toBe(0);
    expect(reports.map((r) => r.hook_id).sort()).toEqual([...STANDARD].sort());
    for (const report of reports) expect(report.results.length, report.hook_id).toBeGreaterThanOrEqual(5);
    for (const id of STANDARD) {
      const fixtures = readdirSync(join(HANDLERS, id, "fixtures"))
        .map((f) => readFileSync(join(HANDLERS, id, "fixtures", f), "utf8"))
        .join("\n");
      expect(fixtures, id).toMatch(/agent: claude/);
      expect(fixtures, id).toMatch(/agent: gemini/);
    }
  });

  it("a fixture that does not hold fails the run with a diff of expected and actual", async () => {
    const dir = join(bin.dir, "broken-guard");
    cpSync(join(HANDLERS, "guard-secrets"), dir, { recursive: true });
    writeFileSync(
      join(dir, "fixtures", "zz-wrong.yaml"),
      `name: a write to .env is (wrongly) expected to pass\nevent: { event_type: PreToolUse, tool_name: Write, tool_input: { file_path: .env, content: "A=1" } }\nexpect: { decision: allow }\n`,
    );
    const result = await bin.run(["test", dir], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("✗ fixtures/zz-wrong.yaml › a write to .env is (wrongly) expected to pass");
    expect(result.stdout).toMatch(/- expected: "allow"\n\s+\+ actual: {3}"deny"/);
    expect(result.stdout).toMatch(/\nFAILED: \d+\/\d+ fixtures passed in 1 hook\n$/);
  });

  it("hookbox new scaffolds a hook that validates and passes hookbox test at once, in an empty project", async () => {
    const project = join(bin.dir, "project");
    mkdirSync(project);
    const made = await bin.run(["new", "demo", "--event", "UserPromptSubmit"], { env, cwd: project });
    expect(made.code, made.stderr).toBe(0);
    expect(readdirSync(join(project, ".hookbox/hooks/demo")).sort()).toEqual(["README.md", "fixtures", "handler.ts", "hook.yaml", "hookbox.d.ts"]);
    expect(readFileSync(join(project, ".hookbox/hooks/demo/hookbox.d.ts"), "utf8")).toContain('declare module "hookbox:shell"');
    const tested = await bin.run(["test"], { env, cwd: project });
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^demo {2}\(.*\)\n {2}✓ fixtures\/basic\.yaml › .*\nok: 1\/1 fixtures passed in 1 hook\n$/);
    const validated = await bin.run(["validate"], { env, cwd: project });
    expect(validated.code, validated.stderr).toBe(0);
  });

  it("the embedded library loads with --builtin all and is listed; all means the hooks that work without setup", async () => {
    // The prompt hooks need a model endpoint (hookbox.yaml llm:): without one, `all` leaves them out, quietly.
    const builtin = await bin.run(["validate", "--builtin", "all"], { env });
    expect(builtin.code, builtin.stderr).toBe(0);
    expect(builtin.stdout).toContain(`ok: ${STANDARD.length - PROMPT_HOOKS.length} hooks valid`);
    expect(builtin.stderr).not.toMatch(/prompt-clarity|verify-completion|llm does not configure/);
    const listed = await bin.run(["list", "--builtin"], { env });
    for (const id of STANDARD) expect(listed.stdout).toContain(id);
    expect(listed.stdout).not.toContain("does not load");
    // Named, a prompt hook is enabled all the same (and warned about); with an endpoint, all includes them.
    const named = await bin.run(["validate", "--builtin", "all,prompt-clarity"], { env });
    expect(named.stdout).toContain(`ok: ${STANDARD.length - PROMPT_HOOKS.length + 1} hooks valid (1 warning)`);
    expect(named.stderr).toContain("prompt-clarity/hook.yaml");
    expect(named.stderr).toContain('add one to hookbox.yaml, e.g. llm: { endpoint: "http://127.0.0.1:8080/v1", model: NAME } (docs/prompt-hooks.md)');
    const config = join(bin.dir, "with-llm.yaml");
    writeFileSync(config, "llm: { endpoint: http://127.0.0.1:9/v1, api: openai, model: local }\n");
    const withModel = await bin.run(["validate", "--builtin", "all", "--config", config], { env });
    expect(withModel.code, withModel.stderr).toBe(0);
    expect(withModel.stdout).toContain(`ok: ${STANDARD.length} hooks valid`);
    const help = await bin.run(["serve", "--help"], { env });
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      '"all": every standard hook that works without setup — the prompt hooks (verify-completion, prompt-clarity) join once hookbox.yaml configures an llm endpoint',
    );
  });

  it("every standard hook packs as it is (hookbox pack handlers/<id>): each hook.yaml has its version", async () => {
    const out = join(bin.dir, "bundles");
    for (const id of STANDARD) {
      const packed = await bin.run(["pack", join(HANDLERS, id), "--out", out, "--json"], { env });
      expect(packed.code, `hookbox pack handlers/${id}: ${packed.stderr}`).toBe(0);
      expect(JSON.parse(packed.stdout)).toMatchObject({ id, version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    }
    expect(readdirSync(out)).toHaveLength(STANDARD.length);
  });
});
