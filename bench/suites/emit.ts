// Issue 8 C: `hookbox emit --agent claude` as a whole process, the way Claude Code runs a command
// hook (payload on stdin, answer on stdout), with a daemon running and without one (evaluating
// the same hook directory in-process), against a Bun-compiled hello-world, the node command hook,
// and the floor: the least an emit can do (read stdin, one request over the socket, print), with
// the cheapest I/O Bun has (blocking libc calls) and with Bun.stdin + fetch.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, compiled, ensureBinary, ROOT, runProcess, startDaemon, WRITE_EVENT } from "../env.ts";
import { fmtUs, machine, QUICK, sideBySide, table, verdict, writeSection, type Summary } from "../lib.ts";

const DENY_EVENT = { ...WRITE_EVENT, tool_input: { file_path: "/home/dev/project/.env", content: "TOKEN=1\n" } };

interface Check {
  readonly payload: unknown;
  readonly accepts: (stdout: string, status: number | null) => boolean;
  readonly expected: string;
}

const denies = (stdout: string, status: number | null): boolean =>
  status === 0 &&
  (JSON.parse(stdout || "{}") as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision === "deny";
const allowsSilently = (stdout: string, status: number | null): boolean => status === 0 && stdout.trim() === "";
const nativeDecision =
  (decision: string) =>
  (stdout: string, status: number | null): boolean =>
    status === 0 && (JSON.parse(stdout || "{}") as { decision?: string }).decision === decision;

/** Run the contender once per check, as measured, and insist on its answer. */
function verify(name: string, command: readonly string[], env: Record<string, string>, checks: readonly Check[]): void {
  for (const check of checks) {
    const [program, ...args] = command as [string, ...string[]];
    const result = spawnSync(program, args, { env, input: JSON.stringify(check.payload), encoding: "utf8", timeout: 30_000 });
    let ok = false;
    try {
      ok = check.accepts(result.stdout, result.status);
    } catch {
      ok = false;
    }
    if (!ok)
      throw new Error(
        `${name}: expected ${check.expected}, got exit ${result.status} stdout ${JSON.stringify(result.stdout)} stderr ${JSON.stringify(result.stderr)}`,
      );
  }
}

export async function run(): Promise<string> {
  ensureBinary();
  const daemon = await startDaemon(1);
  const hooksDir = join(daemon.home, "hooks");
  // No daemon: a HOME whose runtime dir holds no socket (emit's connect fails, as on a machine without `serve`).
  const empty = mkdtempSync(join(tmpdir(), "hookbox-bench-nodaemon-"));
  const withDaemon = { HOME: daemon.home, XDG_RUNTIME_DIR: join(daemon.home, "run"), PATH: "/usr/bin:/bin" };
  const withoutDaemon = { HOME: empty, XDG_RUNTIME_DIR: join(empty, "run"), PATH: "/usr/bin:/bin" };
  const plain = { PATH: "/usr/bin:/bin" };
  const hello = compiled("hello", "bench/hooks/hello.ts");
  const floor = compiled("floor-emit", "bench/hooks/floor-emit.ts");
  const floorFetch = compiled("floor-emit-fetch", "bench/hooks/floor-emit-fetch.ts");
  const node = process.env.BENCH_NODE ?? "node";

  const emitDaemon = [BINARY, "emit", "--agent", "claude"];
  const emitLocal = [BINARY, "emit", "--agent", "claude", "--hooks", hooksDir];
  const emitLocalThread = [...emitLocal, "--thread-worker"];
  const nodeHook = [node, join(ROOT, "bench/hooks/check.mjs")];
  const floorEmit = [floor, daemon.socket];
  const floorFetchEmit = [floorFetch, daemon.socket];
  const allow = { payload: WRITE_EVENT, expected: "exit 0, empty stdout (allow)", accepts: allowsSilently };
  const deny = { payload: DENY_EVENT, expected: "exit 0, a Claude deny JSON", accepts: denies };
  // The daemon-only HOME has no hooks of its own: a deny proves the answer came from the daemon.
  verify("hookbox emit (daemon)", emitDaemon, withDaemon, [allow, deny]);
  verify("hookbox emit (no daemon)", emitLocal, withoutDaemon, [allow, deny]);
  verify("hookbox emit (no daemon, worker thread)", emitLocalThread, withoutDaemon, [allow, deny]);
  verify("node command hook", nodeHook, plain, [allow, deny]);
  verify("hello", [hello], plain, [{ payload: WRITE_EVENT, expected: "hello", accepts: (out, status) => status === 0 && out === "hello\n" }]);
  const floorChecks = [
    { payload: WRITE_EVENT, expected: "the daemon's allow decision", accepts: nativeDecision("allow") },
    { payload: DENY_EVENT, expected: "the daemon's deny decision", accepts: nativeDecision("deny") },
  ];
  verify("floor", floorEmit, plain, floorChecks);
  verify("floor (fetch)", floorFetchEmit, plain, floorChecks);

  const payload = JSON.stringify(WRITE_EVENT);
  const spawned = (name: string, command: readonly string[], env: Record<string, string>) => ({ name, run: () => runProcess(command, payload, env) });
  const rows = await sideBySide(
    [
      spawned("Bun-compiled hello world", [hello], plain),
      spawned("floor: Bun-compiled stdin → one socket request → print (libc calls)", floorEmit, plain),
      spawned("floor with Bun.stdin and fetch", floorFetchEmit, plain),
      spawned("hookbox emit --agent claude, daemon running", emitDaemon, withDaemon),
      spawned("hookbox emit --agent claude, no daemon (in-process, worker process)", emitLocal, withoutDaemon),
      spawned("hookbox emit --agent claude --thread-worker, no daemon (worker thread)", emitLocalThread, withoutDaemon),
      spawned("command hook: node", nodeHook, plain),
    ],
    QUICK ? { rounds: 2, perRound: 3, warmup: 1 } : { rounds: 10, perRound: 10, warmup: 3 },
  );
  await daemon.stop();
  rmSync(empty, { recursive: true, force: true });

  const by = (prefix: string): Summary => rows.find((r) => r.name.startsWith(prefix)) as Summary;
  const helloRow = by("Bun-compiled hello");
  const floorRow = by("floor:");
  const floorFetchRow = by("floor with");
  const daemonRow = by("hookbox emit --agent claude, daemon");
  const localRow = by("hookbox emit --agent claude, no daemon");
  const nodeRow = by("command hook: node");
  const daemonRatio = daemonRow.p50Us / helloRow.p50Us;
  const localRatio = localRow.p50Us / nodeRow.p50Us;
  return `## C. \`hookbox emit\` as the agent runs it (issue 8)

${machine()}. Each contender is a whole process, spawned per event with a Claude Code
PreToolUse payload on stdin (a Write to \`src/app.ts\`, allowed after the secret-path check) and
its stdout read to the end, as Claude Code runs a command hook. Every contender's answer was
checked once before measuring: emit exits 0 with no output for the allow and prints Claude's deny
JSON for a write to \`.env\` (through the daemon, and in-process); the node hook likewise; the
floor prints the daemon's decision. With a daemon, emit finds its socket from
\`$XDG_RUNTIME_DIR\`; without one, the connect fails and emit evaluates \`--hooks DIR\` (the same
hook) itself, the guest in a sandbox worker process as the daemon does (or, with \`--thread-worker\`,
on a worker thread of its own process; SECURITY.md says what the thread trades). The floor is [bench/hooks/floor-emit.ts](bench/hooks/floor-emit.ts) compiled with
Bun: read stdin, one HTTP/1.1 exchange over the socket, print, as blocking libc calls through
\`bun:ffi\` — the least any emit through a daemon can cost (emit does the same on Linux); the
second floor does it with \`Bun.stdin\` and \`fetch\`
([bench/hooks/floor-emit-fetch.ts](bench/hooks/floor-emit-fetch.ts)).

${table(rows, helloRow.name)}

| target | measured | |
|---|---:|---|
| with daemon ≤ 1.3× the Bun-compiled hello world (p50) | ${daemonRatio.toFixed(2)}× (${fmtUs(daemonRow.p50Us)} vs ${fmtUs(helloRow.p50Us)}) | ${verdict(daemonRatio <= 1.3)} |
| without daemon ≤ the node command hook (p50) | ${localRatio.toFixed(2)}× (${fmtUs(localRow.p50Us)} vs ${fmtUs(nodeRow.p50Us)}) | ${verdict(localRatio <= 1)} |

What is physically possible: the floor is ${(floorRow.p50Us / helloRow.p50Us).toFixed(2)}× hello (p50), with fetch
${(floorFetchRow.p50Us / helloRow.p50Us).toFixed(2)}×; emit through the daemon is ${(daemonRow.p50Us / floorRow.p50Us).toFixed(2)}× the floor.`;
}

if (import.meta.main) writeSection("emit", await run());
