import { describe, expect, it } from "vitest";
import { DOCTOR_SESSION_ID, type AuditEntry } from "../../src/decide/audit/record.ts";
import { groupByEvent, isDoctorCall, isQuiet, matchesFilter } from "../../src/serve/console/recent.ts";
import { decisionRecord, runRecord } from "../audit/fixtures.ts";
import { consoleUnderTest } from "./helpers.ts";

/** One event: its decision and the runs of the hooks given. */
function event(
  id: string,
  decision: "allow" | "deny" | "ask",
  options: { hooks?: string[]; session?: string; incomplete?: boolean } = {},
): AuditEntry[] {
  const session = options.session ?? "s-1";
  return [
    ...(options.hooks ?? []).map((hook, i) =>
      runRecord({
        id: `r-${id}-${i}`,
        event_id: id,
        hook_id: hook,
        session_id: session,
        status: decision === "deny" ? "denied" : "completed",
        action: decision === "deny" ? "deny" : "continue",
      }),
    ),
    decisionRecord({
      id: `d-${id}`,
      event_id: id,
      session_id: session,
      decision,
      reason: decision === "allow" ? undefined : "no",
      subject: `subject of ${id}`,
      ...(options.incomplete ? { incomplete: { code: "operator_invalid", cause: "the operator file is invalid", rule: "deny" } } : {}),
    }),
  ];
}

const ENTRIES: AuditEntry[] = [
  ...event("ran", "allow", { hooks: ["guard"] }),
  ...event("quiet-1", "allow"),
  ...event("quiet-2", "allow"),
  // Denied with no hook running (an unusable operator file): news, never hidden.
  ...event("denied-unran", "deny", { incomplete: true }),
  ...event("doctor-ok", "allow", { session: DOCTOR_SESSION_ID, hooks: ["guard"] }),
  // A doctor call that was denied is news too.
  ...event("doctor-denied", "deny", { session: DOCTOR_SESSION_ID, hooks: ["guard"] }),
];

const ids = (page: string): string[] => [...page.matchAll(/<tr data-event-id="([^"]+)"/g)].map((m) => m[1] as string);

describe("the runs table hides what a person rarely wants, and says so", () => {
  it("truth table: quiet events (allowed, no hook ran, nothing else to tell) and doctor's allowed test calls", () => {
    const groups = new Map(groupByEvent(ENTRIES).map((group) => [group.eventId, group]));
    const table = [...groups.values()].map((group) => [group.eventId, isQuiet(group), isDoctorCall(group)]);
    expect(table).toEqual([
      ["doctor-denied", false, false],
      ["doctor-ok", false, true],
      ["denied-unran", false, false],
      ["quiet-2", true, false],
      ["quiet-1", true, false],
      ["ran", false, false],
    ]);
    const byDefault = [...groups.values()].filter((group) => matchesFilter(group, {})).map((group) => group.eventId);
    expect(byDefault).toEqual(["doctor-denied", "denied-unran", "ran"]);
    // Asking for doctor's session by name shows its calls.
    expect([...groups.values()].filter((group) => matchesFilter(group, { session: DOCTOR_SESSION_ID })).map((group) => group.eventId)).toEqual([
      "doctor-denied",
      "doctor-ok",
    ]);
  });

  it("by default the page leaves them out and counts them; the boxes show them, doctor's marked as its test", async () => {
    const { request, signIn } = consoleUnderTest(ENTRIES);
    const { cookie } = await signIn();
    const page = await (await request("/", { headers: { cookie } })).text();
    expect(ids(page)).toEqual(["doctor-denied", "denied-unran", "ran"]);
    expect(page).toContain("Not shown: 2 events allowed with no hook run and 1 test call from hookbox doctor");
    expect(page).toMatch(/<input type="checkbox" name="no_hook" value="show"\s*\/?>/);
    const all = await (await request("/?no_hook=show&doctor=show", { headers: { cookie } })).text();
    expect(ids(all)).toEqual(["doctor-denied", "doctor-ok", "denied-unran", "quiet-2", "quiet-1", "ran"]);
    expect(all).not.toContain("Not shown:");
    expect(all).toMatch(/<input type="checkbox" name="no_hook" value="show" checked/);
    expect(all.match(/class="badge doctor"/g)).toHaveLength(1);
    const quietOnly = await (await request("/?no_hook=show", { headers: { cookie } })).text();
    expect(quietOnly).toContain("Not shown: 1 test call from hookbox doctor (tick");
  });

  it("the live stream follows the same filter", async () => {
    const { request, signIn } = consoleUnderTest(ENTRIES);
    const { cookie } = await signIn();
    const controller = new AbortController();
    const reply = await request("/live?view=runs&since=", { headers: { cookie }, signal: controller.signal });
    const reader = (reply.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("event: runs")) text += new TextDecoder().decode((await reader.read()).value);
    while (!/event: runs\ndata: .*\n\n/s.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(ids(text)).toEqual(["doctor-denied", "denied-unran", "ran"]);
  });
});
