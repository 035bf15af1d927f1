import { ApprovalStore } from "../../src/decide/approvals/store.ts";
import type { AuditEntry } from "../../src/decide/audit/record.ts";
import { createConsoleApp } from "../../src/serve/console/app.tsx";
import { ConsoleAuth } from "../../src/serve/console/auth.ts";
import { LiveHub } from "../../src/serve/console/live.ts";
import type { HookSets } from "../../src/decide/hook-sets.ts";
import type { NativeEvent } from "../../src/core/events/types.ts";
import type { SavedReport } from "../../src/decide/replay/saved.ts";

export const PORT = 48123;
export const ORIGIN = `http://127.0.0.1:${PORT}`;

/** The console's app in-process, over records and approvals the test controls. */
export function consoleUnderTest(
  entries: AuditEntry[] = [],
  now: { ms: number } = { ms: Date.now() },
  unguarded: readonly string[] = [],
  replayReports: readonly SavedReport[] = [],
) {
  const auth = new ConsoleAuth(() => now.ms);
  const approvals = new ApprovalStore();
  const hookSets = {
    projects: () => [],
    forProject: async () => ({ project: undefined, snapshot: { get: () => undefined } }),
  } as unknown as HookSets;
  const app = createConsoleApp({
    auth,
    port: () => PORT,
    hub: new LiveHub(),
    recentEntries: async () => entries,
    approvals,
    answered: () => [],
    hookSets,
    fire: async () => undefined,
    health: () => ({
      points: [],
      audit: {
        path: "/x",
        written: 0,
        dropped: 0,
        rotations: 0,
        repairedTornLines: 0,
        lastError: undefined,
        failing: false,
        chain: { tail: "unchecked", checkedLinks: 0, head: undefined },
      },
      exports: [],
      sandbox: { workers: 1, busy: 0, queued: 0, kills: 0, crashes: 0 },
      pending: 0,
    }),
    unguarded: async () => unguarded,
    version: "test",
    pid: 1,
    replayReports: async () => replayReports,
  });
  const request = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    app.request(`${ORIGIN}${path}`, { ...init, headers: { host: `127.0.0.1:${PORT}`, ...init.headers } });
  /** Sign in with a fresh login link; the cookie header to send and the session's CSRF token. */
  const signIn = async (): Promise<{ cookie: string; csrf: string }> => {
    const reply = await request(`/login?token=${auth.mintLoginToken()}`);
    const cookie = (reply.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const page = await (await request("/approvals", { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([0-9a-f]+)"/.exec(page)?.[1] ?? "";
    return { cookie, csrf };
  };
  const hold = (prompt: string) =>
    approvals.hold({ hook_id: "asker", prompt, options: [], timeout_ms: 60_000, default: "deny" }, {
      event_type: "PreToolUse",
      session_id: "s",
      timestamp: "",
      tool_name: "Bash",
      tool_input: { command: "deploy" },
    } as NativeEvent);
  return { app, auth, approvals, request, signIn, hold };
}
