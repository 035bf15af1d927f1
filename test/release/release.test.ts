import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { executableFormat } from "../../scripts/release/formats.ts";
import { TARGETS, releaseFileName, type ReleaseTarget } from "../../scripts/release/targets.ts";
import * as catalog from "../../src/hooks/builtin/catalog.generated.ts";
import { standardHooksDigest } from "../../src/hooks/builtin/standard-hooks.ts";
import { runProgram } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld, ROOT } from "../helpers/daemon.ts";
import { readmeCommands, readmeCurl } from "../helpers/readme.ts";

// dist/release as `npm run release` leaves it (.ci/run runs it before the tests). Without it the
// suites skip locally and fail in CI.
const RELEASE = resolve(ROOT, "dist/release");
/** Why the release suites cannot run against dist/release, or undefined. */
function releaseMissing(): string | undefined {
  if (!existsSync(join(RELEASE, "SHA256SUMS"))) return "dist/release is not built: run `npm run release` first (CI does)";
  const built = /commit:"([0-9a-f]{40})/.exec(readFileSync(join(RELEASE, "hookbox-linux-x64")).toString("latin1"))?.[1];
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  return built === head ? undefined : `dist/release was built from ${built ?? "unknown sources"}, not HEAD (${head}): run \`npm run release\` again`;
}
const missing = releaseMissing();
const built = missing === undefined;
if (missing && !process.env.CI) console.warn(`skipping the release suites: ${missing}`);

function needRelease(ctx: TestContext): void {
  if (!missing) return;
  if (process.env.CI) throw new Error(`${missing} (.ci/run runs it before the tests)`);
  ctx.skip(missing);
}

describe("npm run release", () => {
  it("produced every platform's binary, the startup profiles they were laid out by, and SHA256SUMS that sha256sum -c accepts", (ctx) => {
    needRelease(ctx);
    const files = readdirSync(RELEASE).sort();
    expect(files).toEqual(
      [
        ...TARGETS.map(releaseFileName),
        "SHA256SUMS",
        ...(files.includes("SHA256SUMS.minisig") ? ["SHA256SUMS.minisig"] : []),
        "startup-serve.order",
        "startup-worker.order",
      ].sort(),
    );
    const check = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: RELEASE, encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    expect(check.stdout.trim().split("\n")).toHaveLength(TARGETS.length + 2);
  });

  it.for(TARGETS)("$name: its platform's executable, the application appended, this build stamped in", async (target, ctx) => {
    needRelease(ctx);
    const bytes = readFileSync(join(RELEASE, releaseFileName(target)));
    const format = executableFormat(bytes.subarray(0, 64 * 1024));
    expect(format).toMatchObject({ os: target.os, arch: target.arch });
    if (target.os === "darwin") expect(format?.detail).toBe("signed");
    if (target.os === "windows") expect(format?.detail).toBe("console");
    // A Bun runtime is 90–120 MiB; the application adds ~5 MiB.
    expect(bytes.length).toBeGreaterThan(80 * 1024 * 1024);
    expect(bytes.length).toBeLessThan(200 * 1024 * 1024);
    const text = bytes.toString("latin1");
    expect(text).toContain(`target:"${target.name}"`);
    expect(text).toContain(await standardHooksDigest(catalog));
    const commit = /commit:"([0-9a-f]{40}(?:-dirty)?|unknown)"/.exec(text)?.[1];
    const reference = /commit:"([0-9a-f]{40}(?:-dirty)?|unknown)"/.exec(readFileSync(join(RELEASE, "hookbox-linux-x64")).toString("latin1"))?.[1];
    expect(commit).toBe(reference);
  });
});

describe("reproducibility", () => {
  it("the same commit, rebuilt with the published startup profiles, gives the same bytes", (ctx) => {
    needRelease(ctx);
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" }) !== "";
    const stamp = /commit:"([0-9a-f]{40}(?:-dirty)?|unknown)",buildDate:"([^"]+)"/.exec(
      readFileSync(join(RELEASE, "hookbox-linux-x64")).toString("latin1"),
    );
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    if (dirty || stamp?.[1] !== head)
      return ctx.skip(
        "the sources changed since dist/release was built (uncommitted changes, or another commit): a rebuild would not be of the same sources",
      );
    const out = mkdtempSync(join(tmpdir(), "hookbox-rebuild-"));
    try {
      // windows-x64: a cross build that this machine does not run, so no self-check is repeated.
      const epoch = String(Date.parse(stamp[2] as string) / 1000);
      execFileSync("node", ["scripts/bun.mjs", "scripts/release.ts", "--targets", "windows-x64", "--profiles", RELEASE, "--out", out], {
        cwd: ROOT,
        env: { ...process.env, SOURCE_DATE_EPOCH: epoch },
        stdio: "ignore",
        timeout: 300_000,
      });
      const line = (dir: string) =>
        readFileSync(join(dir, "SHA256SUMS"), "utf8")
          .split("\n")
          .find((l) => l.endsWith("  hookbox-windows-x64.exe"));
      expect(line(out)).toBe(line(RELEASE));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});

const LINUX = TARGETS.filter((target) => target.os === "linux");

/** Why this machine cannot execute the target's binary, or undefined. */
function cannotRun(target: ReleaseTarget): string | undefined {
  if (process.platform !== "linux") return `a linux binary on ${process.platform}`;
  const probe = spawnSync(join(RELEASE, releaseFileName(target)), ["--version"], { env: {}, encoding: "utf8", timeout: 120_000 });
  if (probe.error || probe.status !== 0) {
    const how =
      target.arch === process.arch
        ? ""
        : ` (an ${target.arch} binary runs here only through qemu-user's binfmt handler: apt-get install qemu-user-static binfmt-support libc6-arm64-cross, as .ci/install-tools does)`;
    return `cannot execute ${releaseFileName(target)}: ${probe.error?.message ?? `exit ${probe.status} ${probe.stderr.trim()}`}${how}`;
  }
  return undefined;
}

