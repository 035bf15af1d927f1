// `npm run release`: one binary per platform in dist/release/ (hookbox-<os>-<arch>[-variant][.exe]),
// SHA256SUMS over them, and SHA256SUMS.minisig when a minisign key is given. Each binary is built
// by build.ts's compileBinary with that platform's Bun runtime (scripts/release/runtimes.ts), its
// bytecode laid out by startup profiles recorded once from this machine's build and published
// beside the binaries (startup-*.order): with them, the same commit rebuilds to the same bytes.
// Binaries this machine can execute (natively, or through qemu-user's binfmt) run build.ts's
// self-check; the others are checked by their headers.
//
//   npm run release -- [--targets linux-x64,linux-arm64] [--out dir] [--profiles dir]
//                      [--minisign-key file]   (password: $HOOKBOX_MINISIGN_PASSWORD, else asked)
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { compileBinary, prepareSources, recordStartupProfile, verifyBinary } from "../build.ts";
import type { BuildStamp } from "../src/core/version/index.ts";
import { hostTarget } from "./build-stamp.ts";
import { executableFormat } from "./release/formats.ts";
import { bunRuntime, bunVersion, runtimeCacheDir } from "./release/runtimes.ts";
import { SUMS_FILE, signSums, writeSums } from "./release/sums.ts";
import { TARGETS, releaseFileName, type ReleaseTarget } from "./release/targets.ts";

const ROOT = resolve(import.meta.dir, "..");
const PROFILES = ["startup-serve.order", "startup-worker.order"] as const;
/** Two compiles at a time: each holds a ~110 MB runtime and output in memory; CI machines have two cores. */
const PARALLEL = 2;

const { values: options } = parseArgs({
  options: { targets: { type: "string" }, out: { type: "string" }, profiles: { type: "string" }, "minisign-key": { type: "string" } },
});
const out = resolve(options.out ?? join(ROOT, "dist/release"));
const work = `${out}.work`;
const targets = options.targets ? options.targets.split(",").map(targetNamed) : TARGETS;

function targetNamed(name: string): ReleaseTarget {
  const target = TARGETS.find((t) => t.name === name);
  if (!target) throw new Error(`no release target ${name}: one of ${TARGETS.map((t) => t.name).join(", ")}`);
  return target;
}

/** The profiles the binaries' bytecode is laid out by: given (to rebuild a release), or recorded from this machine's build. */
async function startupProfiles(stamp: BuildStamp): Promise<string[]> {
  if (options.profiles) {
    for (const name of PROFILES) copyFileSync(join(resolve(options.profiles), name), join(out, name));
  } else {
    const host = join(work, "profile/hookbox");
    await compileBinary({ outfile: host, stamp });
    const recorded = await recordStartupProfile(host, mkdtempSync(join(work, "profile-")));
    if (recorded.length !== PROFILES.length) throw new Error(`recording the startup profiles wrote ${recorded.length} of ${PROFILES.length} files`);
    recorded.forEach((file, index) => copyFileSync(file, join(out, PROFILES[index] as string)));
  }
  // Bun writes the recordings private (0600); published files are readable like the binaries.
  for (const name of PROFILES) chmodSync(join(out, name), 0o644);
  return PROFILES.map((name) => join(out, name));
}

function headerOf(path: string): Uint8Array {
  const bytes = new Uint8Array(64 * 1024);
  const fd = openSync(path, "r");
  try {
    return bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** Build one target into out/, and check its header and that the application was appended to the runtime. */
async function buildTarget(target: ReleaseTarget, stamp: BuildStamp, profiles: readonly string[]): Promise<string> {
  const runtime = bunRuntime(target, Bun.version, runtimeCacheDir());
  // Compiled under the name users run it by: the name is embedded in the binary (its entry point's path).
  const built = join(work, target.name, target.os === "windows" ? "hookbox.exe" : "hookbox");
  await compileBinary({
    outfile: built,
    stamp: { ...stamp, target: target.name },
    cross: { target: target.bunTarget, executablePath: runtime },
    bytecodeOrder: profiles,
  });
  const format = executableFormat(headerOf(built));
  if (format?.os !== target.os || format.arch !== target.arch)
    throw new Error(`${target.name}: built a ${format ? `${format.os}-${format.arch}` : "unrecognised"} executable`);
  if (target.os === "darwin" && format.detail !== "signed")
    throw new Error(`${target.name}: the Mach-O has no code signature; macOS on Apple Silicon would refuse it`);
  if (statSync(built).size < statSync(runtime).size + 1024 * 1024)
    throw new Error(`${target.name}: ${built} is not larger than its Bun runtime: the application is missing`);
  const file = join(out, releaseFileName(target));
  renameSync(built, file);
  return file;
}

/** Why this machine cannot execute `file`, or undefined when it can (natively, or through a binfmt handler such as qemu-user's). */
function cannotRunHere(target: ReleaseTarget, file: string): string | undefined {
  if (target.os !== hostTarget().split("-")[0]) return `a ${target.os} binary on ${process.platform}`;
  const probe = spawnSync(file, ["--version"], { env: {}, timeout: 120_000, encoding: "utf8" });
  if (probe.error)
    return `${probe.error.message}${target.arch !== process.arch ? ` (no qemu-user binfmt handler for ${target.arch}: see .ci/install-tools)` : ""}`;
  return probe.status === 0 ? undefined : `--version exited ${probe.status}: ${probe.stderr.trim().slice(0, 200)}`;
}

async function inParallel<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

const started = performance.now();
if (Bun.version !== bunVersion())
  throw new Error(`this is Bun ${Bun.version}, the project builds with ${bunVersion()} (package-lock.json): run npm run release`);
rmSync(out, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
try {
  const stamp = await prepareSources(hostTarget());
  const profiles = await startupProfiles(stamp);
  const files = await inParallel(targets, PARALLEL, (target) => buildTarget(target, stamp, profiles));
  const ran: string[] = [];
  targets.forEach((target, index) => {
    const file = files[index] as string;
    const reason = cannotRunHere(target, file);
    if (reason) return console.log(`  --  ${target.name}: format and size checked, not run here (${reason})`);
    console.log(`  ${target.name}: self-check`);
    verifyBinary(file);
    ran.push(target.name);
  });
  const sums = writeSums(out);
  const key = options["minisign-key"];
  if (key) signSums(out, resolve(key), `hookbox ${stamp.commit} ${stamp.buildDate}`, process.env.HOOKBOX_MINISIGN_PASSWORD);
  for (const line of sums) {
    const name = line.slice(66);
    console.log(`${line.slice(0, 16)}…  ${(statSync(join(out, name)).size / 1024 / 1024).toFixed(1).padStart(6)} MiB  ${name}`);
  }
  console.log(
    `released ${files.length} binaries into ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${SUMS_FILE}${key ? ` and ${SUMS_FILE}.minisig` : ""}; ran here: ${ran.join(", ") || "none"}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
