// The details build.ts stamps into a binary (src/core/version's BuildStamp): which sources, built how.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BuildStamp } from "../src/core/version/index.ts";
import { standardHooksDigest } from "../src/hooks/builtin/standard-hooks.ts";

const ROOT = resolve(import.meta.dirname, "..");

function git(args: readonly string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined; // not a checkout, or no git: the stamp says "unknown"
  }
}

/** Commit and date of the sources: the date is the commit's (or SOURCE_DATE_EPOCH), so a rebuild of the same commit is byte-identical. */
export function sourceIdentity(env: Readonly<Record<string, string | undefined>> = process.env): Pick<BuildStamp, "commit" | "buildDate"> {
  const commit = git(["rev-parse", "HEAD"]);
  const dirty = commit !== undefined && git(["status", "--porcelain"]) !== "";
  const epoch = env.SOURCE_DATE_EPOCH ?? (commit && !dirty ? git(["log", "-1", "--format=%ct"]) : undefined);
  const date = epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
  return { commit: commit ? `${commit}${dirty ? "-dirty" : ""}` : "unknown", buildDate: date.toISOString().replace(/\.\d{3}Z$/, "Z") };
}

/** The digest of the standard hooks as src/hooks/builtin/catalog.generated.ts holds them (write it first). */
export async function embeddedHooksDigest(): Promise<string> {
  return standardHooksDigest(await import("../src/hooks/builtin/catalog.generated.ts"));
}

/** `<os>-<arch>` of the machine running the build, as release targets are named. */
export function hostTarget(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `${os}-${process.arch}`;
}

/**
 * SHA-256 of every source a binary is built from (src/, sandbox/, handlers/, the lock file): two
 * builds embed the same code exactly when it is equal, committed or not. `emit` uses a daemon
 * only of the same build.
 */
export function sourcesDigest(): string {
  const hash = createHash("sha256");
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) hash.update(`${path.slice(ROOT.length)}\0`).update(readFileSync(path));
    }
  };
  for (const dir of ["src", "sandbox", "handlers"]) walk(resolve(ROOT, dir));
  hash.update(readFileSync(resolve(ROOT, "package-lock.json")));
  return hash.digest("hex");
}
