// The platforms a release builds: Bun's compile target, the npm package holding that platform's Bun
// runtime, and what its file must look like.

export interface ReleaseTarget {
  /** `<os>-<arch>[-variant]`: the file is hookbox-<name>[.exe], and `hookbox version` reports it. */
  readonly name: string;
  readonly bunTarget: Bun.Build.CompileTarget;
  /** The npm package holding this platform's Bun (bin/bun or bin/bun.exe). */
  readonly runtimePackage: string;
  readonly os: "linux" | "darwin" | "windows";
  readonly arch: "x64" | "arm64";
}

export const TARGETS: readonly ReleaseTarget[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64", os: "linux", arch: "x64" },
  // For x64 CPUs without AVX2 (before Haswell, some virtual machines): the other x64 build dies with SIGILL there.
  { name: "linux-x64-baseline", bunTarget: "bun-linux-x64-baseline", runtimePackage: "@oven/bun-linux-x64-baseline", os: "linux", arch: "x64" },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64", os: "linux", arch: "arm64" },
  { name: "darwin-arm64", bunTarget: "bun-darwin-arm64", runtimePackage: "@oven/bun-darwin-aarch64", os: "darwin", arch: "arm64" },
  { name: "darwin-x64", bunTarget: "bun-darwin-x64", runtimePackage: "@oven/bun-darwin-x64", os: "darwin", arch: "x64" },
  { name: "windows-x64", bunTarget: "bun-windows-x64", runtimePackage: "@oven/bun-windows-x64", os: "windows", arch: "x64" },
];

export function releaseFileName(target: ReleaseTarget): string {
  return `hookbox-${target.name}${target.os === "windows" ? ".exe" : ""}`;
}

/**
 * Integrity (npm's sha512) of runtime packages package-lock.json does not hold: bun's own
 * optionalDependencies, which the lock file pins, have no baseline build. Pin a new Bun version's
 * with `npm view <package>@<version> dist.integrity`.
 */
export const PINNED_RUNTIMES: Readonly<Record<string, string>> = {
  "@oven/bun-linux-x64-baseline@1.4.5": "sha512-s8yMwYcFnnrA178gji0gZbkE2WVDej/Ti1x770oPfihxyRxSMNhGhiAQNXV53aDeraZxksdvKV/RAdQBCd0qPA==",
};
