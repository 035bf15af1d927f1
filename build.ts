// Builds dist/hookbox, the single binary (`npm run build`), then proves it carries what it needs:
// copied alone into an empty directory, with no environment, beside a hostile .env and
// bunfig.toml, it must pass its own `doctor` and must not load either file.
// scripts/release.ts builds every platform's binary with the same functions.
// It then builds dist/lib: hookbox/client and hookbox/agent-sdk as package.json exports them.
import { mkdtempSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { embeddedHooksDigest, hostTarget, sourceIdentity, sourcesDigest } from "./scripts/build-stamp.ts";
import { buildLibraries } from "./scripts/build-libraries.ts";
import { CATALOG_FILE, PRECOMPILED_FILE, renderCatalog, renderPrecompiled } from "./scripts/embed-handlers.ts";
import { TS_LIB_FILE, renderTsLib } from "./scripts/embed-ts-lib.ts";
import type { BuildStamp } from "./src/core/version/index.ts";

const root = import.meta.dir;
const STARTUP_JIT_POLICY = 4;

export interface BinaryBuild {
  readonly outfile: string;
  readonly stamp: BuildStamp;
  /** Another platform's binary: Bun's name for it and the path of that platform's Bun runtime. */
  readonly cross?: { readonly target: Bun.Build.CompileTarget; readonly executablePath: string };
  readonly bytecodeOrder?: readonly string[];
}

/** The standard hooks (handlers/, as sources and compiled) and TypeScript's lib declarations go inside the binary as generated string constants: write them, then stamp. */
export async function prepareSources(target: string): Promise<BuildStamp> {
  writeFileSync(CATALOG_FILE, renderCatalog());
  writeFileSync(PRECOMPILED_FILE, await renderPrecompiled());
  writeFileSync(TS_LIB_FILE, renderTsLib());
  return { ...sourceIdentity(), bun: Bun.version, target, standardHooksSha256: await embeddedHooksDigest(), sourcesSha256: sourcesDigest() };
}

/**
 * The TypeScript compiler `hookbox check` loads goes in gzipped and is evaluated when first
 * imported. Compiled to bytecode with the rest of the program it would add 16 MiB to the binary;
 * this way 1.6 MiB, for ~150 ms more the first time `check` runs (parsing it). typescript.js
 * is a script that defines `ts`: run without `require` and `process` it builds no `ts.sys` (the
 * checker is given its files, src/hooks/check/typecheck.ts) and reaches for no Node API.
 */
function compressedTypescript(): Bun.BunPlugin {
  return {
    name: "compressed-typescript",
    setup(build) {
      build.onResolve({ filter: /^typescript$/ }, () => ({ path: "typescript", namespace: "compressed-typescript" }));
      build.onLoad({ filter: /.*/, namespace: "compressed-typescript" }, () => {
        // The same path in every build, under the checkout: the path is part of this module's
        // text, and Bun's chunk layout follows the modules' text — a fresh temporary directory
        // per build gave every build different bytes. Written atomically: release compiles two
        // targets at once, and both write the same bytes here.
        const gz = join(TYPESCRIPT_CACHE, "typescript.js.gz");
        mkdirSync(TYPESCRIPT_CACHE, { recursive: true });
        const partial = `${gz}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        writeFileSync(partial, Bun.gzipSync(readFileSync(Bun.resolveSync("typescript", root)), { level: 9 }));
        renameSync(partial, gz);
        const contents = `import gz from ${JSON.stringify(gz)} with { type: "file" };
const source = new TextDecoder().decode(Bun.gunzipSync(await Bun.file(gz).bytes()));
export default new Function("module", "require", "process", source + "\\nreturn ts;")(undefined, undefined, undefined);
`;
        return { loader: "js", contents };
      });
    },
  };
}

/** Where the build keeps the gzipped TypeScript compiler it embeds (see compressedTypescript). */
const TYPESCRIPT_CACHE = join(root, "node_modules", ".cache", "hookbox-build");

export async function compileBinary({ outfile, stamp, cross, bytecodeOrder = [] }: BinaryBuild): Promise<void> {
  mkdirSync(dirname(outfile), { recursive: true });
  const result = await Bun.build({
    plugins: [compressedTypescript()],
    // The second entry is the sandbox worker thread of emit without a daemon (new Worker needs a file).
    entrypoints: [resolve(root, "src/main.ts"), resolve(root, "src/sandbox-thread.ts")],
    target: "bun",
    minify: { whitespace: true, syntax: true, identifiers: false },
    // Startup is the cost of every `hookbox emit`: precompiled bytecode skips parsing, and
    // splitting keeps what a command does not use (the daemon, the sandbox, zod …) in chunks
    // that are only loaded when imported. A hello-world binary starts in ~6 ms; so does emit's path.
    format: "esm",
    splitting: true,
    bytecode: true,
    // What `hookbox version` reports (src/core/version).
    define: { HOOKBOX_BUILD: JSON.stringify(stamp) },
    compile: {
      outfile,
      ...(cross ? { target: cross.target, executablePath: cross.executablePath } : {}),
      // Profile-guided layout: the bytecode that starting the daemon and a sandbox worker runs
      // sits together at the front, so fewer of the binary's pages are read (~2 MiB less resident
      // per process) and startup is shorter. Recorded from this very build (recordStartupProfile).
      ...(bytecodeOrder.length > 0 ? { bytecodeOrder: [...bytecodeOrder] } : {}),
      // Startup code (module bodies, schema construction, the registry load) runs once: with the
      // JIT's tier-up thresholds ×4 it stays interpreted instead of being compiled for nothing
      // (~2.5 MiB less resident for the daemon). src/platform/bun.ts restores 1 once started.
      jitPolicy: STARTUP_JIT_POLICY,
      // A hook runner is started inside repositories it does not trust: their .env and
      // bunfig.toml (which can preload code) must never configure it.
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("bun build failed");
  }
}

interface Check {
  readonly name: string;
  readonly args: readonly string[];
  readonly expect: (stdout: string) => string | undefined;
}

const CHECKS: readonly Check[] = [
  {
    name: "version",
    args: ["version", "--json"],
    expect: (out) => {
      const info = JSON.parse(out) as { version?: string; commit?: string };
      return /^\d+\.\d+\.\d+/.test(info.version ?? "") && info.commit ? undefined : `unexpected version output: ${out}`;
    },
  },
  {
    name: "doctor (embedded wasm in a worker process, TypeScript transpiler)",
    args: ["doctor", "--json"],
    expect: (out) => {
      const report = JSON.parse(out) as { ok: boolean; checks: { name: string; ok: boolean }[] };
      return report.ok && report.checks.length >= 2 ? undefined : `doctor failed: ${out}`;
    },
  },
  {
    name: "check (the bundled TypeScript compiler, on the standard hooks)",
    args: ["check", "--builtin", "all", "--json"],
    expect: (out) => {
      const report = JSON.parse(out) as { ok: boolean; handlers: number };
      return report.ok && report.handlers >= 1 ? undefined : `check failed: ${out}`;
    },
  },
];

/** Run every check on a lone copy of the binary, in an empty directory with a hostile .env and bunfig.toml. */
export function verifyBinary(outfile: string): void {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-build-check-"));
  try {
    const binary = join(dir, "hookbox");
    copyFileSync(outfile, binary);
    const marker = join(dir, "PRELOADED");
    writeFileSync(join(dir, "evil.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "loaded");\n`);
    writeFileSync(join(dir, "bunfig.toml"), `preload = ["./evil.ts"]\n`);
    writeFileSync(join(dir, ".env"), `HOOKBOX_DOTENV_LOADED=1\n`);
    for (const check of CHECKS) {
      // HOME only, and a scratch one: doctor looks at (and may create) the user's data directory.
      const run = Bun.spawnSync([binary, ...check.args], { cwd: dir, env: { HOME: join(dir, "home") }, stdout: "pipe", stderr: "pipe" });
      const stdout = run.stdout.toString();
      if (run.exitCode !== 0) throw new Error(`check "${check.name}" exited ${run.exitCode}: ${run.stderr.toString()}`);
      const problem = check.expect(stdout);
      if (problem) throw new Error(`check "${check.name}": ${problem}`);
      console.log(`  ok  ${check.name}`);
    }
    if (existsSync(marker)) throw new Error("the binary loaded bunfig.toml from its working directory");
    console.log("  ok  ignores .env and bunfig.toml in the working directory");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Run the fresh binary the way it starts most often with BUN_BYTECODE_ORDER_OUT set, and return
 * the files it wrote: a sandbox worker (every daemon start and every first event after idle
 * starts one), then `serve` with one hook up to its first answered event.
 */
export async function recordStartupProfile(outfile: string, dir: string): Promise<string[]> {
  const worker = join(dir, "worker.order");
  const serve = join(dir, "serve.order");
  const spawned = Bun.spawn([outfile, "__sandbox-worker"], {
    env: { BUN_BYTECODE_ORDER_OUT: worker },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  const reader = spawned.stdout.getReader();
  for (let text = ""; !text.includes("ready");) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  spawned.stdin.end();
  await spawned.exited;
  const hooks = join(dir, "hooks/probe");
  mkdirSync(hooks, { recursive: true });
  writeFileSync(join(hooks, "hook.yaml"), "id: probe\nevents: [PreToolUse]\nhandler: ./handler.ts\n");
  writeFileSync(
    join(hooks, "handler.ts"),
    "export default (e: { tool_name?: string }) => ({ action: e.tool_name === 'Bash' ? 'deny' : 'continue' });\n",
  );
  const socket = join(dir, "hookbox.sock");
  const daemon = Bun.spawn([outfile, "serve", "--hooks", join(dir, "hooks"), "--socket", socket, "--data-dir", join(dir, "data")], {
    env: { HOME: dir, BUN_BYTECODE_ORDER_OUT: serve },
    stdout: "ignore",
    stderr: "ignore",
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answered = await fetch("http://localhost/v1/events/PreToolUse", {
      method: "POST",
      body: JSON.stringify({ session_id: "s", tool_name: "Write", tool_input: {} }),
      headers: { "content-type": "application/json" },
      unix: socket,
    } as RequestInit)
      .then((r) => r.status < 500)
      .catch(() => false);
    if (answered || Date.now() > deadline) break;
    await Bun.sleep(20);
  }
  daemon.kill("SIGTERM");
  await daemon.exited;
  return [serve, worker].filter((file) => existsSync(file));
}

/** This machine's binary, its bytecode laid out by the startup profiles recorded from a first build of it into profileDir. */
export async function buildProfiled(outfile: string, stamp: BuildStamp, profileDir: string): Promise<string[]> {
  await compileBinary({ outfile, stamp });
  const profiles = await recordStartupProfile(outfile, profileDir);
  await compileBinary({ outfile, stamp, bytecodeOrder: profiles });
  return profiles;
}

if (import.meta.main) {
  const started = performance.now();
  const outfile = resolve(root, "dist/hookbox");
  const profileDir = mkdtempSync(join(tmpdir(), "hookbox-build-profile-"));
  try {
    const profiles = await buildProfiled(outfile, await prepareSources(hostTarget()), profileDir);
    const size = statSync(outfile).size;
    console.log(
      `built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MiB, bytecode laid out by ${profiles.length} startup profiles) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
  verifyBinary(outfile);
  const libraries = performance.now();
  await buildLibraries(root);
  console.log(
    `built dist/lib (hookbox/client, hookbox/agent-sdk: modules and declarations) in ${((performance.now() - libraries) / 1000).toFixed(1)} s`,
  );
}
