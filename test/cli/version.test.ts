import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as catalog from "../../src/hooks/builtin/catalog.generated.ts";
import { versionFlag, versionInfo } from "../../src/core/version/index.ts";
import { catalogDigest, standardHooksDigest } from "../../src/hooks/builtin/standard-hooks.ts";
import { LoneBinary } from "../helpers/binary.ts";

const root = resolve(import.meta.dirname, "../..");

describe("versionFlag: --version answered before the command line loads", () => {
  it.each([
    [["--version"], "text"],
    [["-V"], "text"],
    [["-v"], "text"],
    [["-v", "--json"], "json"],
    [["run", "-v"], undefined],
    [["-v", "-V"], undefined],
    [["--version", "--json"], "json"],
    [["--json", "-V"], "json"],
    [["--version", "--help"], undefined],
    [["--version", "-V"], undefined],
    [["version"], undefined],
    [["--version", "--json", "x"], undefined],
    [[], undefined],
  ] as const)("%j → %s", (args, expected) => {
    expect(versionFlag(args)).toBe(expected);
  });
});

describe("from sources", () => {
  it("says so, and digests the standard hooks the sources hold", async () => {
    const info = await versionInfo(catalogDigest);
    expect(info).toMatchObject({ v: 1, target: "source", commit: "unknown", quickjs: "release-sync 0.32.0" });
    expect(info.standardHooksSha256).toBe(await standardHooksDigest(catalog));
  });
});

describe("the binary's version", () => {
  const binary = new LoneBinary();
  afterAll(() => binary.cleanup());

  it("version --json names the commit built, the target and the standard hooks of these sources", async () => {
    const run = await binary.run(["version", "--json"]);
    expect(run.code).toBe(0);
    const info = JSON.parse(run.stdout) as Record<string, unknown>;
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    expect(info.commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
    expect(info).toMatchObject({
      v: 1,
      target: `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`,
      standard_hooks_sha256: await standardHooksDigest(catalog),
    });
    expect(info.bun).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(info.build_date as string)).not.toBeNaN();
  });

  it("--version --json is the same JSON; --version alone is the version number; version lists every detail", async () => {
    const [json, flag, plain, text] = await Promise.all([
      binary.run(["version", "--json"]),
      binary.run(["--version", "--json"]),
      binary.run(["--version"]),
      binary.run(["version"]),
    ]);
    expect(flag.stdout).toBe(json.stdout);
    const info = JSON.parse(json.stdout) as { version: string; commit: string };
    expect(plain.stdout).toBe(`${info.version}\n`);
    expect(text.stdout.split("\n")[0]).toBe(`hookbox ${info.version}`);
    for (const label of ["commit", "built", "target", "bun", "quickjs", "standard hooks"])
      expect(text.stdout).toMatch(new RegExp(`^  ${label} +\\S`, "m"));
    expect(text.stdout).toContain(info.commit);
  });
});
