import { describe, expect, it } from "vitest";
import { decisionRecord } from "../audit/fixtures.ts";
import { consoleUnderTest } from "./helpers.ts";

// The console says why an escalated event was answered as it was (docs/powers.md, "Escalation").
describe("the console's event page", () => {
  it("names the escalation that answered a tool call: the answer, the session's denials and the operator's threshold", async () => {
    const entries = [
      decisionRecord({
        event_id: "e-esc",
        decision: "deny",
        decided_by: "hookbox",
        reason:
          "Hookbox escalation: 3 denied events in this session (the operator's escalation.after_denials is 3), so every tool call of this session is refused.",
        escalation: { denials: 3, after_denials: 3, answer: "deny" },
      }),
    ];
    const { request, signIn } = consoleUnderTest(entries);
    const { cookie } = await signIn();
    const html = await (await request("/runs/e-esc", { headers: { cookie } })).text();
    expect(html).toContain("Escalation");
    expect(html).toContain("deny: 3 denied tool calls in this session (the operator&#39;s escalation.after_denials is 3)");
  });
});
