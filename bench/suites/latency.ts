// Issue 8 A: one PreToolUse event (a secret-path check) answered by `hookbox serve` over its
// unix socket with 1 and with 10 sandboxed hooks, against the same check as a process-per-
// event command hook (bash+jq, python3, node, a bun-compiled binary), @sebastianwessel/quickjs
// running the same TypeScript, and the raw quickjs-emscripten floor — side by side, one run.
// The daemon and bare Hono are each asked with Bun's fetch and with a minimal keep-alive HTTP/1.1
// client (bench/http-client.ts), as an orchestrator holding a connection would; the floors
// (bare Hono, the raw worker hop, the raw guest call) say what is physically left.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { loadQuickJs } from "@sebastianwessel/quickjs";
import quickjsVariant from "@jitl/quickjs-wasmfile-release-sync";
import { compileHandler } from "../../sandbox/index.ts";
import { BINARY, compiled, ensureBinary, post, ROOT, runProcess, startBareHono, startDaemon, WRITE_EVENT } from "../env.ts";
import { connectRawHttp } from "../http-client.ts";
import { fmtUs, machine, sideBySide, table, writeSection, type Summary } from "../lib.ts";
import { rawModule, rawWarm } from "../raw-quickjs.ts";
import { rawWorkerIpc } from "../raw-worker-client.ts";

const require = createRequire(import.meta.url);

/**
 * BENCH_BASE=<another hookbox binary>: its daemon with 1 and 10 hooks runs beside this build's,
 * in the same rounds (a change judged against the build before it, on a machine whose load moves).
 */
const BASE = process.env.BENCH_BASE;

