import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoneBinary, runProgram } from "../helpers/binary.ts";

describe("hookbox validate / list / schema on the binary", () => {
  let bin: LoneBinary;
  beforeAll(() => {
    bin = new LoneBinary();
    const broken = join(bin.dir, "broken");
    mkdirSync(join(broken, "guard"), { recursive: true });
    writeFileSync(join(broken, "one.yaml"), "id: one\nevents: [PreToolUse]\nenabeld: true\nhandler: { code: 'export default () => {}' }\n");
    writeFileSync(join(broken, "two.yaml"), "id: two\nevent_type: PreTolUse\npriority: high\nhandler: { code: 'export default () => {}' }\n");
    writeFileSync(join(broken, "three.yaml"), "id: three\nevents: [Stop\nhandler: h.ts\n");
    const good = join(bin.dir, "good");
    mkdirSync(join(good, "guard"), { recursive: true });
    writeFileSync(
      join(good, "guard", "hook.yaml"),
      "id: guard\nevents: [PreToolUse]\npriority: 5\nmatch: { tool: Write|Edit }\nsummary: Block secrets\nhandler: ./handler.ts\n",
    );
    writeFileSync(join(good, "guard", "handler.ts"), "export default (e: { tool_input: { file_path?: string } }) => ({ action: 'continue' });\n");
    writeFileSync(join(good, "notes.yaml"), "id: notes\nevent_type: UserPromptSubmit\nhandler: { code: 'export default () => {}' }\n");
  });
  afterAll(() => bin.cleanup());

  it("prints every problem of three broken files with file:line:col and exits non-zero", async () => {
    // A PATH with git on it: self-protect asks git about git clean and the like (its run grants).
    const result = await bin.run(["validate", "--hooks", "broken"], { env: { HOME: bin.dir, PATH: "/usr/bin:/bin" } });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/broken\/one\.yaml:3:1: enabeld: unknown key "enabeld" \(did you mean "enabled"\?\)/),
      expect.stringMatching(/broken\/three\.yaml:3:1: YAML syntax: /),
      expect.stringMatching(/broken\/two\.yaml:2:13: event_type: unknown event "PreTolUse": did you mean "PreToolUse"\?/),
      expect.stringMatching(/broken\/two\.yaml:3:11: priority: found string "high", expected number/),
    ]);
    expect(result.stdout).toContain("4 problems in 3 files");
  });

  it("a file that is not a mapping is one problem, and a file with hundreds is capped (a !!binary operator file, output piped to head)", async () => {
    const dir = join(bin.dir, "mangled");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "operator.yml"), `!!binary ${"x".repeat(20_000)}\n`);
    writeFileSync(join(dir, "list.yaml"), "- id: a\n- id: b\n");
    writeFileSync(
      join(dir, "many.yaml"),
      `id: many\nevents: [PreToolUse]\nhandler: { code: 'export default () => {}' }\n${Array.from({ length: 300 }, (_, i) => `k${i}: 1`).join("\n")}\n`,
    );
    const operator = await bin.run(["validate", "--json", "--hooks", dir, "--config", join(dir, "operator.yml")], { env: { HOME: bin.dir } });
    expect(operator.code).toBe(1);
    expect((JSON.parse(operator.stdout) as { problems: { message: string }[] }).problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^found binary data \(!!binary\) at the top of the file: expected a YAML mapping/),
    ]);
    const result = await bin.run(["validate", "--json", "--hooks", dir], { env: { HOME: bin.dir } });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { problems: { file: string; message: string }[] };
    const inFile = (name: string) => report.problems.filter((p) => p.file.endsWith(name)).map((p) => p.message);
    expect(inFile("list.yaml")).toEqual([expect.stringMatching(/^found a list, expected object/)]);
    expect(inFile("many.yaml")).toHaveLength(51);
    expect(inFile("many.yaml").at(-1)).toBe("and 250 more problems in this file (fix the ones above first)");
    expect(result.stdout.length).toBeLessThan(100_000);
    // A reader that goes away early is not an internal error.
    const piped = await runProgram(
      ["bash", "-c", `"$0" validate --json --hooks "$1" | head -c 10 >/dev/null; exit "\${PIPESTATUS[0]}"`, bin.path, dir],
      { cwd: bin.dir, env: { HOME: bin.dir, PATH: "/usr/bin:/bin" } },
    );
    expect(piped.stderr).not.toMatch(/internal error/);
  });

  it("validates good hooks, and list shows them grouped by event in run order", async () => {
    const env = { HOME: bin.dir, PATH: "/usr/bin:/bin" };
    const ok = await bin.run(["validate", "--hooks", "good"], { env });
    expect(ok.code, ok.stderr).toBe(0);
    // Two of them, and self-protect, on by default (--hooks replaces the hook directories, not the standard hooks).
    expect(ok.stdout).toBe(
      "ok: 3 hooks valid\nself-protection on: the agent may not change Hookbox's own state (hookbox doctor lists where it is)\n",
    );
    const list = await bin.run(["list", "--hooks", "good", "--json"], { env });
    expect(list.code, list.stderr).toBe(0);
    const registration = JSON.parse(list.stdout);
    expect(Object.keys(registration.hooks)).toEqual(["PreToolUse", "UserPromptSubmit"]);
    expect(registration.self_protect).toBe("on");
    expect(registration.hooks.PreToolUse.map((h: { id: string }) => h.id)).toEqual(["self-protect", "guard"]);
    expect(registration.hooks.PreToolUse[1]).toMatchObject({ id: "guard", priority: 5, match: { tool: "Write|Edit" }, summary: "Block secrets" });
  });

  it("a missing --hooks directory or --config file exits 2, as the exit-code table says; the default directories may be absent", async () => {
    const missing = await bin.run(["validate", "--hooks", "nowhere"], { env: { HOME: bin.dir } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere:1:1: hook directory not found/);
    for (const args of [["validate"], ["validate", "--json"], ["list"]]) {
      const config = await bin.run([...args, "--config", join(bin.dir, "no-such.yaml")], { env: { HOME: bin.dir } });
      expect(config.code, `hookbox ${args.join(" ")} --config <missing>: ${config.stderr}`).toBe(2);
      if (args[0] === "validate") expect(`${config.stdout}${config.stderr}`).toContain("operator file not found (given with --config)");
    }
    const viaEnv = await bin.run(["validate"], { env: { HOME: bin.dir, HOOKBOX_CONFIG: join(bin.dir, "no-such.yaml") } });
    expect(viaEnv.code).toBe(2);
    const help = await bin.run(["validate", "--help"]);
    expect(help.stdout).toMatch(
      /2 on a usage error or when the operator file given \(--config, \$HOOKBOX_CONFIG\) or a\s+--hooks directory is missing/,
    );
    const defaults = await bin.run(["validate"], { env: { HOME: bin.dir } });
    expect(defaults.code, defaults.stderr).toBe(0);
  });

  it("reports every problem of one hook file in one run: its YAML's, its handler's, its matcher's and its permissions', each at file:line:col", async () => {
    const dir = join(bin.dir, "many-problems");
    mkdirSync(join(dir, "bad"), { recursive: true });
    // The schema refuses the file (two problems); its handler does not compile either.
    writeFileSync(join(dir, "bad", "hook.yaml"), "id: bad\nevents: [PreToolUse, Nope]\npriority: high\nhandler: ./handler.ts\n");
    writeFileSync(join(dir, "bad", "handler.ts"), "export default function handler(e) {\n  return { action: 'continue' \n");
    // The schema passes; its matcher, its handler and its permissions each fail.
    mkdirSync(join(dir, "worse"), { recursive: true });
    writeFileSync(
      join(dir, "worse", "hook.yaml"),
      "id: worse\nevents: [PreToolUse]\nmatch: { paths: ['[[**'] }\nhandler: ./handler.ts\npermissions: { read: ['${workspace}/**'], run: [{ cmd: 'no/such/../tool', args: [] }] }\n",
    );
    writeFileSync(join(dir, "worse", "handler.ts"), "export default () => { return {;\n");
    const result = await bin.run(["validate", "--hooks", dir], { env: { HOME: bin.dir, PATH: "/usr/bin:/bin" } });
    expect(result.code).toBe(1);
    const lines = result.stderr
      .trim()
      .split("\n")
      .filter((line) => !line.includes(": warning: "));
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/bad\/hook\.yaml:2:\d+: events\.1: unknown event "Nope"/),
        expect.stringMatching(/bad\/hook\.yaml:3:11: priority: found string "high", expected number/),
        expect.stringMatching(/bad\/handler\.ts:\d+:\d+: /),
        expect.stringMatching(/worse\/handler\.ts:\d+:\d+: /),
      ]),
    );
    expect(lines.filter((line) => line.includes("/worse/"))).toEqual([
      expect.stringMatching(/worse\/handler\.ts:1:\d+: syntax error: /),
      expect.stringMatching(/worse\/hook\.yaml:3:\d+: match\.paths\.0: invalid glob "\[\[\*\*"/),
      expect.stringMatching(/worse\/hook\.yaml:5:\d+: permissions: .*no\/such\/\.\.\/tool/),
    ]);
    expect(result.stdout).toMatch(/^6 problems in 4 files; 1 hook valid; 2 hooks broken/);
  });

  it("a declared command missing on this machine is a warning: the hook loads with that grant inert", async () => {
    const dir = join(bin.dir, "inert", "lint");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "hook.yaml"),
      "id: lint\nevents: [PostToolUse]\nhandler: ./handler.ts\npermissions:\n  run: [{ cmd: no-such-linter-xyz, args: ['**'] }]\n",
    );
    writeFileSync(join(dir, "handler.ts"), "export default () => ({ action: 'continue' });\n");
    const result = await bin.run(["validate", "--hooks", "inert"], { env: { HOME: bin.dir, PATH: "/usr/bin:/bin" } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/inert\/lint\/hook\.yaml:\d+:\d+: warning: .*no-such-linter-xyz/);
    // The review says so too: the grant is refused (inert), so the hook does not get all it declares.
    expect(result.stderr).toContain("refused here: runs no-such-linter-xyz\n");
    expect(result.stderr).toContain("REFUSED  run no-such-linter-xyz **\n");
    expect(result.stderr).toMatch(/why: no-such-linter-xyz was not found on PATH when the hook loaded/);
    // The review is wrapped (a diagnostic stays one file:line:col line, for editors).
    for (const line of result.stderr.split("\n").filter((text) => text.startsWith(" "))) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(result.stdout).toMatch(/^ok: 2 hooks valid \(1 warning\); 1 hook does not get all the grants declared \(above\)\nself-protection on: /);
  });

  it("without git on PATH, self-protect's git grants are one warning (git clean, stash, reset --hard … are then refused: they cannot be checked)", async () => {
    const result = await bin.run(["validate", "--hooks", "good"], { env: { HOME: bin.dir } });
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split("\n").filter((line) => line.includes("warning:"));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^builtin:self-protect\/hook\.yaml:\d+:\d+: warning: .*permissions\.run\[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\]\.cmd: "git" was not found on PATH.*these 11 grants are inert/,
      ),
    ]);
    expect(result.stdout).toMatch(/^ok: 3 hooks valid \(1 warning\); 1 hook does not get all the grants declared \(above\)\nself-protection on: /);
  });

  it("schema prints a JSON Schema an editor can use", async () => {
    const result = await bin.run(["schema"]);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.title).toBe("Hookbox hook file");
    expect(schema.properties.enabled).toBeDefined();
    expect(schema.additionalProperties).toBe(false);
  });
});
