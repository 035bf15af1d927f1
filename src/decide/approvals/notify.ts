import type { DesktopHost } from "../../platform/index.ts";
import type { ApprovalStore } from "./store.ts";

/**
 * A desktop notification each time an approval starts waiting, where the machine has a way to
 * show one; where it has none, the log says so once. The texts come from hooks: the desktop
 * host passes them as arguments and escapes markup (src/platform/desktop.ts).
 */
/** "14:05:09", the local time of an ISO 8601 instant (the notification is read now, on this machine). */
function clock(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleTimeString("en-GB", { hour12: false });
}

export function notifyWhenHeld(approvals: ApprovalStore, desktop: DesktopHost, log: (line: string) => void, where: () => string): () => void {
  let silent = false;
  return approvals.onChange((change) => {
    if (change.kind !== "held" || silent) return;
    const { approval } = change;
    const body = `${approval.prompt}\n${approval.event_type}${approval.tool_name ? ` ${approval.tool_name}` : ""}: ${approval.subject}\nAnswer in ${where()}; unanswered by ${clock(approval.expires_at)}, it is ${approval.default === "deny" ? "denied" : "allowed"}`;
    if (desktop.notify(`Hookbox: ${approval.hook_id} asks`, body.length > 500 ? `${body.slice(0, 500)}…` : body)) return;
    silent = true;
    log(
      "approvals are waiting, but this machine shows no desktop notifications (no notify-send or osascript, or no desktop session): answer them with hookbox approvals or in the console",
    );
  });
}