// The README's commands, as a user runs them after downloading one file: in a scratch HOME whose
// ~/.local/bin is on PATH, the binary alone beside SHA256SUMS. Native for x64, qemu-user for arm64.
describe.each(LINUX)("smoke suite: $name", (target) => {
  let reason: string | undefined;
  let home: string;
  let env: Record<string, string>;
  beforeAll(() => {
    reason = built ? cannotRun(target) : undefined;
    if (reason) console.warn(`skipping the ${target.name} smoke suite: ${reason}`);
    home = mkdtempSync(join(tmpdir(), `hookbox-smoke-${target.name}-`));
    env = { HOME: home, XDG_RUNTIME_DIR: join(home, "run"), PATH: `${home}/.local/bin:/usr/bin:/bin`, SHELL: "/bin/bash", LANG: "C.UTF-8" };
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  function ready(ctx: TestContext): void {
    needRelease(ctx);
    if (reason) ctx.skip(reason);
  }
  const sh = (script: string, cwd = home): string =>
    execFileSync("bash", ["-euo", "pipefail", "-c", script], { cwd, env, encoding: "utf8", timeout: 240_000 });

  it("Install: check the sum, self-install, doctor", (ctx) => {
    ready(ctx);
    const downloads = join(home, "Downloads");
    mkdirSync(downloads, { recursive: true });
    for (const name of [releaseFileName(target), "SHA256SUMS"]) copyFileSync(join(RELEASE, name), join(downloads, name));
    chmodSync(join(downloads, releaseFileName(target)), 0o644);
    const script = readmeCommands("Install: one file")
      .map((line) => line.replaceAll("hookbox-linux-x64", releaseFileName(target)))
      .join("\n");
    const output = sh(script, downloads);
    expect(output).toContain(`${releaseFileName(target)}: OK`);
    expect(output).toContain(`installed ${home}/.local/bin/hookbox`);
    expect(output).toMatch(/^ok +sandbox: QuickJS ran in a worker process/m);
    expect(sh("command -v hookbox").trim()).toBe(`${home}/.local/bin/hookbox`);
  });

  it("version --json names this target and the release's commit", (ctx) => {
    ready(ctx);
    const info = JSON.parse(sh("hookbox version --json")) as { target: string; commit: string };
    expect(info.target).toBe(target.name);
    expect(readFileSync(join(RELEASE, releaseFileName(target))).toString("latin1")).toContain(`commit:"${info.commit}"`);
  });

  it("emit without a daemon: a Claude Code write to .env is denied by guard-secrets", async (ctx) => {
    ready(ctx);
    const payload = {
      hook_event_name: "PreToolUse",
      session_id: "s1",
      cwd: home,
      tool_name: "Write",
      tool_input: { file_path: `${home}/.env`, content: "A=1" },
    };
    const run = await runProgram([`${home}/.local/bin/hookbox`, "emit", "--agent", "claude", "--builtin", "guard-secrets"], {
      stdin: JSON.stringify(payload),
      env,
      cwd: home,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
  });

  it("Quick start: serve the agents' hook set (the operator file with the standard guards, written when there is none); the README's curl gets a deny", async (ctx) => {
    ready(ctx);
    const world = new DaemonWorld();
    const daemon = await DaemonProcess.start([`${home}/.local/bin/hookbox`], world, ["--default-guards"]);
    try {
      const answer = JSON.parse(execFileSync("bash", ["-c", readmeCurl()], { env: world.env(), encoding: "utf8" })) as {
        hookSpecificOutput?: { permissionDecision?: string };
      };
      expect(answer.hookSpecificOutput?.permissionDecision).toBe("deny");
    } finally {
      expect((await daemon.stop()).code).toBe(0);
      world.cleanup();
    }
  });

  it("Write a hook, and run a handler on an event", (ctx) => {
    ready(ctx);
    const project = join(home, "project");
    mkdirSync(project, { recursive: true });
    const [create, ...check] = readmeCommands("Write a hook").filter((line) => line.startsWith("hookbox "));
    sh(create as string, project);
    // Under qemu-user guest code runs ~10-20x slower than natively: the template's 50 ms of CPU is for real hardware.
    if (target.arch !== process.arch) sh("sed -i 's/cpu_ms: [0-9]*/cpu_ms: 2000/' .hookbox/hooks/*/hook.yaml", project);
    const output = sh(check.join("\n"), project);
    expect(output).toContain("ok: 2/2 fixtures passed in 1 hook");
    const run = execFileSync(`${home}/.local/bin/hookbox`, ["run", "examples/deny-env.ts", "--event", "examples/write-env.json"], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    expect(JSON.parse(run)).toMatchObject({ action: "deny" });
  });

  it("Use it from your agent: install-agent as the README shows it", (ctx) => {
    ready(ctx);
    const project = join(home, "agent-project");
    mkdirSync(project, { recursive: true });
    sh(readmeCommands("Use it from your agent").join("\n"), project);
    // --local wrote settings.local.json, and nothing installs Claude's hooks a second time in settings.json.
    expect(statSync(join(project, ".claude/settings.local.json")).isFile()).toBe(true);
    expect(existsSync(join(project, ".claude/settings.json"))).toBe(false);
  });

  it("completion bash is valid bash", (ctx) => {
    ready(ctx);
    expect(sh('eval "$(hookbox completion bash)"; complete -p hookbox').trim()).toBe("complete -F _hookbox hookbox");
  });
});