export async function run(): Promise<string> {
  ensureBinary();
  const one = await startDaemon(1);
  const ten = await startDaemon(10);
  const base = BASE ? { one: await startDaemon(1, [], BASE), ten: await startDaemon(10, [], BASE) } : undefined;
  const bare = await startBareHono();
  const bunHook = compiled("check-bun", "bench/hooks/check-bun.ts");
  const payload = JSON.stringify(WRITE_EVENT);
  const native = { ...WRITE_EVENT, event_type: "PreToolUse" };
  const handlerTs = readFileSync(join(ROOT, "bench/hooks/secret-check.ts"), "utf8");

  const compiledHandler = await compileHandler(handlerTs, "secret-check.ts");
  if (!compiledHandler.ok) throw new Error(compiledHandler.failure.message);
  const raw = rawWarm(
    await rawModule(new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")))),
    compiledHandler.handler.code,
  );
  const { runSandboxed } = await loadQuickJs(quickjsVariant as never);
  // The same TypeScript, run the way @sebastianwessel/quickjs runs code: a module per call.
  const wesselCode = `${handlerTs.replace("export default function handler", "function handler")}\nexport default handler(env.EVENT);`;
  const wesselOptions = { transformTypescript: true, env: { EVENT: WRITE_EVENT } };
  const nativeBody = JSON.stringify(native);
  const keepAlive = async (socket: string) => {
    const connection = await connectRawHttp(socket);
    const reply = await connection.post("/v1/events/PreToolUse", nativeBody);
    if (reply.status !== 200 || !reply.text.includes('"decision":"allow"')) throw new Error(`${socket} answered ${reply.status} ${reply.text}`);
    return connection;
  };
  const [oneKeep, tenKeep, bareKeep] = await Promise.all([keepAlive(one.socket), keepAlive(ten.socket), keepAlive(bare.socket)]);
  const baseKeep = base ? { one: await keepAlive(base.one.socket), ten: await keepAlive(base.ten.socket) } : undefined;
  const baseRows = baseKeep
    ? [
        { name: "base build: hookbox serve, 1 hook (keep-alive client)", run: () => baseKeep.one.post("/v1/events/PreToolUse", nativeBody) },
        { name: "base build: hookbox serve, 10 hooks (keep-alive client)", run: () => baseKeep.ten.post("/v1/events/PreToolUse", nativeBody) },
      ]
    : [];
  const rawWorker = rawWorkerIpc(compiledHandler.handler.code);
  await rawWorker.ready;

  const spawned = (name: string, command: string[]) => ({ name, run: () => runProcess(command, payload), perRound: 6, warmup: 2 });
  const rows = await sideBySide(
    [
      { name: "hookbox serve, 1 hook (unix socket)", run: () => post(one.socket, "/v1/events/PreToolUse", native) },
      { name: "hookbox serve, 10 hooks (unix socket)", run: () => post(ten.socket, "/v1/events/PreToolUse", native) },
      { name: "hookbox serve, 1 hook (keep-alive client)", run: () => oneKeep.post("/v1/events/PreToolUse", nativeBody) },
      { name: "hookbox serve, 10 hooks (keep-alive client)", run: () => tenKeep.post("/v1/events/PreToolUse", nativeBody) },
      ...baseRows,
      { name: "floor: bare Hono (fetch)", run: () => post(bare.socket, "/v1/events/PreToolUse", native) },
      { name: "floor: bare Hono (keep-alive client)", run: () => bareKeep.post("/v1/events/PreToolUse", nativeBody) },
      { name: "floor: raw worker hop (warm call in a worker process, Bun IPC)", run: () => rawWorker.call(WRITE_EVENT) },
      { name: "raw quickjs-emscripten warm call (floor)", run: () => raw(payload) },
      {
        name: "@sebastianwessel/quickjs, same TypeScript",
        run: () => runSandboxed(async ({ evalCode }) => evalCode(wesselCode), wesselOptions),
        perRound: 20,
        warmup: 5,
      },
      spawned("command hook: bash + jq", ["/bin/bash", join(ROOT, "bench/hooks/check.sh")]),
      spawned("command hook: python3", ["python3", join(ROOT, "bench/hooks/check.py")]),
      spawned("command hook: node", [process.env.BENCH_NODE ?? "node", join(ROOT, "bench/hooks/check.mjs")]),
      spawned("command hook: bun-compiled binary", [bunHook]),
    ],
    { rounds: 8, perRound: 250, warmup: 200 },
  );
  for (const connection of [oneKeep, tenKeep, bareKeep, ...(baseKeep ? [baseKeep.one, baseKeep.ten] : [])]) connection.close();
  await base?.one.stop();
  await base?.ten.stop();
  rawWorker.kill();
  await one.stop();
  await ten.stop();
  await bare.stop();
  const by = (prefix: string): Summary => rows.find((r) => r.name.startsWith(prefix)) as Summary;
  const node = by("command hook: node");
  const wessel = by("@sebastianwessel");
  const guest = by("raw quickjs-emscripten warm call");
  const hop = by("floor: raw worker hop");
  const verdict = (ok: boolean): string => (ok ? "met" : "**missed**");
  const clients = [
    { label: "Bun's fetch", one: by("hookbox serve, 1 hook (unix"), ten: by("hookbox serve, 10 hooks (unix"), bare: by("floor: bare Hono (fetch)") },
    {
      label: "keep-alive client",
      one: by("hookbox serve, 1 hook (keep"),
      ten: by("hookbox serve, 10 hooks (keep"),
      bare: by("floor: bare Hono (keep"),
    },
  ];
  const targets = clients
    .map(({ label, one: h1, ten: h10 }) => {
      const nodeRatio = node.p50Us / h1.p50Us;
      const wesselRatio = wessel.p50Us / h1.p50Us;
      const tenRatio = h10.p50Us / h1.p50Us;
      return [
        `| 1 hook ≥ 200× faster than the node command hook (p50), ${label} | ${nodeRatio.toFixed(0)}× (${fmtUs(node.p50Us)} vs ${fmtUs(h1.p50Us)}) | ${verdict(nodeRatio >= 200)} |`,
        `| 1 hook ≥ 30× faster than @sebastianwessel/quickjs (p50), ${label} | ${wesselRatio.toFixed(0)}× (${fmtUs(wessel.p50Us)} vs ${fmtUs(h1.p50Us)}) | ${verdict(wesselRatio >= 30)} |`,
        `| 10 hooks ≤ 4× the 1-hook time (p50), ${label} | ${tenRatio.toFixed(2)}× | ${verdict(tenRatio <= 4)} |`,
      ].join("\n");
    })
    .join("\n");
  // What no daemon built this way can beat: the HTTP round trip of a server that does nothing,
  // plus one process hop carrying a warm guest call.
  const floors = clients
    .map(({ label, one: h1, bare: b }) => {
      const floor = b.p50Us + hop.p50Us;
      return `| ${label} | ${fmtUs(b.p50Us)} | ${fmtUs(hop.p50Us)} | ${fmtUs(floor)} | ${fmtUs(h1.p50Us)} | ${fmtUs(h1.p50Us - floor)} | ${fmtUs(Math.min(node.p50Us / 200, wessel.p50Us / 30))} |`;
    })
    .join("\n");
  return `## A. One PreToolUse event, end to end (issue 8)

${machine()}. binary: ${BINARY.replace(ROOT + "/", "")}. Every contender runs the same secret-path check on a
Claude Code PreToolUse payload (a Write to \`src/app.ts\`, allowed after the full check). Daemon
requests are HTTP over the unix socket from this process; command hooks are spawned per event with
the payload on stdin, as an agent does; @sebastianwessel/quickjs and the floor run in-process.

${table(rows, (clients[0] as (typeof clients)[number]).one.name)}

Each target is judged with both clients (the client is named in each row):

| target | measured | |
|---|---:|---|
${targets}

What is physically left (p50): the floor is bare Hono answering over the same socket with the same
client, plus the raw worker hop (a warm quickjs-emscripten call in a worker process over Bun's IPC
channel, the guest itself ${fmtUs(guest.p50Us)}); the budget is the tighter of the two targets'
allowance for one hook.

| client | bare Hono | raw worker hop | floor sum | hookbox, 1 hook | hookbox − floor | budget (node ÷ 200, quickjs ÷ 30) |
|---|---:|---:|---:|---:|---:|---:|
${floors}

The 10 hooks of an event run as one chain in one sandbox worker (one round trip); each hook
still gets its own WebAssembly instance, limits and audit record.${baseNote()}`;

  function baseNote(): string {
    if (!BASE) return "";
    const ratio = (prefix: string, now: string): string => (by(prefix).p50Us / by(now).p50Us).toFixed(2);
    return `

Beside this build, in the same rounds, the build \`${BASE}\` (BENCH_BASE): base p50 ÷ this build's p50 is
**${ratio("base build: hookbox serve, 1 hook", "hookbox serve, 1 hook (keep")}×** with 1 hook and **${ratio("base build: hookbox serve, 10 hooks", "hookbox serve, 10 hooks (keep")}×** with 10 (keep-alive client).`;
  }
}

if (import.meta.main) writeSection("latency", await run());
