import { BUILD_ID } from "../core/version/index.ts";
import { resolveLocations, type Locations } from "../hooks/config/locations.ts";
import { errorMessage } from "../core/errors.ts";
import { identityOf, type HookSetIdentity } from "../decide/identity.ts";
import { agentHookTimeoutSeconds } from "../core/events/hook-timeouts.ts";
import { daemonSockets } from "../serve/daemon/auto-socket.ts";
import { distrust, systemTierDaemonRefusal } from "../platform/peer-trust.ts";
import type { AutoStartSettings } from "../serve/daemon/lifecycle.ts";
import type { DaemonStart } from "../serve/daemon/auto-start.ts";
import {
  FALLBACK_AGENT,
  hookProcessOutput,
  isAgentName,
  nativeEventName,
  PROJECT_DIR_ENV,
  PROTOCOLS,
  type AgentOutput,
  type HookProcessOutput,
} from "../agents/protocols.ts";
import { startWorker } from "../decide/executor.ts";
import type { LeanHost, PeeredReply } from "../platform/index.ts";
import { AGENT_CALL_HEADERS, agentCallReplyOf, encodeHeaderJson, HOOK_SET_MISMATCH } from "../core/wire/agent-call.ts";
import { errorOfBody } from "../core/wire/errors.ts";
import { parseEmitArgs, type EmitOptions } from "./emit-args.ts";
import type { AgentCall } from "../decide/agent-answer.ts";

/** What an agent sends on stdin is bounded: a larger payload is answered by the fail-closed rule. */
const MAX_STDIN_BYTES = 16 * 1024 * 1024;
/** How long emit waits for the daemon's answer when the agent's own hook timeout is not known. */
const DAEMON_TIMEOUT_MS = 10 * 60_000;

/**
 * `hookbox emit [EVENT] [--agent A]`: the drop-in for an agent's hook command. stdout carries
 * exactly the agent's answer and nothing else; everything else goes to stderr. The answer comes
 * from the daemon when one serves the same hook set (same build, operator file, flags) and is
 * proven to be this very Hookbox (peer-trust.ts), else from this process — the same evaluator
 * either way, so the same event gets the same decision.
 */
export async function runEmit(host: LeanHost, args: readonly string[]): Promise<number> {
  const out = (output: AgentOutput): Promise<number> => write(host, hookProcessOutput(output));
  let options: EmitOptions;
  try {
    options = parseEmitArgs(args);
  } catch (error) {
    // The agent's hook entry itself is wrong: the hooks it should run cannot be known, so it blocks.
    // stdin is still read: an agent writing the payload to a hook that never reads it gets EPIPE.
    await host.readStdin(MAX_STDIN_BYTES).catch(() => undefined);
    const agent = flagValue(args, "--agent");
    const protocol = PROTOCOLS[agent && isAgentName(agent) ? agent : FALLBACK_AGENT];
    return out(
      protocol.failure(
        `the hookbox emit command in this agent's hook settings is invalid (${errorMessage(error)}); fix the entry (hookbox install-agent rewrites it), nothing is allowed until then`,
        undefined,
        { block: true },
      ),
    );
  }
  if (options.help) {
    await host.writeStdout((await import("./emit-help.ts")).emitHelp());
    return 0;
  }
  const call = await readCall(host, options);
  const locations = resolveLocations(host, {
    hooks: options.hooks,
    builtin: options.builtin,
    ...(options.config ? { config: options.config } : {}),
    ...(options.socket ? { socket: options.socket } : {}),
    ...(options.system ? { system: true } : {}),
    ...(options.systemRoot !== undefined ? { systemRoot: options.systemRoot } : {}),
  });
  try {
    // HOOKBOX_NO_DAEMON=1 is --no-daemon for entries whose command line cannot be changed.
    const useDaemon =
      options.daemon && !call.unreadable && host.env.HOOKBOX_NO_DAEMON !== "1" && (!options.system || (await systemTierDaemon(host)) === undefined);
    const identity = identityOf(locations, BUILD_ID, host.homeDir());
    let startOn: string | undefined;
    const whys: { readonly text: string; readonly distrusted?: boolean }[] = [];
    if (useDaemon) {
      const sockets = daemonSockets(locations, options.socket !== undefined, identity, host);
      for (const socket of sockets.ask) {
        const reply = await viaDaemon(
          host,
          socket,
          identity,
          call,
          options,
          whys.map((why) => why.text),
        );
        if (reply.answered) {
          // Something not proven to be Hookbox where a daemon should be is news even when another daemon answers.
          for (const why of whys) if (why.distrusted) host.writeStderr(`hookbox: not using ${why.text}\n`);
          return write(host, reply.output);
        }
        if (reply.why) whys.push({ text: `${socket}: ${reply.why}`, ...(reply.distrusted ? { distrusted: true } : {}) });
        // Nobody listens where a daemon of this hook set would: this emit may start one.
        if (reply.nobody && socket === sockets.auto) startOn = socket;
      }
    }
    const local = await evaluateHere(
      host,
      locations,
      call,
      options,
      whys.map((why) => why.text),
      startOn,
    );
    // Said only when no daemon answered at all: a manual daemon of another hook set is not news when this set's own daemon answers.
    for (const why of whys) host.writeStderr(`hookbox: evaluating here, not through the daemon: ${why.text}\n`);
    const code = await out(local.output);
    // Started as soon as the event's hook set was known; else (that point never came) now, after the answer.
    if (startOn !== undefined && !local.daemonStarted && local.autoStart?.auto_start) await local.startDaemon(startOn, local.autoStart);
    return code;
  } catch (error) {
    // A bug or an environment that stops Hookbox before any hook set could be read: loud, and
    // blocking when the caller asked to fail closed.
    const protocol = PROTOCOLS[call.agent ?? FALLBACK_AGENT];
    return out(
      protocol.failure(`Hookbox failed before it could evaluate this event: ${errorMessage(error)}`, undefined, { block: options.failClosed }),
    );
  }
}

