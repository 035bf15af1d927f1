// Each platform's Bun runtime, from the npm registry (the only network a build may use) through
// npm itself, checked against the integrity package-lock.json (or PINNED_RUNTIMES) holds, and
// cached: the release never downloads what Bun's cross-compiler would fetch unchecked.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { PINNED_RUNTIMES, type ReleaseTarget } from "./targets.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** $HOOKBOX_RELEASE_CACHE, else ~/.cache/hookbox-release (cache it in CI beside npm's cache). */
export function runtimeCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HOOKBOX_RELEASE_CACHE ?? join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "hookbox-release");
}

/** The Bun the project builds with: package.json's devDependency, which package-lock.json resolves. */
export function bunVersion(): string {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string; integrity?: string }>;
  };
  const version = lock.packages["node_modules/bun"]?.version;
  if (!version) throw new Error("package-lock.json has no bun: run npm install");
  return version;
}

function expectedIntegrity(pkg: string, version: string): string {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string; integrity?: string }>;
  };
  const locked = lock.packages[`node_modules/${pkg}`];
  const integrity = locked?.version === version ? locked.integrity : PINNED_RUNTIMES[`${pkg}@${version}`];
  if (!integrity)
    throw new Error(
      `no integrity known for ${pkg}@${version}: add \`npm view ${pkg}@${version} dist.integrity\` to PINNED_RUNTIMES in scripts/release/targets.ts`,
    );
  return integrity;
}

/** The path of `target`'s Bun runtime executable, fetched once per version and integrity. */
export function bunRuntime(target: ReleaseTarget, version: string, cacheDir: string): string {
  const integrity = expectedIntegrity(target.runtimePackage, version);
  const dir = join(cacheDir, `${target.runtimePackage.replace("/", "+")}@${version}`);
  const executable = join(dir, target.os === "windows" ? "bun.exe" : "bun");
  const marker = join(dir, "integrity");
  if (existsSync(executable) && existsSync(marker) && readFileSync(marker, "utf8") === integrity) return executable;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, ".fetch-"));
  try {
    const packed = JSON.parse(
      execFileSync("npm", ["pack", `${target.runtimePackage}@${version}`, "--pack-destination", work, "--json", "--silent"], {
        cwd: ROOT,
        encoding: "utf8",
      }),
    ) as { filename: string }[];
    const tarball = join(work, packed[0]?.filename ?? "");
    const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
    if (actual !== integrity)
      throw new Error(
        `${target.runtimePackage}@${version} from the registry has integrity ${actual}, not the ${integrity} pinned: refusing to build with it`,
      );
    const inside = `package/bin/${target.os === "windows" ? "bun.exe" : "bun"}`;
    execFileSync("tar", ["-xzf", tarball, "-C", work, inside]);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    renameSync(join(work, inside), executable);
    writeFileSync(marker, integrity);
    return executable;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
