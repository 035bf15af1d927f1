import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, relative } from "node:path";

/** Every path under `dir` and what is there ("dir", "file <sha256>", "link <target>", "socket" …): an account's state, to compare. */
export function snapshot(dir: string): Map<string, string> {
  const state = new Map<string, string>();
  if (!existsSync(dir)) return state;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (!info) continue;
    const what = info.isDirectory()
      ? "dir"
      : info.isFile()
        ? `file ${createHash("sha256").update(readFileSync(path)).digest("hex")}`
        : info.isSymbolicLink()
          ? `link ${readlinkSync(path)}`
          : info.isSocket()
            ? "socket"
            : "other";
    state.set(relative(dir, path), what);
  }
  return state;
}

/** What differs between two snapshots: paths added, removed, changed. */
export function difference(before: Map<string, string>, after: Map<string, string>): { added: string[]; removed: string[]; changed: string[] } {
  return {
    added: [...after.keys()].filter((path) => !before.has(path)).sort(),
    removed: [...before.keys()].filter((path) => !after.has(path)).sort(),
    changed: [...after.keys()].filter((path) => before.has(path) && before.get(path) !== after.get(path)).sort(),
  };
}

/** Processes whose command line names `text` (a daemon started from a HOME names its socket there): Linux's /proc. */
export function processesNaming(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      if (command.includes(text)) found.push(`${pid}: ${command.trim()}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * SIGKILL every process naming `text` (the daemon an emit started from a test's HOME, and its
 * workers) and wait until they are gone, so removing that HOME does not race their writes.
 */
export async function killProcessesNaming(text: string): Promise<void> {
  for (let round = 0; round < 100; round++) {
    const found = processesNaming(text);
    if (found.length === 0) return;
    for (const line of found) {
      try {
        process.kill(Number(line.split(":")[0]), "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
