import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { README as readme, readmeCommands, readmeCurl } from "../helpers/readme.ts";

const root = resolve(import.meta.dirname, "../..");

async function socketOf(path: string): Promise<void> {
  for (let i = 0; i < 200 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 50));
  expect(existsSync(path), `the daemon's socket at ${path}`).toBe(true);
}

/** Claude Code's answer to the quick start's .env write: guard-secrets' deny. */
function expectGuardDeny(stdout: string): void {
  const answer = JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  expect(answer.hookSpecificOutput?.permissionDecision).toBe("deny");
  expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain("guard-secrets");
}

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

  it("the main job is `npm ci && npm run serve`: build, then serve the agents' hook set, writing the operator file with the standard guards when there is none", () => {
    expect(readme).toContain("\nnpm ci && npm run serve\n");
    const scripts = (JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    // scripts/bun.mjs runs the project's Bun whether or not its postinstall ran. No --builtin:
    // a flag the agents' emit does not pass would serve guards the agents do not get.
    expect(scripts.serve).toBe("node scripts/bun.mjs build.ts && ./dist/hookbox serve --default-guards");
    expect(scripts.build).toBe("node scripts/bun.mjs build.ts");
  });

  it("`serve --default-guards` (the main job) writes the operator file install-agent would, and the curl shown gets a deny", async () => {
    const home = mkdtempSync(join(tmpdir(), "hookbox-readme-serve-"));
    const env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", XDG_RUNTIME_DIR: join(home, "run") };
    const serve = spawn(resolve(root, "dist/hookbox"), ["serve", "--default-guards"], { env, stdio: "ignore" });
    try {
      await socketOf(join(home, "run/hookbox/hookbox.sock"));
      expect(readFileSync(join(home, ".config/hookbox/hookbox.yaml"), "utf8")).toMatch(/^builtin:\n {2}- guard-secrets/m);
      expectGuardDeny(execFileSync("bash", ["-c", readmeCurl()], { env, encoding: "utf8" }));
    } finally {
      serve.kill("SIGTERM");
      await new Promise((r) => serve.once("exit", r));
      rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  // The default socket differs in shape with and without XDG_RUNTIME_DIR (src/hooks/config/locations.ts):
  // the one curl line must find the daemon either way.
  for (const [name, runtimeDir, socketUnderHome] of [
    ["XDG_RUNTIME_DIR set", "run", "run/hookbox/hookbox.sock"],
    ["XDG_RUNTIME_DIR unset", undefined, ".hookbox/run/hookbox.sock"],
  ] as const) {
    it(`the quick start runs top to bottom as written: install-agent turns the guards on, doctor passes, emit and the daemon served with no flags deny the .env write (${name})`, async () => {
      const lines = readmeCommands("Quick start");
      expect(lines.map((line) => line.split(" ")[0])).toEqual(["hookbox", "hookbox", "echo", "hookbox", "curl"]);
      const home = mkdtempSync(join(tmpdir(), "hookbox-readme-"));
      const project = join(home, "shop");
      mkdirSync(join(project, ".git"), { recursive: true });
      const env = {
        HOME: home,
        PATH: `${home}/.local/bin:${process.env.PATH ?? "/usr/bin:/bin"}`,
        ...(runtimeDir ? { XDG_RUNTIME_DIR: join(home, runtimeDir) } : {}),
      };
      const sh = (line: string): string =>
        execFileSync("bash", ["-c", line], { cwd: project, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      sh(`${resolve(root, "dist/hookbox")} self-install`);
      let serve: ReturnType<typeof spawn> | undefined;
      try {
        for (const line of lines) {
          if (line === "hookbox serve") {
            serve = spawn("bash", ["-c", `exec ${line}`], { cwd: project, env, stdio: "ignore" });
            await socketOf(join(home, socketUnderHome));
            continue;
          }
          const out = sh(line);
          if (line.startsWith("hookbox install-agent")) {
            expect(out).toContain(`${home}/.config/hookbox/hookbox.yaml (Hookbox's operator file: there was none)`);
            expect(out).toContain("enables the standard guards guard-secrets, bash-guard");
          }
          if (line.startsWith("hookbox doctor"))
            expect(out).toMatch(/^ok +guards of claude \(project\): bash-guard, guard-secrets, and self-protect$/m);
          if (line.startsWith("echo ") || line.startsWith("curl ")) expectGuardDeny(out);
        }
        expect(serve, "the quick start serves with no flags").toBeDefined();
      } finally {
        sh("hookbox daemon stop");
        if (serve && serve.exitCode === null) {
          serve.kill("SIGTERM");
          await new Promise((r) => serve?.once("exit", r));
        }
        rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      }
    });
  }

  it("the install-agent block runs as written: one scope per agent, entries naming the copied binary by its absolute path", () => {
    // As the section says for a source build: self-install first, then the block as written.
    expect(readme).toContain("from a source\nbuild: `dist/hookbox self-install`");
    const block = readmeCommands("Use it from your agent").join("\n");
    const home = mkdtempSync(join(tmpdir(), "hookbox-readme-install-"));
    const project = join(home, "shop");
    mkdirSync(project);
    try {
      const env = { HOME: home, PATH: `${home}/.local/bin:/usr/bin:/bin` };
      const script = `set -e\n${resolve(root, "dist/hookbox")} self-install\n${block}`;
      const run = spawnSync("bash", ["-c", script], { cwd: project, env, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain("(dry run: nothing written)");
      // The README installs no agent twice (issue 28: local command hooks and project http hooks).
      expect(run.stderr).not.toContain("evaluated twice");
      const local = readFileSync(join(project, ".claude/settings.local.json"), "utf8");
      expect(local).toContain(`"command": "${home}/.local/bin/hookbox emit PreToolUse --agent claude"`);
      expect(readFileSync(join(home, ".gemini/settings.json"), "utf8")).toContain(`${home}/.local/bin/hookbox emit BeforeTool --agent gemini`);
      // Every other agent the block names, in the file its comment names (test/docs/agents.test.ts holds the comments to install-agent).
      for (const [file, entry] of [
        [".codex/hooks.json", " emit PreToolUse --agent codex"],
        [".copilot/hooks/hookbox.json", " emit preToolUse --agent copilot"],
        [".qwen/settings.json", " emit PreToolUse --agent qwen"],
        [".config/opencode/plugin/hookbox.js", '";'],
        [".cursor/hooks.json", " emit preToolUse --agent cursor"],
      ] as const) {
        expect(readFileSync(join(home, file), "utf8"), file).toContain(`${home}/.local/bin/hookbox${entry}`);
      }
      expect(readFileSync(join(home, ".codex/config.toml"), "utf8"), "--trust recorded Codex's trust").toContain("trusted_hash");
      expect(existsSync(join(project, ".claude/settings.json"))).toBe(false);
      // What the prose says takes them out again does.
      expect(spawnSync("bash", ["-c", "hookbox uninstall-agent claude && hookbox uninstall-agent gemini --user"], { cwd: project, env }).status).toBe(
        0,
      );
      expect(existsSync(join(project, ".claude"))).toBe(false);
      expect(existsSync(join(home, ".gemini"))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it("the package example keeps the publisher's secret key out of the repository", () => {
    const commands = readmeCommands("Community hooks, and the hooks you already have").filter((line) => line.startsWith("minisign "));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands) for (const key of line.match(/-s (\S+)/g) ?? []) expect(key).toMatch(/^-s ~\//);
    expect(readFileSync(resolve(root, ".gitignore"), "utf8")).toMatch(/^\/mirror\/$/m);
  });

  it("the test command is what .ci/run runs", () => {
    expect(readme).toContain("npm ci && npm test");
    const ci = readFileSync(resolve(root, ".ci/run"), "utf8");
    expect(ci).toMatch(/npm ci/);
    expect(ci).toMatch(/npm test/);
  });
});
