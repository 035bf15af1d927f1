import { createServer, type Server } from "node:net";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { DaemonWorld } from "../helpers/daemon.ts";

/**
 * `hookbox replay` through the built binary, over Claude Code transcripts written the way Claude
 * Code 2.1.330 writes them (the real CLI's own sessions are replayed in
 * test/e2e/agents/replay-agents.test.ts): a replay makes no effect — no file written, no command
 * run, no connection to a listening socket, nothing in the audit log — and counts each; lines it
 * cannot read are reported with file:line and skipped; --with, --compare and --llm-replies.
 */

interface Report {
  totals: { events: number; allowed: number; denied: number; asked: number };
  hooks: { hook_id: string; seen: number; allowed: number; denied: number; asked: number; rewrote: number; failed: number; monitor: boolean }[];
  decisions: {
    hook_id: string;
    decision: string;
    reason: string;
    tool: string | null;
    input: string;
    file: string;
    line: number;
    blocked_live: boolean;
  }[];
  effects: { effect: string; count: number; hooks: string[] }[];
  not_reproduced: { what: string; count: number }[];
  history_problems: { file: string; line: number; problem: string }[];
}

const SESSION = "5b0f8a52-2f65-4cc1-9a5e-0d3b6a0c6a11";

/** A Claude Code transcript: a prompt, then each tool call and its result, as Claude Code writes them. */
function transcript(cwd: string, calls: readonly { name: string; input: Record<string, unknown>; blocked?: string; result?: string }[]): string {
  const base = { sessionId: SESSION, cwd, version: "2.1.330", userType: "external", isSidechain: false };
  const lines: unknown[] = [
    { type: "queue-operation", operation: "enqueue", timestamp: "2026-11-20T10:00:00.000Z", sessionId: SESSION, content: "work" },
    {
      ...base,
      type: "user",
      message: { role: "user", content: "work" },
      uuid: "u0",
      timestamp: "2026-11-20T10:00:00.100Z",
      permissionMode: "default",
    },
  ];
  calls.forEach((call, index) => {
    const id = `toolu_01REPLAY${String(index).padStart(16, "0")}`;
    const at = `2026-11-20T10:00:${String(index * 2 + 1).padStart(2, "0")}.000Z`;
    lines.push({
      ...base,
      type: "assistant",
      uuid: `a${index}`,
      timestamp: at,
      message: {
        id: `msg_${index}`,
        role: "assistant",
        content: [{ type: "tool_use", id, name: call.name, input: call.input }],
        stop_reason: "tool_use",
      },
    });
    const blocked = call.blocked !== undefined;
    const content = blocked ? `PreToolUse:${call.name} hook error: ${call.blocked}` : (call.result ?? "ok");
    lines.push({
      ...base,
      type: "user",
      uuid: `r${index}`,
      timestamp: at.replace(/\.000Z$/, ".500Z"),
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...(blocked ? { is_error: true } : {}) }] },
      toolUseResult: blocked ? `Error: ${content}` : { stdout: call.result ?? "ok", stderr: "" },
    });
  });
  lines.push({
    ...base,
    type: "assistant",
    uuid: "end",
    timestamp: "2026-11-20T10:01:00.000Z",
    message: { id: "msg_end", role: "assistant", content: [{ type: "text", text: "done" }], stop_reason: "end_turn" },
  });
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

