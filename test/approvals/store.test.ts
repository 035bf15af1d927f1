import { describe, expect, it } from "vitest";
import { notifyWhenHeld } from "../../src/decide/approvals/notify.ts";
import { ApprovalStore, type ApprovalChange } from "../../src/decide/approvals/store.ts";
import type { NativeEvent } from "../../src/core/events/types.ts";

const event = { event_type: "PreToolUse", session_id: "s", timestamp: "", tool_name: "Bash", tool_input: { command: "deploy" } } as NativeEvent;
const request = { hook_id: "asker", prompt: "Deploy?", options: [], timeout_ms: 60_000, default: "deny" as const };

describe("ApprovalStore: who answered, and watchers", () => {
  it("tells watchers when an approval is held and when it settles, with where the answer came from", async () => {
    const store = new ApprovalStore();
    const changes: ApprovalChange[] = [];
    const off = store.onChange((change) => changes.push(change));
    store.onChange(() => {
      throw new Error("a broken watcher");
    });
    const held = store.hold(request, event);
    expect(store.get(held.id)).toMatchObject({ prompt: "Deploy?", subject: "deploy" });
    expect(store.resolve(held.id, "deny", "cli")).toBe(true);
    await expect(held.outcome).resolves.toEqual({ id: held.id, decision: "deny", by: "user", via: "cli" });
    expect(changes.map((c) => c.kind)).toEqual(["held", "settled"]);
    expect(changes[1]).toMatchObject({ kind: "settled", outcome: { via: "cli" } });
    expect(store.resolve(held.id, "allow")).toBe(false);
    off();
    store.hold(request, event);
    store.close();
    expect(changes).toHaveLength(2);
  });
});

describe("notifyWhenHeld: the desktop notification of a held approval", () => {
  it("says where to answer, and until when: the deadline is Hookbox's, so the notification names it (the hook's prompt does not)", () => {
    const store = new ApprovalStore();
    const shown: { title: string; body: string }[] = [];
    notifyWhenHeld(
      store,
      { notify: (title, body) => (shown.push({ title, body }), true), open: () => false },
      () => undefined,
      () => "hookbox approvals",
    );
    const held = store.hold(request, event);
    const expires = new Date(store.get(held.id)?.expires_at ?? "").toLocaleTimeString("en-GB", { hour12: false });
    expect(shown).toEqual([
      { title: "Hookbox: asker asks", body: `Deploy?\nPreToolUse Bash: deploy\nAnswer in hookbox approvals; unanswered by ${expires}, it is denied` },
    ]);
    store.close();
  });
});
