import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/daemon.ts";

// npm's next major runs no dependency install script unless package.json's allowScripts names it
// (`npm ci --ignore-scripts` today): the build must still work from a clean copy, or fail in one
// line naming the script to allow. A fresh npm ci takes ~30 s: CI runs it, locally it is opt-in.
const enabled = process.env.CI === "true" || process.env.HOOKBOX_CLEAN_INSTALL_TEST === "1";
const DISABLED = "slow (a fresh npm ci into a copy of the checkout): CI runs it (CI=true); locally set HOOKBOX_CLEAN_INSTALL_TEST=1";

/** The project as a clean clone of the working tree would hold it: tracked and untracked-but-not-ignored files. */
function cleanCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-clean-install-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\0");
  for (const file of files.filter((f) => f !== "")) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file), { errorOnExist: false, force: true });
  }
  return dir;
}

const npm = (dir: string, args: readonly string[]) =>
  spawnSync("npm", [...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 600_000,
    env: { ...process.env, CI: "true", npm_config_update_notifier: "false" },
  });

describe("a clean install with install scripts disabled", () => {
  let dir: string;
  beforeAll(() => {
    if (enabled) dir = cleanCopy();
  });
  afterAll(() => enabled && rmSync(dir, { recursive: true, force: true }));
  beforeEach((ctx) => {
    if (!enabled) ctx.skip(DISABLED);
  });

  it("npm ci --ignore-scripts && npm run build works: Bun is taken from its platform package", () => {
    const install = npm(dir, ["ci", "--ignore-scripts", "--no-audit", "--no-fund"]);
    expect(install.status, install.stderr).toBe(0);
    const build = npm(dir, ["run", "build"]);
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    expect(build.stdout).toContain("ok  doctor");
  }, 900_000);

  it("without Bun's platform package either, the build fails in one line naming the script to allow", () => {
    const platformPackage = join(dir, "node_modules/@oven", `bun-${process.platform}-${process.arch === "arm64" ? "aarch64" : process.arch}`);
    renameSync(platformPackage, `${platformPackage}.away`);
    try {
      const build = npm(dir, ["run", "build", "--silent"]);
      expect(build.status).not.toBe(0);
      const errors = build.stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^error: Bun is not installed: bun's postinstall did not run .*npm install-scripts approve bun/);
    } finally {
      renameSync(`${platformPackage}.away`, platformPackage);
    }
  });
});
