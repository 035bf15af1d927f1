import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { ROOT } from "../helpers/daemon.ts";
import { minisignMissing } from "../helpers/minisign.ts";
import { denial, PackageWorld } from "../helpers/packages.ts";
import { readmeCommands } from "../helpers/readme.ts";

/** README's community-hooks block runs as written, offline, with `hookbox` on PATH in a temp HOME. */
describe("README: community hooks", () => {
  const world = new PackageWorld();
  afterAll(() => world.cleanup());

  it("pack, sign, verify, add and list work as written; the installed example guards .env", async (ctx) => {
    const missing = minisignMissing();
    if (missing) return ctx.skip(missing);
    const bin = join(world.dir, "bin");
    mkdirSync(bin);
    copyFileSync(BUILT_BINARY, join(bin, "hookbox"));
    const work = join(world.dir, "checkout");
    cpSync(join(ROOT, "examples", "packages"), join(work, "examples", "packages"), { recursive: true });
    const commands = readmeCommands("Community hooks, and the hooks you already have");
    expect(commands.some((line) => line.startsWith("hookbox add "))).toBe(true);
    const output = execFileSync("bash", ["-euo", "pipefail", "-c", commands.join("\n")], {
      cwd: work,
      env: world.env({ PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` }),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(output).toContain("installed deny-env 1.0.0");
    expect(output).toMatch(/\n {2}here: reads files in your project; no network\n/);
    expect(output).toMatch(/\n {6}granted {2}read \$\{workspace\}\/\*\*\n {15}read any file under \$\{workspace\} in the project/);
    expect(JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")).packages["deny-env"]).toMatchObject({
      version: "1.0.0",
      grants: ["read ${workspace}/**"],
    });
    expect(denial((await world.writeEnv()).json)).toBe(
      `${join(world.project, ".env")} holds secrets (deny-env; list it in .hookbox-allow to allow it)`,
    );
    writeFileSync(join(world.project, ".hookbox-allow"), ".env\n");
    expect(denial((await world.writeEnv()).json)).toBeUndefined();
  });
});