/**
 * Under the system tier, why no daemon of this user may decide here (peer-trust.ts
 * systemTierDaemonRefusal), or undefined. Not said on every event: it is how the tier is built
 * on such a kernel (doctor says it); each event is evaluated in this process instead.
 */
async function systemTierDaemon(host: LeanHost): Promise<string | undefined> {
  const full = await host.full();
  const scope = await full.fs.readText("/proc/sys/kernel/yama/ptrace_scope").catch(() => undefined);
  return systemTierDaemonRefusal(scope);
}

async function write(host: LeanHost, output: HookProcessOutput): Promise<number> {
  if (output.stderr) host.writeStderr(output.stderr.endsWith("\n") ? output.stderr : `${output.stderr}\n`);
  if (output.stdout) await host.writeStdout(output.stdout);
  return output.exitCode;
}

async function readCall(host: LeanHost, options: EmitOptions): Promise<AgentCall> {
  const env = Object.fromEntries(PROJECT_DIR_ENV.map((name) => [name, host.env[name]]).filter(([, value]) => value !== undefined));
  const base = { agent: options.agent, env, ...(options.eventName !== undefined ? { eventName: options.eventName } : {}) };
  try {
    return { ...base, payload: await host.readStdin(MAX_STDIN_BYTES) };
  } catch (error) {
    const code = error instanceof RangeError ? "request_too_large" : "event_invalid";
    return { ...base, payload: "", unreadable: { code, cause: errorMessage(error) } };
  }
}

/** The daemon sends the answer serialized as the hook process writes it: emit writes it as it came. */
type DaemonReply =
  | { readonly answered: true; readonly output: HookProcessOutput }
  | {
      readonly answered: false;
      readonly why?: string;
      /** What answered is not proven to be this Hookbox (peer-trust.ts). */
      readonly distrusted?: boolean;
      /** Nothing listens there: a daemon may be started on it. */
      readonly nobody?: boolean;
    };

/**
 * The daemon's answer, or why there is none: nobody listens, what answered is not proven to be
 * this Hookbox (a squatter on the socket, another user's, another build, one started with code
 * injected: peer-trust.ts), it serves another hook set, or it refused the request. Nothing but a
 * proven daemon's answer is used: a reply of the right shape proves nothing.
 */
async function viaDaemon(
  host: LeanHost,
  socket: string,
  identity: HookSetIdentity,
  call: AgentCall,
  options: EmitOptions,
  daemonsNotUsed: readonly string[],
): Promise<DaemonReply> {
  const headers: Record<string, string> = {
    [AGENT_CALL_HEADERS.client]: "emit",
    [AGENT_CALL_HEADERS.identity]: encodeHeaderJson(identity),
    [AGENT_CALL_HEADERS.env]: encodeHeaderJson(call.env),
    [AGENT_CALL_HEADERS.timeoutMs]: String(callerTimeoutMs(call)),
    ...(call.eventName !== undefined ? { [AGENT_CALL_HEADERS.event]: call.eventName } : {}),
    ...(options.failClosed ? { [AGENT_CALL_HEADERS.failClosed]: "1" } : {}),
    ...(daemonsNotUsed.length > 0 ? { [AGENT_CALL_HEADERS.daemonsNotUsed]: encodeHeaderJson(daemonsNotUsed) } : {}),
    ...(host.invokedAs?.() !== undefined ? { [AGENT_CALL_HEADERS.invokedAs]: encodeHeaderJson(host.invokedAs?.()) } : {}),
  };
  const me = { uid: host.uid(), env: host.env, decides: true };
  let exchanged: PeeredReply;
  try {
    // No existence check first: connecting to a missing socket fails as fast, one syscall less.
    exchanged = await host.net.requestWithPeer(
      socket,
      { method: "POST", path: `/v1/agents/${call.agent ?? "auto"}`, body: call.payload, headers, timeoutMs: DAEMON_TIMEOUT_MS },
      (peer) => distrust(peer, me),
    );
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return { answered: false, nobody: true };
    return {
      answered: false,
      nobody: true,
      why: code === "ECONNREFUSED" ? "a stale socket: nothing listens on it" : `no answer (${errorMessage(error)})`,
    };
  }
  if ("unverifiable" in exchanged) return unverifiable(host, socket, exchanged.unverifiable);
  // Refused once connected, before the event was sent; or once answered, its answer unused.
  const untrusted = "refused" in exchanged ? exchanged.refused : distrust(exchanged.peer, me, { answered: true });
  if (untrusted || "refused" in exchanged) return { answered: false, why: untrusted, distrusted: true };
  const reply = exchanged.reply;
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    return { answered: false, why: `the daemon answered ${reply.status} with a body that is not JSON` };
  }
  const answer = reply.status === 200 ? agentCallReplyOf(body) : undefined;
  if (answer) return { answered: true, output: { stdout: answer.stdout, stderr: answer.stderr, exitCode: answer.exit_code } };
  const error = errorOfBody(body);
  if (error?.code === HOOK_SET_MISMATCH) return { answered: false, why: `a Hookbox serving another hook set (${error.message})` };
  return { answered: false, why: error ? `${error.code}: ${error.message}` : `the daemon answered ${reply.status}` };
}

