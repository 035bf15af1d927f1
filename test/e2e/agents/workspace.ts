// One scratch world per agent run: a project the agent works in, a HOME it reads its settings
// from, a runtime dir where a Hookbox daemon's socket may live. Nothing of the developer's own
// HOME, keys or settings reaches the agent (its environment is built from `baseEnv`).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export type Files = Readonly<Record<string, string>>;

export class AgentWorkspace {
  readonly root: string;
  readonly project: string;
  readonly home: string;
  /** XDG_RUNTIME_DIR for the agent and its hooks: a daemon started here is the one `hookbox emit` finds. */
  readonly runtimeDir: string;

  constructor(prefix = "hookbox-agent-e2e-") {
    this.root = mkdtempSync(join(tmpdir(), prefix));
    this.project = join(this.root, "project");
    this.home = join(this.root, "home");
    this.runtimeDir = join(this.root, "run");
    for (const dir of [this.project, join(this.home, "tmp"), this.runtimeDir]) mkdirSync(dir, { recursive: true });
  }

  /** Write files (relative path → content) under the project or HOME. */
  write(base: "project" | "home", files: Files): void {
    const dir = base === "project" ? this.project : this.home;
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  }

  /**
   * Merge `patch` into a JSON file under the project or HOME (created if absent): objects merge
   * key by key, anything else is replaced. How hook settings are added beside a client's own.
   */
  mergeJson(base: "project" | "home", path: string, patch: Readonly<Record<string, unknown>>): void {
    const file = join(base === "project" ? this.project : this.home, path);
    const current = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(deepMerge(current, patch), null, 2)}\n`);
  }

  /** The environment every agent starts from: a PATH, the scratch HOME and TMPDIR, the scratch runtime dir. */
  baseEnv(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: this.home,
      TMPDIR: join(this.home, "tmp"),
      LANG: "C.UTF-8",
      XDG_RUNTIME_DIR: this.runtimeDir,
    };
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function deepMerge(base: Readonly<Record<string, unknown>>, patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) merged[key] = isObject(value) && isObject(merged[key]) ? deepMerge(merged[key], value) : value;
  return merged;
}
