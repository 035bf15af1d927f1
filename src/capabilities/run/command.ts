import type { CapabilityIO } from "../../platform/capability-io.ts";
import { basename, isAbsolute, normalize } from "../paths/posix.ts";

/**
 * A command of a run grant, resolved once when the hook loads: a name is looked up on the
 * daemon's PATH then (relative PATH entries skipped: "." would let the workspace pick the
 * binary), so a later PATH change or a planted binary cannot change what a grant runs.
 */
export interface CommandRef {
  /** As written in the YAML (git, /usr/bin/git). */
  readonly name: string;
  /** Absolute path found; undefined when it was not found (operator entries then match by name only). */
  readonly path: string | undefined;
  /** The file behind `path` with symlinks resolved (awk → mawk). */
  readonly realPath: string | undefined;
}

/** `missing`: well-formed but not on this machine (the grant is then inert); otherwise the grant itself is wrong. */
export type ResolvedCommand = { ok: true; ref: CommandRef } | { ok: false; error: string; missing: boolean };

export async function resolveCommand(name: string, pathEnv: string | undefined, io: CapabilityIO): Promise<ResolvedCommand> {
  if (name.includes("/")) {
    if (!isAbsolute(name))
      return { ok: false, error: `${JSON.stringify(name)}: use a command name (looked up on PATH) or an absolute path`, missing: false };
    const path = normalize(name);
    if (!(await io.isExecutable(path))) return { ok: false, error: `${path} is not an executable file`, missing: true };
    return { ok: true, ref: { name, path, realPath: await io.realPath(path).catch(() => path) } };
  }
  const dirs = (pathEnv ?? "").split(":").filter((dir) => isAbsolute(dir));
  for (const dir of dirs) {
    const candidate = normalize(`${dir}/${name}`);
    if (await io.isExecutable(candidate))
      return { ok: true, ref: { name, path: candidate, realPath: await io.realPath(candidate).catch(() => candidate) } };
  }
  return { ok: false, error: `${JSON.stringify(name)} was not found on PATH (${dirs.join(":") || "empty"})`, missing: true };
}

/** Every name a command goes by: checked against allow-all programs and refused argument classes. */
export function commandNames(ref: CommandRef): string[] {
  const names = [basename(ref.name), ref.path && basename(ref.path), ref.realPath && basename(ref.realPath)];
  return [...new Set(names.filter((name): name is string => Boolean(name)))];
}

/** Two references to the same program: same name as written, same path, or same real file. */
export function sameCommand(a: CommandRef, b: CommandRef): boolean {
  if (a.name === b.name) return true;
  if (a.path !== undefined && a.path === b.path) return true;
  return a.realPath !== undefined && a.realPath === b.realPath;
}

/** A deny.run entry (a name or a path) hits a command when it names any of its names or paths. */
export function denyHits(entry: CommandRef, command: CommandRef): boolean {
  if (sameCommand(entry, command)) return true;
  const names = commandNames(command);
  return !entry.name.includes("/") && names.includes(entry.name);
}
