import type { CapabilityIO } from "../../platform/capability-io.ts";
import { specialFileSystem } from "../paths/special.ts";
import { dirname, isAbsolute, join, normalize } from "../paths/posix.ts";

/**
 * /proc, /sys and /dev reached by a command's arguments, checked on the paths the arguments
 * resolve to, not on how they are spelled: `//proc`, `/./proc`, `/x/../proc`, `../../proc` from
 * the workspace and a workspace symlink to /proc all read /proc/<daemon pid>/environ (the
 * daemon's secrets). Every argument is read as a path (which words a program takes as paths is
 * its own business), and so is what follows each `=`, `:`, `,` and `@` in it (`--file=…`,
 * `host:…`, `@file`). Each reading is resolved against the command's working directory — and
 * against any directory a `-C`/`--directory` option moves the program to — twice: the way the
 * kernel walks it (every existing symlink followed, `..` taken after it) and lexically (the way
 * a program that cleans paths before opening them sees it). Either landing in a special file
 * system refuses the call; so does a symlink that cannot be resolved. Only /dev/null passes.
 */

/** File system lookups one call may cost; past it the call is refused (fail closed), not slowed. */
export const MAX_LOOKUPS = 8192;

const SEPARATOR = /[=:,@]/g;
/** Options that make a program change directory before it reads its other arguments. */
const CHDIR_LONG = /^(--directory|--chdir|--cwd|--working-directory|--workdir|--prefix|-chdir)(=|$)/;

/** The argument and what follows each separator in it: every way a program may read a path out of it. */
export function pathReadings(arg: string): string[] {
  const readings = new Set<string>([arg]);
  for (const match of arg.matchAll(SEPARATOR)) readings.add(arg.slice(match.index + 1));
  readings.delete("");
  return [...readings];
}

/** Directories the program may read relative paths from besides its cwd: values of -C, --directory … */
export function directoryOptions(argv: readonly string[]): { readonly index: number; readonly dir: string }[] {
  const dirs: { index: number; dir: string }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const long = CHDIR_LONG.exec(arg);
    const next = argv[i + 1];
    if (long) {
      const value = long[2] === "=" ? arg.slice(arg.indexOf("=") + 1) : next;
      if (value !== undefined && value !== "") dirs.push({ index: long[2] === "=" ? i : i + 1, dir: value });
    } else if (/^-[A-Za-z]*C$/.test(arg)) {
      if (next !== undefined && next !== "") dirs.push({ index: i + 1, dir: next });
    } else if (/^-C./.test(arg)) dirs.push({ index: i, dir: arg.slice(2) });
  }
  return dirs;
}

/** The special file system a resolved path is in; /dev/null is a sink, not a device anyone reads. */
function refusedRoot(path: string): string | undefined {
  return path === "/dev/null" ? undefined : specialFileSystem(path);
}

type Step =
  | { readonly kind: "missing" }
  | { readonly kind: "entry"; readonly real: string; readonly directory: boolean }
  | { readonly kind: "unresolvable"; readonly why: string };

class Unresolvable extends Error {}

/** Kernel-style resolution with a lookup budget, memoised for one call. */
class Resolver {
  private lookups = 0;
  private readonly steps = new Map<string, Promise<Step>>();

  constructor(private readonly io: CapabilityIO) {}

  /**
   * Where the kernel takes `path` (absolute, as written): each existing component resolved
   * (symlinks followed), `..` applied to the real directory reached so far; from the first
   * missing component on, the rest is appended lexically.
   */
  async resolve(path: string): Promise<string> {
    const parts = path.split("/");
    let current = "/";
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (part === "" || part === ".") continue;
      if (part === "..") {
        current = dirname(current);
        continue;
      }
      const next = join(current, part);
      const step = await this.step(next);
      if (step.kind === "unresolvable") throw new Unresolvable(`${next} ${step.why}`);
      if (step.kind === "missing") return normalize([next, ...parts.slice(i + 1)].join("/"));
      current = step.real;
      // Past a file the kernel stops (ENOTDIR); a program that cleans the path first does not.
      if (!step.directory && i < parts.length - 1) return normalize([current, ...parts.slice(i + 1)].join("/"));
    }
    return current;
  }

  /** `path`'s parent is a real directory: look at its last component. */
  private step(path: string): Promise<Step> {
    let step = this.steps.get(path);
    if (!step) {
      if (++this.lookups > MAX_LOOKUPS) throw new Unresolvable(`more than ${MAX_LOOKUPS} file system lookups would be needed to check the arguments`);
      step = this.look(path);
      this.steps.set(path, step);
    }
    return step;
  }

  private async look(path: string): Promise<Step> {
    let kind: string;
    try {
      kind = (await this.io.lstat(path)).kind;
    } catch (error) {
      // Missing, or not reachable by this user: the program cannot get there either.
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EACCES" || code === "ENAMETOOLONG") return { kind: "missing" };
      return { kind: "unresolvable", why: `cannot be looked at (${typeof code === "string" ? code : "error"})` };
    }
    if (kind !== "symlink") return { kind: "entry", real: path, directory: kind === "directory" };
    try {
      const real = normalize(await this.io.realPath(path));
      const target = await this.io.lstat(real).catch(() => undefined);
      return { kind: "entry", real, directory: target?.kind === "directory" };
    } catch {
      return { kind: "unresolvable", why: "is a symbolic link that cannot be resolved (dangling or a loop), so where it leads cannot be checked" };
    }
  }
}

/**
 * Why an argument is refused — the first one reaching /proc, /sys or /dev (other than /dev/null)
 * once resolved against `cwd` (a real directory), or one that cannot be checked — or undefined.
 */
export async function specialPathArgument(argv: readonly string[], cwd: string, io: CapabilityIO): Promise<string | undefined> {
  const resolver = new Resolver(io);
  const shown = (index: number): string => `argument ${index + 1} ${JSON.stringify(argv[index])}`;
  const bases = new Set([cwd]);
  for (const { index, dir } of directoryOptions(argv)) {
    const written = isAbsolute(dir) ? dir : `${cwd}/${dir}`;
    try {
      bases.add(normalize(written));
      bases.add(await resolver.resolve(written));
    } catch (error) {
      if (error instanceof Unresolvable) return `${shown(index)} cannot be checked: ${error.message}`;
      throw error;
    }
  }
  for (const [index, arg] of argv.entries()) {
    for (const reading of pathReadings(arg)) {
      const what = reading === arg ? shown(index) : `${shown(index)} (${JSON.stringify(reading)} in it)`;
      for (const base of isAbsolute(reading) ? [cwd] : bases) {
        const written = isAbsolute(reading) ? reading : `${base}/${reading}`;
        const lexical = normalize(written);
        const lexicalRoot = refusedRoot(lexical);
        if (lexicalRoot !== undefined) return `${what} resolves to ${lexical}, in ${lexicalRoot}`;
        let real: string;
        try {
          real = await resolver.resolve(written);
        } catch (error) {
          if (error instanceof Unresolvable) return `${what} cannot be checked: ${error.message}`;
          throw error;
        }
        const realRoot = refusedRoot(real);
        if (realRoot !== undefined) return `${what} resolves to ${real}, in ${realRoot}`;
      }
    }
  }
  return undefined;
}
