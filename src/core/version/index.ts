// src/core/version owns what this build of Hookbox is; it must not import any other wing (the standard hooks' digest is passed in).
// Its version and the details build.ts stamps in (commit, date, Bun, target, the standard hooks' digest). Imports no
// runtime: `hookbox --version`, doctor and /healthz all read it.
import packageJson from "../../../package.json" with { type: "json" };

/** What build.ts stamps into the binary (Bun.build's `define` of HOOKBOX_BUILD). */
export interface BuildStamp {
  /** The git commit built, with "-dirty" when the tree had changes; "unknown" outside a checkout. */
  readonly commit: string;
  /** ISO 8601, UTC: the commit's time (SOURCE_DATE_EPOCH overrides), so the same sources give the same bytes; a dirty tree's build time. */
  readonly buildDate: string;
  /** The Bun whose runtime is in the binary. */
  readonly bun: string;
  /** `<os>-<arch>[-baseline]`, e.g. linux-x64-baseline (no AVX2). */
  readonly target: string;
  /** SHA-256 (hex) of the embedded standard hooks and guest library (standardHooksDigest). */
  readonly standardHooksSha256: string;
  /** SHA-256 (hex) of every source built (scripts/build-stamp.ts sourcesDigest): what BUILD_ID names. */
  readonly sourcesSha256: string;
}

declare const HOOKBOX_BUILD: BuildStamp | undefined;

export interface VersionInfoV1 extends BuildStamp {
  readonly v: 1;
  readonly version: string;
  /** The QuickJS build that runs hooks: quickjs-emscripten's variant and version. */
  readonly quickjs: string;
}

export const VERSION: string = packageJson.version;
const QUICKJS = `release-sync ${packageJson.dependencies["@jitl/quickjs-wasmfile-release-sync"]}`;
const stamped: BuildStamp | undefined = typeof HOOKBOX_BUILD === "undefined" ? undefined : HOOKBOX_BUILD;

/**
 * What identifies this build: two binaries with the same id embed the same code and standard
 * hooks (`emit` uses a daemon only of the same build). From sources, the version alone.
 */
export const BUILD_ID: string = stamped ? `${VERSION}+${stamped.sourcesSha256.slice(0, 12)}` : `${VERSION}+sources`;

/**
 * This build's details; from sources (no stamp) commit, date and Bun are "unknown", the target is
 * "source" and the standard hooks' digest is `sourceDigest()`'s (src/hooks/builtin computes it:
 * the caller passes catalogDigest, which is asked only without a stamp).
 */
export async function versionInfo(sourceDigest: () => Promise<string>): Promise<VersionInfoV1> {
  const stamp = stamped ?? {
    commit: "unknown",
    buildDate: "unknown",
    bun: "unknown",
    target: "source",
    standardHooksSha256: await sourceDigest(),
    sourcesSha256: "unknown",
  };
  return { v: 1, version: VERSION, ...stamp, quickjs: QUICKJS };
}

/** `hookbox version --json` (and `--version --json`): the details in snake_case, like every JSON Hookbox prints. */
export function versionJson(info: VersionInfoV1): string {
  const { v, version, commit, buildDate, bun, target, quickjs, standardHooksSha256, sourcesSha256 } = info;
  const json = {
    v,
    version,
    commit,
    build_date: buildDate,
    bun,
    target,
    quickjs,
    standard_hooks_sha256: standardHooksSha256,
    sources_sha256: sourcesSha256,
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** `hookbox version`: one line per detail. */
export function formatVersion(info: VersionInfoV1): string {
  const rows: [string, string][] = [
    ["commit", info.commit],
    ["built", info.buildDate],
    ["target", info.target],
    ["bun", info.bun],
    ["quickjs", info.quickjs],
    ["standard hooks", `sha256:${info.standardHooksSha256}`],
  ];
  return `hookbox ${info.version}\n${rows.map(([name, value]) => `  ${name.padEnd(15)}${value}`).join("\n")}\n`;
}

/** The flags that ask for the version: `-v` too, as most tools take it (no command of Hookbox has a -v of its own). */
export const VERSION_FLAGS: readonly string[] = ["--version", "-V", "-v"];

/** `--version`, `-V` or `-v` alone, or with `--json`, answered before the command line loads; undefined for anything else. */
export function versionFlag(args: readonly string[]): "text" | "json" | undefined {
  const asked = args.filter((arg) => VERSION_FLAGS.includes(arg)).length === 1;
  if (!asked || args.length > 2) return undefined;
  if (args.length === 1) return "text";
  return args.includes("--json") ? "json" : undefined;
}
