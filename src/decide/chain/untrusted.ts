import type { UserMessage } from "../../core/events/types.ts";
import type { LoadedHook } from "../../hooks/registry/load.ts";

/**
 * One message per event, however many of a project's untrusted hooks ran: they ran without any
 * grant, and `hookbox trust` in the project would give them what the message lists.
 */
export function untrustedMessage(ran: readonly LoadedHook[]): UserMessage | undefined {
  const untrusted = ran.filter((hook) => hook.review.untrusted);
  const project = untrusted[0]?.review.untrusted?.project;
  if (project === undefined) return undefined;
  const grants = untrusted.map(
    (hook) =>
      `${hook.definition.id}: ${
        hook.review.lines
          .filter((line) => line.status !== "refused")
          .map((line) => line.grant)
          .join(", ") || "nothing the operator allows"
      }`,
  );
  return {
    hook_id: untrusted[0]?.definition.id ?? "hookbox",
    level: "warning",
    message: `Hookbox: this project's hooks (${project}/.hookbox/hooks) are not trusted, so they ran without any grant. Run \`hookbox trust\` in ${project} to grant them: ${grants.join("; ")}.`,
  };
}
