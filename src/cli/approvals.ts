import type { Command } from "commander";
import type { PendingApproval } from "../approvals/store.ts";
import type { CliContext } from "./context.ts";
import { daemonRequest } from "./daemon-client.ts";
import { EXIT } from "./exit-codes.ts";
import { locationsFrom } from "./setup.ts";

/** `hookbox approvals`, `hookbox approve ID [--always]`, `hookbox deny ID`: answer what hooks asked, via the daemon. */
export function registerApprovals(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("approvals")
    .description("List approvals waiting for an answer")
    .option("--socket <path>", "the daemon's socket; default: $HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock")
    .option("--json", "print as JSON")
    .action(async (options: { socket?: string; json?: boolean }) => {
      const { approvals } = await daemonRequest<{ approvals: PendingApproval[] }>(ctx.host, locationsFrom(ctx, options), "GET", "/v1/approvals");
      if (options.json) await ctx.out(`${JSON.stringify(approvals, null, 2)}\n`);
      else if (approvals.length === 0) await ctx.out("no pending approvals\n");
      else {
        await ctx.out(
          `${approvals
            .map((a) => `${a.id}  ${a.hook_id}  ${a.event_type}${a.tool_name ? ` ${a.tool_name}` : ""}: ${a.subject}\n    ${a.prompt}\n    expires ${a.expires_at} (then: ${a.default})`)
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
      .argument("<id>", "the approval id (from hookbox approvals)")
      .option("--socket <path>", "the daemon's socket; default: $HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock")
      .option("--json", "print the daemon's answer as JSON ({v, id, decision})");
    if (name === "approve") command.option("--always", "allow always for this session");
    command.action(async (id: string, options: { socket?: string; always?: boolean; json?: boolean }) => {
      const decision = name === "deny" ? "deny" : options.always ? "allow_always" : "allow";
      const answer = await daemonRequest<{ v: number; id: string; decision: string }>(ctx.host, locationsFrom(ctx, options), "POST", `/v1/approvals/${encodeURIComponent(id)}`, { decision, via: "cli" });
      await ctx.out(options.json ? `${JSON.stringify(answer, null, 2)}\n` : `${id}: ${decision}\n`);
      setExit(EXIT.ok);
    });
  }
}
