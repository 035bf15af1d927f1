import { Command, CommanderError, Option } from "commander";
import { SandboxPool } from "../../sandbox/index.ts";
import { AuditSink } from "../audit/sink.ts";
import { resolveLocations, type Locations } from "../config/locations.ts";
import { Dispatcher } from "../dispatch/dispatcher.ts";
import { createInvoker } from "../dispatch/invoker.ts";
import { errorMessage, HookboxError } from "../errors.ts";
import type { Decision, NativeEvent } from "../events/types.ts";
import { AGENT_NAMES, answerFor, FALLBACK_AGENT, isAgentName, parseAgentStdin, PROTOCOLS, protocolFor, type AgentName, type AgentOutput, type AgentProtocol } from "../protocols/index.ts";
import { openRegistry } from "../registry/open.ts";
import { EventService } from "../service/events.ts";
import type { CliContext } from "./context.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

/** What an agent sends on stdin is bounded: a hook payload larger than this is refused (fail open/closed). */
const MAX_STDIN_BYTES = 16 * 1024 * 1024;
/** How long emit waits for the daemon's answer (approvals can hold it); connection failures fall back at once. */
const DAEMON_TIMEOUT_MS = 10 * 60_000;

interface EmitOptions {
  agent?: string;
  failClosed?: boolean;
  socket?: string;
  hooks?: string[];
  config?: string;
  builtin?: string[];
  daemon: boolean;
}

/**
 * `hookbox emit [EVENT] [--agent A]`: the drop-in for an agent's hook command. stdout carries
 * exactly the agent's answer and nothing else; everything else goes to stderr. Every failure —
 * even a bad flag — is answered in the agent's protocol (fail open, or closed with
 * --fail-closed): a stray exit 2 would mean "block" to most agents.
 */
export async function runEmit(ctx: CliContext, args: readonly string[], runtime: HookRuntimeFactory): Promise<number> {
  const command = new Command("emit")
    .description("Answer an agent's hook call: its hook JSON on stdin, its answer on stdout (a drop-in for the hook command)")
    .argument("[event]", "the event name, when the payload does not carry it (e.g. PreToolUse)")
    .addOption(new Option("--agent <name>", "the agent's dialect; default: detected from the payload").choices([...AGENT_NAMES]))
    .option("--fail-closed", "if Hookbox itself cannot evaluate, block (instead of the agent's fail-open default)")
    .option("--socket <path>", "the daemon's socket; default: $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock")
    .option("--no-daemon", "evaluate in this process even if a daemon is running")
    .addOption(new Option("--hooks <dir>", "hook directory for in-process evaluation (repeatable)").argParser((v: string, p: string[] | undefined) => [...(p ?? []), v]))
    .option("--config <file>", "operator file for in-process evaluation")
    .addOption(new Option("--builtin <ids>", "standard hooks for in-process evaluation (comma-separated or \"all\")").argParser((v: string, p: string[] | undefined) => [...(p ?? []), v]))
    .exitOverride()
    .configureOutput({ writeOut: (text) => void ctx.out(text), writeErr: (text) => ctx.err(text) })
    .addHelpText(
      "after",
      `
Configure it as the agent's hook command, e.g. for Claude Code:
  { "type": "command", "command": "hookbox emit PreToolUse --agent claude" }
or let \`hookbox install-agent claude\` write that for you.

With a daemon on the socket the event is evaluated there (fast, approvals possible);
without one, in this process with the same hook directories.`,
    );
  let event: NativeEvent | undefined;
  let protocol: AgentProtocol = PROTOCOLS[FALLBACK_AGENT];
  let failClosed = args.includes("--fail-closed");
  const agentFlag = flagValue(args, "--agent");
  if (agentFlag && isAgentName(agentFlag)) protocol = PROTOCOLS[agentFlag];
  try {
    let parsed: { eventName: string | undefined; options: EmitOptions } | undefined;
    command.action((eventName: string | undefined, options: EmitOptions) => {
      parsed = { eventName, options };
    });
    try {
      await command.parseAsync([...args], { from: "user" });
    } catch (error) {
      if (error instanceof CommanderError && error.exitCode === 0) return 0; // --help
      throw new HookboxError("usage", `hookbox emit: ${error instanceof Error ? error.message.replace(/^error: /, "") : String(error)}`);
    }
    if (!parsed) return 0;
    const { options } = parsed;
    failClosed = options.failClosed === true;
    const payload = parseAgentStdin(await ctx.host.readStdin(MAX_STDIN_BYTES));
    protocol = protocolFor(options.agent as AgentName | undefined, payload);
    event = protocol.decode(payload, { ...(parsed.eventName ? { eventName: parsed.eventName } : {}), env: ctx.host.env });
    const locations = resolveLocations(ctx.host, { ...(options.hooks ? { hooks: options.hooks } : {}), ...(options.config ? { config: options.config } : {}), ...(options.socket ? { socket: options.socket } : {}), ...(options.builtin ? { builtin: options.builtin } : {}) });
    const decision = (options.daemon && (await viaDaemon(ctx, locations, event))) || (await inProcess(ctx, locations, event, runtime));
    return await write(ctx, answerFor(protocol, decision, event, { failClosed }));
  } catch (error) {
    return write(ctx, protocol.failure(errorMessage(error), event, { failClosed }));
  }
}

