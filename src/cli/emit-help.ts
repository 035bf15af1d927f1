import { Command, Option } from "commander";
import { AGENT_NAMES } from "../agents/protocols.ts";

/** `hookbox emit --help`, rendered by commander like every other command's help. */
export function emitHelp(): string {
  return emitCommand().helpInformation();
}

/** emit's flags as a commander Command: for its help and for `hookbox completion` (emit itself parses with emit-args.ts). */
export function emitCommand(): Command {
  return new Command("emit")
    .description("Answer an agent's hook call: its hook JSON on stdin, its answer on stdout (a drop-in for the hook command)")
    .argument("[event]", "the event name, when the payload does not carry it (e.g. PreToolUse)")
    .addOption(new Option("--agent <name>", "the agent's dialect; default: detected from the payload").choices([...AGENT_NAMES]))
    .option("--fail-closed", "if Hookbox itself cannot evaluate, block (instead of the agent's fail-open default)")
    .option(
      "--socket <path>",
      "the daemon's socket; default: $HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock",
    )
    .option("--no-daemon", "evaluate in this process even if a daemon is running")
    .option("--hooks <dir>", "hook directory for in-process evaluation (repeatable)")
    .option("--config <file>", "operator file for in-process evaluation; default: $HOOKBOX_CONFIG, else ~/.config/hookbox/hookbox.yaml")
    .option("--builtin <ids>", 'standard hooks for in-process evaluation (comma-separated, or "all")')
    .option("--process-isolation", "in-process evaluation runs hooks in a worker process, as the daemon does (the default)")
    .option("--thread-worker", "in-process evaluation runs hooks in a thread of this process instead: no empty environment, no kill (SECURITY.md)")
    .option(
      "--system",
      "the system tier's entry (hookbox install --system writes it into the agents' managed settings): the system policy must be there, no cache and no daemon the user can reach decides",
    )
    .option("--system-root <dir>", "the system tier under DIR instead of / (tests, images)")
    .addHelpText(
      "after",
      `
Configure it as the agent's hook command, e.g. for Claude Code:
  { "type": "command", "command": "hookbox emit PreToolUse --agent claude" }
or let \`hookbox install-agent claude\` write that for you. The system tier's entries
(hookbox install --system, as root) run the root-owned binary with --system.

With a daemon on the socket the event is evaluated there (fast, approvals possible) —
only one proven to be this very binary, run by you with nothing injected, serving the
same hook set (Linux; SECURITY.md "Who answers on the socket"); without one, or when
what answers is not proven, in this process with the same hook directories, saying why. stdout carries only the
agent's answer; every failure is answered in the agent's protocol: fail open by default,
block with --fail-closed.`,
    );
}