describe("hookbox replay", () => {
  let world: DaemonWorld;
  let project: string;
  let listener: Server;
  let port: number;
  const connections: string[] = [];

  beforeAll(async () => {
    world = new DaemonWorld();
    project = join(world.dir, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    // Anything that reaches this socket is an effect the replay must not have made.
    listener = createServer((socket) => {
      connections.push(`${socket.remoteAddress}:${socket.remotePort}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
    world.cleanup();
  });
  beforeEach(() => {
    connections.length = 0;
  });

  const operator = (text: string): void => {
    mkdirSync(join(world.home, ".config/hookbox"), { recursive: true });
    writeFileSync(join(world.home, ".config/hookbox/hookbox.yaml"), `daemon: { auto_start: false }\n${text}`);
  };
  const hook = (dir: string, name: string, text: string): void => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.yaml`), text);
  };
  const session = (name: string, text: string): string => {
    const dir = join(world.dir, "sessions");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const replay = async (args: readonly string[]) => {
    const run = await runProgram([BUILT_BINARY, "replay", ...args], { cwd: project, env: world.env(), timeoutMs: 120_000 });
    return { ...run, json: <T = Report>() => JSON.parse(run.stdout) as T };
  };

  it("makes no effect: no command run, no file or store written, nothing sent to a listening socket, nothing in the audit log; each is counted", async () => {
    operator(`builtin: [guard-secrets]
notify: { sinks: [{ webhook: "http://127.0.0.1:${port}/notify" }] }
llm: { local: { endpoint: "http://127.0.0.1:${port}/v1", api: openai, model: m } }
ceilings: { permissions: { net: ["127.0.0.1:${port}"] } }
`);
    const hooks = join(world.home, ".config/hookbox/hooks");
    hook(
      hooks,
      "effects",
      `id: effects
events: [PreToolUse]
permissions: { run: [{ cmd: touch }, { cmd: cat }], store: true, notify: true, llm: [local], net: ["127.0.0.1:${port}"], read: ["\${workspace}/**"] }
handler:
  code: |
    export default async (e, hook) => {
      const tried = [];
      const attempt = async (what, f) => { try { await f(); tried.push(what + ": done"); } catch (err) { tried.push(what + ": " + err.code); } };
      await attempt("touch", () => hook.run("touch", ["${project}/touched-by-replay"]));
      await attempt("cat", () => hook.run("cat", ["${project}/notes.txt"]));
      await attempt("store", () => hook.store.set("seen", e.tool_input));
      await attempt("notify", () => hook.notify("replayed", {}));
      await attempt("llm", () => hook.llm.complete({ prompt: "is this fine?" }));
      await attempt("http", () => hook.http.get("http://127.0.0.1:${port}/x"));
      const back = await hook.store.get("seen");
      return { reason: tried.join("; ") + "; store read back " + JSON.stringify(back) };
    };
`,
    );
    writeFileSync(join(project, "notes.txt"), "notes\n");
    const file = session(
      "effects.jsonl",
      transcript(project, [
        { name: "Write", input: { file_path: join(project, ".env"), content: "KEY=1" }, blocked: "guard-secrets: no" },
        { name: "Bash", input: { command: "ls" } },
      ]),
    );
    const auditBefore = existsSync(world.auditFile) ? readFileSync(world.auditFile, "utf8") : undefined;
    const run = await replay([file, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json();
    // Nothing happened: the file touch would make, the store file, a connection, a line of audit.
    expect(existsSync(join(project, "touched-by-replay"))).toBe(false);
    expect(existsSync(join(world.home, ".local/share/hookbox/store/effects.json"))).toBe(false);
    expect(connections).toEqual([]);
    expect(existsSync(world.auditFile) ? readFileSync(world.auditFile, "utf8") : undefined).toBe(auditBefore);
    // And each effect is counted, by kind, with the hook that asked.
    const counts = Object.fromEntries(report.effects.map((e) => [e.effect, e.count]));
    // The .env write is denied by guard-secrets before the hook runs (its priority is lower): one call reaches it.
    expect(counts).toMatchObject({
      "command not run": 1,
      "store write kept in memory": 1,
      "notification not sent": 1,
      "model not asked": 1,
      "network request not sent": 1,
    });
    expect(report.effects.every((e) => e.hooks.includes("effects"))).toBe(true);
    expect(report.not_reproduced.map((n) => n.what)).toEqual(
      expect.arrayContaining([
        "read-only commands run against today's files (their output may differ from the session's)",
        "decisions that depended on an effect the replay did not make",
      ]),
    );
    // The guard still decides as it would: the .env write is denied, and it was in the session too.
    expect(report.decisions).toEqual([expect.objectContaining({ hook_id: "guard-secrets", decision: "deny", tool: "Write", blocked_live: true })]);
    expect(report.totals).toMatchObject({ denied: 1 });
  });

  it("reports unknown and truncated lines with file:line, skips them, and replays the rest", async () => {
    operator("builtin: [guard-secrets, bash-guard]\n");
    const good = transcript(project, [{ name: "Bash", input: { command: "git push --force origin main" } }])
      .split("\n")
      .filter(Boolean);
    // An entry of a kind no reader knows, in the middle; the last line cut by a crash.
    const text = [...good.slice(0, 2), '{"type":"telepathy","sessionId":"x"}', ...good.slice(2), good.at(-1)?.slice(0, 40)].join("\n");
    const file = session("broken.jsonl", text);
    const run = await replay([file, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json();
    expect(report.history_problems).toEqual([
      { file, line: 3, problem: 'unknown entry (type "telepathy"): skipped' },
      { file, line: good.length + 2, problem: expect.stringMatching(/^truncated \(".*"\): skipped$/) },
    ]);
    expect(report.decisions).toEqual([expect.objectContaining({ hook_id: "bash-guard", decision: "deny", input: "git push --force origin main" })]);
    const text2 = await replay([file]);
    expect(text2.stdout).toContain(`${file}:3: unknown entry`);
  });

  it("--compare between a hook set and the same set plus a stricter guard lists only the newly blocked calls", async () => {
    operator("builtin: [guard-secrets, bash-guard]\n");
    const stricter = join(world.dir, "stricter");
    mkdirSync(stricter, { recursive: true });
    writeFileSync(
      join(stricter, "hook.yaml"),
      `id: no-markdown\nevents: [PreToolUse]\nmatch: { tool: Write }\nhandler: { code: "export default (e) => /\\\\.md$/.test(e.tool_input.file_path) ? { action: 'deny', reason: 'no markdown' } : {}" }\n`,
    );
    const file = session(
      "compare.jsonl",
      transcript(project, [
        { name: "Write", input: { file_path: join(project, ".env"), content: "A=1" }, blocked: "guard-secrets: no" },
        { name: "Write", input: { file_path: join(project, "README.md"), content: "# hi" } },
        { name: "Write", input: { file_path: join(project, "main.ts"), content: "x" } },
        { name: "Bash", input: { command: "rm -rf /" }, blocked: "bash-guard: no" },
      ]),
    );
    const run = await replay([file, "--json", "--compare", "current", stricter]);
    expect(run.code, run.stderr).toBe(1);
    const comparison = run.json<{
      differences: { change: string; input: string; a: { decision: string }; b: { decision: string; by: string } }[];
      newly_blocked: number;
    }>();
    expect(comparison.differences).toEqual([
      expect.objectContaining({
        change: "newly blocked",
        input: join(project, "README.md"),
        a: expect.objectContaining({ decision: "allow" }),
        b: expect.objectContaining({ decision: "deny", by: "no-markdown" }),
      }),
    ]);
    // The same hook set on both sides: nothing differs, exit 0.
    const same = await replay([file, "--compare", "current", "current"]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain("A and B decide every call the same.");
    // --with adds it to the one hook set a plain replay reports on.
    const withIt = (await replay([file, "--json", "--with", stricter])).json();
    expect(withIt.hooks.find((h) => h.hook_id === "no-markdown")).toMatchObject({ seen: 3, denied: 1 });
  });

  it("--llm-replies answers model calls with pinned replies, counted as such", async () => {
    operator(`llm: { local: { endpoint: "http://127.0.0.1:${port}/v1", api: openai, model: m } }\n`);
    const hooks = join(world.home, ".config/hookbox/hooks");
    hook(hooks, "effects", `id: effects\nevents: [Stop]\nhandler: { code: "export default () => ({})" }\n`);
    hook(
      hooks,
      "judge",
      `id: judge\nevents: [PreToolUse]\npermissions: { llm: [local] }\nhandler: { code: "export default async (e, hook) => { const r = await hook.llm.complete({ prompt: e.tool_input.command }); return r.text === 'deny' ? { action: 'deny', reason: 'the model said so' } : {}; }" }\n`,
    );
    const replies = join(world.dir, "replies.yaml");
    writeFileSync(replies, "- answer: deny\n");
    const file = session("llm.jsonl", transcript(project, [{ name: "Bash", input: { command: "make deploy" } }]));
    const report = (await replay([file, "--json", "--llm-replies", replies])).json();
    expect(connections).toEqual([]);
    expect(report.decisions).toEqual([expect.objectContaining({ hook_id: "judge", decision: "deny", reason: "the model said so" })]);
    expect(report.effects).toEqual([expect.objectContaining({ effect: "model answered by a pinned reply", count: 1 })]);
  });

  it("says what it could not reproduce: a file a hook read that is gone now, a session's project directory that is gone", async () => {
    operator("");
    const hooks = join(world.home, ".config/hookbox/hooks");
    hook(
      hooks,
      "effects",
      `id: effects\nevents: [PreToolUse]\npermissions: { read: ["\${workspace}/**"] }\nhandler: { code: "export default async (e, hook) => { try { await hook.readFile(e.cwd + '/settings.json'); } catch {} return {}; }" }\n`,
    );
    const gone = join(world.dir, "deleted-project");
    const here = session("here.jsonl", transcript(project, [{ name: "Bash", input: { command: "ls" } }]));
    const there = session(
      "there.jsonl",
      transcript(gone, [{ name: "Bash", input: { command: "ls" } }]).replaceAll(SESSION, "6c1f9b63-3076-4dd2-8b6f-1e4c7b1d7b22"),
    );
    const run = await replay([here, there, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const unreproduced = run.json<{ not_reproduced: { what: string; count: number; examples: string[] }[] }>().not_reproduced;
    expect(unreproduced).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          what: "files a hook read that do not exist now",
          examples: [`effects: ${join(project, "settings.json")}`, `effects: ${join(gone, "settings.json")}`],
        }),
        expect.objectContaining({ what: "project directories of the sessions that do not exist now (hooks saw no files there)", examples: [gone] }),
      ]),
    );
  });

  it("with no source, reads the project's sessions where the agent keeps them, and says where it looked when there are none", async () => {
    operator("builtin: [bash-guard]\n");
    const empty = await replay(["--agent", "claude"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no recorded sessions to replay; looked in: Claude Code's session transcripts/);
    const dir = join(world.home, ".claude/projects", project.replace(/[^A-Za-z0-9]/g, "-"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${SESSION}.jsonl`), transcript(project, [{ name: "Bash", input: { command: "git push -f origin main" } }]));
    const found = await replay(["--json"]);
    expect(found.code, found.stderr).toBe(0);
    expect(found.json().decisions).toEqual([expect.objectContaining({ hook_id: "bash-guard", decision: "deny" })]);
    expect(statSync(world.home).isDirectory()).toBe(true);
  });
});
