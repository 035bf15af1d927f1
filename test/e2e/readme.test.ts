import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { README as readme, readmeCurl } from "../helpers/readme.ts";

const root = resolve(import.meta.dirname, "../..");

// STYLE.md: README examples are executed by a test, so they stay true.
describe("README", () => {
  it("the quick-start command's run step works as written", () => {
    const line = readme.split("\n").find((l) => l.startsWith("npm ci && npm run build && ./dist/hookbox run "));
    expect(line).toBeDefined();
    const args = (line as string).split(" && ")[2]?.split(" ").slice(1) ?? [];
    const stdout = execFileSync(resolve(root, "dist/hookbox"), args, { cwd: root, env: {} }).toString();
    expect(JSON.parse(stdout)).toMatchObject({ action: "deny" });
  });

  it("the handler shown is the example file", () => {
    const shown = /```ts\n\/\/ examples\/deny-env\.ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBe(readFileSync(resolve(root, "examples/deny-env.ts"), "utf8"));
  });

  it("the main job is `npm ci && npm run serve`: build, then serve the standard hooks on the default socket", () => {
    expect(readme).toContain("\nnpm ci && npm run serve\n");
    const scripts = (JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    // scripts/bun.mjs runs the project's Bun whether or not its postinstall ran.
    expect(scripts.serve).toBe("node scripts/bun.mjs build.ts && ./dist/hookbox serve --builtin all");
    expect(scripts.build).toBe("node scripts/bun.mjs build.ts");
  });

  it("the curl shown gets a deny from the served standard hooks, on the default socket", async () => {
    const curl = readmeCurl();
    const home = mkdtempSync(join(tmpdir(), "hookbox-readme-"));
    const env = { HOME: home, XDG_RUNTIME_DIR: join(home, "run"), PATH: process.env.PATH ?? "/usr/bin:/bin" };
    const serve = spawn(resolve(root, "dist/hookbox"), ["serve", "--builtin", "all"], { env, stdio: "ignore" });
    try {
      const socket = join(home, "run/hookbox/hookbox.sock");
      for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
      const answer = JSON.parse(execFileSync("bash", ["-c", curl], { env, encoding: "utf8" })) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
      expect(answer.hookSpecificOutput?.permissionDecision).toBe("deny");
      expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain("guard-secrets");
    } finally {
      serve.kill("SIGTERM");
      await new Promise((r) => serve.once("exit", r));
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("the test command is what .ci/run runs", () => {
    expect(readme).toContain("npm ci && npm test");
    const ci = readFileSync(resolve(root, ".ci/run"), "utf8");
    expect(ci).toMatch(/npm ci/);
    expect(ci).toMatch(/npm test/);
  });
});
