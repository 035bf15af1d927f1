import type { Command } from "commander";
import type { PendingApproval } from "../decide/approvals/store.ts";
import { HookboxError } from "../core/errors.ts";
import type { CliContext } from "./context.ts";
import { daemonRequest } from "./daemon-client.ts";
import { EXIT } from "./exit-codes.ts";
import { locationsFrom } from "./setup.ts";

/**
 * The pending approval `given` names: its whole id, or the start of exactly one (as docker, git
 * and gh take ids). No match, or several, is an error that lists what is waiting.
 */
export function resolveApprovalId(given: string, pending: readonly PendingApproval[]): string {
  if (given === "") throw new HookboxError("usage", "give the approval's id, or its first characters (hookbox approvals lists them)");
  if (pending.some((approval) => approval.id === given)) return given;
  const matches = pending.filter((approval) => approval.id.startsWith(given));
  const describe = (approvals: readonly PendingApproval[]): string =>
    approvals.map((a) => `${a.id} (${a.hook_id}: ${a.event_type}${a.tool_name ? ` ${a.tool_name}` : ""})`).join("; ");
  if (matches.length === 1) return (matches[0] as PendingApproval).id;
  if (matches.length === 0)
    throw new HookboxError(
      "not_found",
      `no pending approval is ${given} or starts with it: ${pending.length === 0 ? "none is waiting (answered, or timed out)" : `waiting: ${describe(pending)}`}`,
    );
  throw new HookboxError("usage", `${given} is the start of ${matches.length} pending approvals: ${describe(matches)}; give more of the id`);
}

/** `hookbox approvals`, `hookbox approve ID [--always]`, `hookbox deny ID`: answer what hooks asked, via the daemon. */
export function registerApprovals(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("approvals")
    .description("List approvals waiting for an answer")
    .option(
      "--socket <path>",
      "the daemon's socket; default: $HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock",
    )
    .option("--json", "print as JSON")
    .action(async (options: { socket?: string; json?: boolean }) => {
      const { approvals } = await daemonRequest<{ approvals: PendingApproval[] }>(ctx.host, locationsFrom(ctx, options), "GET", "/v1/approvals");
      if (options.json) await ctx.out(`${JSON.stringify(approvals, null, 2)}\n`);
      else if (approvals.length === 0) await ctx.out("no pending approvals\n");
      else {
        await ctx.out(
          `${approvals
            .map(
              (a) =>
                `${a.id}  ${a.hook_id}  ${a.event_type}${a.tool_name ? ` ${a.tool_name}` : ""}: ${a.subject}\n    ${a.prompt}\n    expires ${a.expires_at} (then: ${a.default})`,
            )
            .join("\n")}\n`,
        );
      }
      setExit(EXIT.ok);
    });

  for (const [name, description] of [
    ["approve", "Allow a pending approval (--always: for the rest of that session, for that hook and tool)"],
    ["deny", "Deny a pending approval"],
  ] as const) {
    const command = program
      .command(name)
      .description(description)
      .argument("<id>", "the approval's id (from hookbox approvals), or its first characters when no other pending one starts with them")
      .option(
        "--socket <path>",
        "the daemon's socket; default: $HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock",
      )
      .option("--json", "print the daemon's answer as JSON ({v, id, decision})");
    if (name === "approve") command.option("--always", "allow always for this session");
    command.action(async (given: string, options: { socket?: string; always?: boolean; json?: boolean }) => {
      const decision = name === "deny" ? "deny" : options.always ? "allow_always" : "allow";
      const locations = locationsFrom(ctx, options);
      const { approvals } = await daemonRequest<{ approvals: PendingApproval[] }>(ctx.host, locations, "GET", "/v1/approvals");
      const id = resolveApprovalId(given, approvals);
      const answer = await daemonRequest<{ v: number; id: string; decision: string }>(
        ctx.host,
        locations,
        "POST",
        `/v1/approvals/${encodeURIComponent(id)}`,
        { decision, via: "cli" },
      );
      await ctx.out(options.json ? `${JSON.stringify(answer, null, 2)}\n` : `${id}: ${decision}\n`);
      setExit(EXIT.ok);
    });
  }
}
