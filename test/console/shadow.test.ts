import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/decide/audit/record.ts";
import type { SavedReport } from "../../src/decide/replay/saved.ts";
import { decisionRecord, runRecord } from "../audit/fixtures.ts";
import { consoleUnderTest } from "./helpers.ts";

/** The console's Shadow page: what monitored hooks would have blocked, and the replay reports kept. */
const HOSTILE = `<script>alert("x")</script>`;

const ENTRIES: AuditEntry[] = [
  runRecord({
    id: "r-1",
    event_id: "e-1",
    hook_id: "guard-secrets",
    status: "completed",
    action: "deny",
    mode: "monitor",
    would: { decision: "deny", reason: `no .env ${HOSTILE}` },
  }),
  decisionRecord({ id: "d-1", event_id: "e-1", decision: "allow", tool_name: "Write", subject: "/home/dev/app/.env" }),
  runRecord({ id: "r-2", event_id: "e-2", hook_id: "guard-secrets", status: "completed", mode: "monitor", would: { decision: "allow" } }),
  decisionRecord({ id: "d-2", event_id: "e-2", decision: "allow", tool_name: "Write", subject: "/home/dev/app/a.ts" }),
];

const REPORT: SavedReport = {
  file: "2026-11-20T10-00-00-000Z.json",
  command: "hookbox replay --with ./stricter",
  saved_at: "2026-11-20T10:00:00.000Z",
  report: {
    v: 1,
    hook_set: "current + ./stricter",
    sources: { files: 1, lines: 10, sessions: { claude: 1 }, events: { PreToolUse: 2 } },
    totals: { events: 2, allowed: 1, denied: 1, asked: 0, incomplete: 0 },
    hooks: [{ hook_id: "no-markdown", seen: 2, allowed: 1, denied: 1, asked: 0, rewrote: 0, failed: 0, skipped: 0, monitor: false }],
    decisions: [
      {
        hook_id: "no-markdown",
        decision: "deny",
        reason: "no markdown",
        at: "2026-11-20T09:00:00.000Z",
        agent: "claude",
        session: "s",
        event_type: "PreToolUse",
        tool: "Write",
        input: `/home/dev/app/${HOSTILE}.md`,
        file: "/home/dev/.claude/projects/x/s.jsonl",
        line: 7,
        blocked_live: false,
        monitor: false,
      },
    ],
    effects: [{ effect: "command not run", count: 1, hooks: ["no-markdown"], examples: [] }],
    not_reproduced: [],
    history_problems: [{ file: "/home/dev/.claude/projects/x/s.jsonl", line: 9, problem: "truncated: skipped" }],
    started_at: "2026-11-20T10:00:00.000Z",
    duration_ms: 5,
  },
};

describe("the Shadow page", () => {
  it("lists what monitored hooks would have blocked (not what they would have allowed), escaped, each linked to its event", async () => {
    const { request, signIn } = consoleUnderTest(ENTRIES, undefined, [], [REPORT]);
    const { cookie } = await signIn();
    const page = await (await request("/shadow", { headers: { cookie } })).text();
    expect(page).toContain('href="/runs/e-1"');
    expect(page).not.toContain('href="/runs/e-2"');
    expect(page).toContain("/home/dev/app/.env");
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain("&lt;script&gt;");
    // The replay reports kept, each linked to its page.
    expect(page).toContain(`href="/replays/${REPORT.file}"`);
    expect(page).toContain("hookbox replay --with ./stricter");
  });

  it("shows a kept report whole, escaped; an unknown one is a 404", async () => {
    const { request, signIn } = consoleUnderTest(ENTRIES, undefined, [], [REPORT]);
    const { cookie } = await signIn();
    const reply = await request(`/replays/${REPORT.file}`, { headers: { cookie } });
    expect(reply.status).toBe(200);
    const page = await reply.text();
    expect(page).toContain("no-markdown");
    expect(page).toContain("s.jsonl:7");
    expect(page).toContain("1 command not run");
    expect(page).toContain("truncated: skipped");
    expect(page).not.toContain(HOSTILE);
    expect((await request("/replays/nope.json", { headers: { cookie } })).status).toBe(404);
  });

  it("the runs table marks a monitored run with what it would have done", async () => {
    const { request, signIn } = consoleUnderTest(ENTRIES);
    const { cookie } = await signIn();
    const page = await (await request("/", { headers: { cookie } })).text();
    expect(page).toMatch(
      /guard-secrets <span class="badge status-completed">completed<\/span><span class="badge would decision-deny">would deny<\/span>/,
    );
  });

  it("needs a session like every page", async () => {
    const { request } = consoleUnderTest(ENTRIES);
    expect((await request("/shadow")).status).toBe(401);
  });
});
