// hookbox validate under a system policy: the operator settings in force, merged from the system
// policy and the user's operator file, each line with the file it comes from, and what of the
// user's does not apply and why (issue 31: "validate/doctor explain the merged result").
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { LoneBinary } from "../helpers/binary.ts";

// The system policy is applied only when root alone can change it, up to /: the test must be root to write one.
const NOT_ROOT = process.getuid?.() !== 0 ? "not root: a system policy must be root's to be applied" : undefined;
if (NOT_ROOT) console.warn(`[system-policy-validate] skipping: ${NOT_ROOT}`);

describe("hookbox validate under a system policy", () => {
  let bin: LoneBinary;
  let env: Record<string, string>;
  let systemRoot: string;
  beforeAll(() => {
    bin = new LoneBinary();
    chmodSync(bin.dir, 0o755);
    systemRoot = join(bin.dir, "sys");
    mkdirSync(join(systemRoot, "etc/hookbox"), { recursive: true, mode: 0o755 });
    writeFileSync(join(systemRoot, "etc/hookbox/hookbox.yaml"), "builtin: [guard-secrets]\nfail_closed: true\ndeny: { read: ['/etc/shadow'] }\n", {
      mode: 0o644,
    });
    const home = join(bin.dir, "home");
    mkdirSync(join(home, ".config/hookbox"), { recursive: true });
    writeFileSync(
      join(home, ".config/hookbox/hookbox.yaml"),
      "builtin: [bash-guard]\nfail_closed: false\nhooks:\n  guard-secrets: { enabled: false }\ndeny: { net: [evil.example] }\n",
    );
    env = { HOME: home, PATH: "/usr/bin:/bin" };
  });
  afterAll(() => bin.cleanup());

  const need = (ctx: TestContext): void => {
    if (NOT_ROOT) ctx.skip(NOT_ROOT);
  };

  it("prints each setting in force with where it comes from, and the user's lines that do not apply", async (ctx) => {
    need(ctx);
    const result = await bin.run(["validate", "--system-root", systemRoot], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`operator settings in force: the system policy ${systemRoot}/etc/hookbox/hookbox.yaml and `);
    expect(result.stdout).toMatch(/builtin: guard-secrets\s+\(system\)/);
    expect(result.stdout).toMatch(/builtin: bash-guard\s+\(yours\)/);
    expect(result.stdout).toMatch(/deny\.read: \/etc\/shadow\s+\(system\)/);
    expect(result.stdout).toMatch(/deny\.net: evil\.example\s+\(yours\)/);
    expect(result.stdout).toMatch(/fail_closed = true\s+\(system\)/);
    expect(result.stdout).toContain("ignored: hooks.guard-secrets.enabled: false — the system policy runs guard-secrets");
    expect(result.stdout).toContain("ignored: fail_closed: false — the system policy says fail_closed: true");

    const json = await bin.run(["validate", "--system-root", systemRoot, "--json"], { env });
    const layers = (JSON.parse(json.stdout) as { layers?: { ignored: { setting: string }[] } }).layers;
    expect(layers?.ignored.map((line) => line.setting)).toEqual(["hooks.guard-secrets.enabled", "fail_closed"]);
  });

  it("a system policy another user could change is not applied: everything is refused, naming why", async (ctx) => {
    need(ctx);
    chmodSync(join(systemRoot, "etc/hookbox/hookbox.yaml"), 0o666);
    try {
      const result = await bin.run(["validate", "--system-root", systemRoot], { env });
      expect(result.code).toBe(1);
      expect(`${result.stdout}${result.stderr}`).toMatch(/the system policy cannot be trusted: .*writable by every user/);
    } finally {
      chmodSync(join(systemRoot, "etc/hookbox/hookbox.yaml"), 0o644);
    }
  });
});