async function write(ctx: CliContext, output: AgentOutput): Promise<number> {
  if (output.stderr) ctx.err(output.stderr.endsWith("\n") ? output.stderr : `${output.stderr}\n`);
  if (output.stdout) await ctx.out(output.stdout);
  return output.exitCode;
}

/** The daemon's Decision, or undefined when no daemon is there (then emit evaluates itself). */
async function viaDaemon(ctx: CliContext, locations: Locations, event: NativeEvent): Promise<Decision | undefined> {
  if ((await ctx.host.fs.kind(locations.socketPath)) !== "socket") return undefined;
  let reply;
  try {
    reply = await ctx.host.net.request({ unix: locations.socketPath }, { method: "POST", path: `/v1/events/${encodeURIComponent(event.event_type)}`, body: JSON.stringify(event), timeoutMs: DAEMON_TIMEOUT_MS });
  } catch {
    return undefined; // a stale socket: nobody listens
  }
  if (reply.status === 413) return undefined; // too large for the daemon's body limit: evaluate here
  const body = JSON.parse(reply.body) as Decision | { error: { code: string; message: string } };
  if ("error" in body) throw new HookboxError(body.error.code as never, `the daemon refused the event: ${body.error.message}`);
  return body;
}

async function inProcess(ctx: CliContext, locations: Locations, event: NativeEvent, runtime: HookRuntimeFactory): Promise<Decision> {
  const capabilities = runtime.capabilities(locations);
  const registry = await openRegistry(ctx.host, locations, capabilities, runtime.embedded());
  for (const problem of registry.current().diagnostics) ctx.err(`hookbox: ${problem.file}:${problem.line}:${problem.column}: ${problem.field ? `${problem.field}: ` : ""}${problem.message}\n`);
  if (registry.current().match(event).length === 0) {
    // Nothing to run: answer without starting a sandbox (most events of most agents).
    return (await new EventService({ dispatcher: new Dispatcher(registry, createInvoker(unusedExecutor, capabilities)), audit: await openAudit(ctx, locations, registry.current().operator.audit) }).evaluate(event)).decision;
  }
  const pool = new SandboxPool({ spawn: () => ctx.host.sandbox.spawnWorker(), size: 1 });
  const audit = await openAudit(ctx, locations, registry.current().operator.audit);
  try {
    await pool.ready();
    const service = new EventService({ dispatcher: new Dispatcher(registry, createInvoker(pool, capabilities)), audit });
    return (await service.evaluate(event)).decision;
  } finally {
    await audit.close();
    await pool.close(0);
  }
}

const unusedExecutor = {
  invoke: () => Promise.reject(new Error("no hook matched: nothing should run")),
};

function openAudit(ctx: CliContext, locations: Locations, settings: { max_file_mb: number; keep_files: number }): Promise<AuditSink> {
  return AuditSink.open({ fs: ctx.host.fs, path: `${locations.dataDir}/audit/hookbox-audit.jsonl`, maxFileBytes: settings.max_file_mb * 1024 * 1024, keepFiles: settings.keep_files, repairTail: false });
}

function flagValue(args: readonly string[], flag: string): string | undefined {
  const index = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (index < 0) return undefined;
  const arg = args[index] as string;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[index + 1];
}
