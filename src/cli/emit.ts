import { resolveLocations, type Locations } from "../config/locations.ts";
import { errorMessage, HookboxError } from "../errors.ts";
import type { Decision, NativeEvent } from "../events/types.ts";
import { answerFor, FALLBACK_AGENT, isAgentName, parseAgentStdin, PROTOCOLS, protocolFor, type AgentOutput, type AgentProtocol } from "../protocols/index.ts";
import { holdMessages } from "../../sandbox/pool/held-worker.ts";
import type { WorkerProcess } from "../../sandbox/index.ts";
import type { LeanHost } from "../runtime/index.ts";
import { parseEmitArgs } from "./emit-args.ts";

/** What an agent sends on stdin is bounded: a hook payload larger than this is refused (fail open/closed). */
const MAX_STDIN_BYTES = 16 * 1024 * 1024;
/** How long emit waits for the daemon's answer (approvals can hold it); connection failures fall back at once. */
const DAEMON_TIMEOUT_MS = 10 * 60_000;


/**
 * `hookbox emit [EVENT] [--agent A]`: the drop-in for an agent's hook command. stdout carries
 * exactly the agent's answer and nothing else; everything else goes to stderr. Every failure —
 * even a bad flag — is answered in the agent's protocol (fail open, or closed with
 * --fail-closed): a stray exit 2 would mean "block" to most agents.
 */
export async function runEmit(host: LeanHost, args: readonly string[]): Promise<number> {
  // No CliContext: it would pull the sandbox into this path. stdout/stderr go straight to the host.
  const ctx = { host, out: (text: string) => host.writeStdout(text), err: (text: string) => host.writeStderr(text) };
  let event: NativeEvent | undefined;
  let protocol: AgentProtocol = PROTOCOLS[FALLBACK_AGENT];
  let failClosed = args.includes("--fail-closed");
  const agentFlag = flagValue(args, "--agent");
  if (agentFlag && isAgentName(agentFlag)) protocol = PROTOCOLS[agentFlag];
  try {
    const options = parseEmitArgs(args);
    if (options.help) {
      await ctx.out((await import("./emit-help.ts")).emitHelp());
      return 0;
    }
    failClosed = options.failClosed;
    const payload = parseAgentStdin(await host.readStdin(MAX_STDIN_BYTES));
    protocol = protocolFor(options.agent, payload);
    event = protocol.decode(payload, { ...(options.eventName ? { eventName: options.eventName } : {}), env: host.env });
    const locations = resolveLocations(host, { hooks: options.hooks, builtin: options.builtin, ...(options.config ? { config: options.config } : {}), ...(options.socket ? { socket: options.socket } : {}) });
    const decision = (options.daemon && (await viaDaemon(host, locations, event))) || (await evaluateHere(host, locations, event, options.processIsolation));
    return await write(ctx, answerFor(protocol, decision, event, { failClosed }));
  } catch (error) {
    return write(ctx, protocol.failure(errorMessage(error), event, { failClosed }));
  }
}

async function write(ctx: { out(text: string): Promise<void>; err(text: string): void }, output: AgentOutput): Promise<number> {
  if (output.stderr) ctx.err(output.stderr.endsWith("\n") ? output.stderr : `${output.stderr}\n`);
  if (output.stdout) await ctx.out(output.stdout);
  return output.exitCode;
}

/** The daemon's Decision, or undefined when no daemon is there (then emit evaluates itself). */
async function viaDaemon(host: LeanHost, locations: Locations, event: NativeEvent): Promise<Decision | undefined> {
  // No existence check first: connecting to a missing socket fails as fast, one syscall less.
  let reply;
  try {
    reply = await host.net.request({ unix: locations.socketPath }, { method: "POST", path: `/v1/events/${encodeURIComponent(event.event_type)}`, body: JSON.stringify(event), timeoutMs: DAEMON_TIMEOUT_MS });
  } catch {
    return undefined; // no socket, or a stale one: nobody listens
  }
  if (reply.status === 413) return undefined; // too large for the daemon's body limit: evaluate here
  const body = JSON.parse(reply.body) as Decision | { error: { code: string; message: string } };
  if ("error" in body) throw new HookboxError(body.error.code as never, `the daemon refused the event: ${body.error.message}`);
  return body;
}

/**
 * No daemon answered: evaluate here. The guest runs in a worker thread of this process, or with
 * --process-isolation in a worker process as in the daemon (see emit-local.ts, SECURITY.md). The
 * first worker starts before the hooks — and the code that loads them — are loaded: it compiles
 * QuickJS meanwhile, on another core.
 */
async function evaluateHere(host: LeanHost, locations: Locations, event: NativeEvent, processIsolation: boolean): Promise<Decision> {
  const full = await host.full();
  const spawn = (): WorkerProcess => (processIsolation ? full.sandbox.spawnWorker() : full.sandbox.spawnThreadWorker());
  const started = holdMessages(spawn());
  return (await import("./emit-local.ts")).evaluateLocally(full, locations, event, { started, spawn });
}

function flagValue(args: readonly string[], flag: string): string | undefined {
  const index = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (index < 0) return undefined;
  const arg = args[index] as string;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[index + 1];
}
