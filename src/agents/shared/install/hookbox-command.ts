import { HookboxError } from "../../../core/errors.ts";
import { isAbsolutePath, joinPath } from "./paths.ts";

/** What deciding the hookbox executable for an agent's entries needs to know about this process. */
export interface CommandProbe {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The running hookbox binary (RuntimeHost.binaryPath); undefined when running from sources. */
  readonly binaryPath: string | undefined;
  /** The runtime running the sources, for the message when there is no binary. */
  readonly runtime: string;
  exists(path: string): Promise<boolean>;
}

export interface HookboxCommand {
  /** What the agent's entries run. */
  readonly path: string;
  /** Reasons the agent may not find it later: each one would switch every hook off (agents treat exit 127 as a non-blocking error). */
  readonly warnings: readonly string[];
}

const THEN_FAILS = "and then every hook fails, which agents treat as a non-blocking error: the guard is off";
const COPY_IT = "Copy hookbox somewhere lasting (e.g. ~/.local/bin/hookbox) and run install-agent with that copy, or pass --command";
const BUILD_DIRS: ReadonlySet<string> = new Set(["dist", "build", "out", "target"]);
const CHECKOUT_MARKERS = ["package.json", ".git", "build.ts", "Cargo.toml", "go.mod"];

function segments(path: string): string[] {
  return path.split(/[\\/]+/);
}

function temporaryDirs(env: CommandProbe["env"]): string[] {
  const dirs = [env.TMPDIR, env.TEMP, env.TMP, "/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/dev/shm"];
  return dirs.filter((dir): dir is string => typeof dir === "string" && dir.trim() !== "").map((dir) => dir.replace(/[\\/]+$/, ""));
}

async function locationWarnings(path: string, probe: CommandProbe): Promise<string[]> {
  const warnings: string[] = [];
  if (!(await probe.exists(path))) warnings.push(`${path} does not exist: the agent will not find it, ${THEN_FAILS}`);
  const temporary = temporaryDirs(probe.env).find((dir) => path.startsWith(`${dir}/`) || path.startsWith(`${dir}\\`));
  if (temporary !== undefined)
    warnings.push(`${path} is in a temporary directory (${temporary}): it may be cleaned away, ${THEN_FAILS}. ${COPY_IT}.`);
  const buildDir = await checkoutBuildDir(path, probe.exists);
  if (buildDir !== undefined)
    warnings.push(
      `${path} is the build output of a checkout (${buildDir}): a rebuild replaces it and a clean removes it, ${THEN_FAILS}. ${COPY_IT}.`,
    );
  return warnings;
}

/** The build directory of a checkout (dist/, build/ … beside a package.json, .git …) that holds `path`, if it is in one. */
export async function checkoutBuildDir(path: string, exists: (path: string) => Promise<boolean>): Promise<string | undefined> {
  const parts = segments(path);
  for (let i = parts.length - 2; i >= 1; i--) {
    if (!BUILD_DIRS.has(parts[i] as string)) continue;
    const checkout = parts.slice(0, i).join("/") || "/";
    const markers = await Promise.all(CHECKOUT_MARKERS.map((marker) => exists(joinPath(checkout, marker))));
    if (markers.some(Boolean)) return joinPath(checkout, parts[i] as string);
  }
  return undefined;
}

/**
 * The hookbox executable an agent's entries run: `--command` when given (a relative path made
 * absolute, since agents run hooks from wherever they are), else the running binary's absolute
 * path. A bare `hookbox` would depend on the agent's PATH, which the README never sets up.
 */
export async function chooseHookboxCommand(explicit: string | undefined, probe: CommandProbe): Promise<HookboxCommand> {
  if (explicit !== undefined) {
    if (explicit.trim() === "") throw new HookboxError("usage", "--command is empty: give the hookbox binary's absolute path");
    if (!/[\\/]/.test(explicit)) {
      return {
        path: explicit,
        warnings: [
          `--command ${explicit} is a bare name: the agent runs it only if it is on the agent's own PATH; when it is not, the agent gets exit 127, ${THEN_FAILS}. Prefer an absolute path.`,
        ],
      };
    }
    const path = isAbsolutePath(explicit) ? explicit : joinPath(probe.cwd, explicit.replace(/^\.[\\/]/, ""));
    return { path, warnings: await locationWarnings(path, probe) };
  }
  if (probe.binaryPath === undefined) {
    throw new HookboxError(
      "usage",
      `install-agent writes the absolute path of the hookbox binary into the agent's settings, and this hookbox runs from sources (${probe.runtime}), so there is no binary to point at. ` +
        "Build it (node_modules/.bin/bun build.ts) and run dist/hookbox install-agent … from a lasting copy, or pass --command /absolute/path/to/hookbox.",
    );
  }
  return { path: probe.binaryPath, warnings: await locationWarnings(probe.binaryPath, probe) };
}
