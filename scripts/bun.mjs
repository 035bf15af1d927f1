// Runs the project's Bun (the `bun` devDependency) for the npm scripts, with or without Bun's
// postinstall: that script only moves the platform package's binary
// (@oven/bun-<os>-<arch>/bin/bun) over the placeholder node_modules/bun/bin/bun.exe, which
// otherwise prints an error. With install scripts disabled (npm ci --ignore-scripts, npm's coming
// default) the binary is still in the platform package: this takes it from there.
// Usage: node scripts/bun.mjs <bun arguments>   (plain Node: it runs before anything is built)
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const modules = join(dirname(dirname(fileURLToPath(import.meta.url))), "node_modules");
const exe = process.platform === "win32" ? ".exe" : "";
const os = { darwin: "darwin", linux: "linux", win32: "windows" }[process.platform] ?? process.platform;
const arch = { x64: "x64", arm64: "aarch64" }[process.arch] ?? process.arch;
// The placeholder is a few hundred bytes of shell; Bun is ~100 MB.
const isBinary = (path) => existsSync(path) && statSync(path).size > 1_000_000;

const candidates = [
  join(modules, "bun/bin/bun.exe"),
  ...["", "-baseline", "-musl", "-musl-baseline"].map((variant) => join(modules, `@oven/bun-${os}-${arch}${variant}/bin/bun${exe}`)),
];
const bun = candidates.find(isBinary);
if (!bun) {
  console.error(
    `error: Bun is not installed: bun's postinstall did not run and no @oven/bun-${os}-${arch} package is in node_modules; allow the script (npm install-scripts approve bun && npm rebuild bun) or install without --omit=optional`,
  );
  process.exit(1);
}
const run = spawnSync(bun, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  console.error(`error: cannot run ${bun}: ${run.error.message}`);
  process.exit(1);
}
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status ?? 1);