/**
 * This runtime or platform cannot prove who answers on a socket (Node, macOS: docs/release.md#platforms),
 * so no daemon is asked, and none is started (it could never be used). Said only when something
 * is there to be asked.
 */
async function unverifiable(host: LeanHost, socket: string, why: string): Promise<DaemonReply> {
  const kind = await (await host.full()).fs.kind(socket).catch(() => "missing");
  return kind === "missing"
    ? { answered: false }
    : { answered: false, why: `cannot verify on this platform whether a genuine Hookbox daemon answers there: ${why}` };
}

/**
 * No daemon answered for this hook set: evaluate here. The guest runs in a worker process as in
 * the daemon (empty environment, killed on a timeout), or with --thread-worker in a thread of
 * this process (SECURITY.md). The first worker starts before the hooks — and the code that loads
 * them — are loaded: it compiles QuickJS meanwhile, on another core. A process costs no more than
 * a thread here: the binary starts in ~5 ms, and a one-shot worker skips the optimizing
 * WebAssembly tier, whose compiles a thread would have to share with this process.
 */
async function evaluateHere(
  host: LeanHost,
  locations: Locations,
  call: AgentCall,
  options: EmitOptions,
  daemonsNotUsed: readonly string[],
  startOn?: string,
): Promise<LocalAnswer> {
  const full = await host.full();
  const kind = options.processIsolation ? "one-shot" : "thread";
  // A worker that cannot even be spawned: the executor tries again and fails the hooks by their on_error.
  const started = startWorker(full.sandbox, kind);
  const local = await import("./emit-local.ts");
  // Whatever happens here, nothing is written to stdout: the agent's answer is the only thing there.
  const startDaemon = async (socket: string, settings: AutoStartSettings, start: DaemonStart): Promise<void> => {
    try {
      await (await import("../serve/daemon/auto-start.ts")).startDaemon(full, socket, locations, settings, start);
    } catch (error) {
      host.writeStderr(
        `hookbox: could not start a daemon on ${socket} (${errorMessage(error)}); each event is evaluated in its own process until one runs\n`,
      );
    }
  };
  const answer = await local.evaluateLocally(
    full,
    locations,
    call,
    { failClosed: options.failClosed, callerTimeoutMs: callerTimeoutMs(call), daemonsNotUsed },
    { started, kind },
    startOn !== undefined ? { start: (settings, start) => startDaemon(startOn, settings, start) } : undefined,
  );
  return {
    ...answer,
    startDaemon: (socket, settings) => startDaemon(socket, settings, answer.daemonStart),
  };
}

/**
 * How long the agent waits for this emit: the timeout install-agent wrote for the event. The
 * evaluation is budgeted inside it, so every hook has run (or failed by its on_error) before the
 * agent would give up and go ahead. A native caller (no agent entry) waits as long as it likes.
 */
function callerTimeoutMs(call: AgentCall): number {
  if (call.agent === "native") return DAEMON_TIMEOUT_MS;
  const protocol = PROTOCOLS[call.agent ?? FALLBACK_AGENT];
  const native = nativeEventName(protocol, call.eventName);
  return native === undefined ? DAEMON_TIMEOUT_MS : agentHookTimeoutSeconds(native) * 1000;
}

interface LocalAnswer {
  readonly output: AgentOutput;
  /** The operator file's daemon settings; undefined when it could not be read (no daemon is started then). */
  readonly autoStart: AutoStartSettings | undefined;
  /** A daemon was already started on the socket while the event was evaluated. */
  readonly daemonStarted: boolean;
  startDaemon(socket: string, settings: AutoStartSettings): Promise<void>;
}

function flagValue(args: readonly string[], flag: string): string | undefined {
  const index = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (index < 0) return undefined;
  const arg = args[index] as string;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[index + 1];
}
