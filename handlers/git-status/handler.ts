// git-status: tell the model which files are uncommitted — the output of `git status --short` —
// when a session starts and, at most once per prompt_cooldown_seconds and only when it changed,
// when the user submits a prompt. Silent when there is nothing to say (clean tree, no repository,
// no workspace). It never blocks anything: every failure is logged and the event goes on.

interface Config {
  promptCooldownMs: number;
  maxLines: number;
  maxChars: number;
  gitTimeoutMs: number;
}

/** What the hook remembers per session (in its store): when git last ran, and what it said then. */
interface Seen {
  at: number;
  digest: string;
}

const STORE_KEY = "sessions";
/** Sessions remembered at most, and for how long: the store stays small (its cap is 1 MiB). */
const MAX_SESSIONS = 200;
const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const MAX_LINE_CHARS = 300;

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const cfg = readConfig(hook.config);
  // No workspace (no cwd, or "/"): git has nothing to look at, and hook.run would refuse anyway.
  if (typeof event.cwd !== "string" || !event.cwd.startsWith("/") || event.cwd === "/") return { action: "continue" };
  const onPrompt = event.event_type === "UserPromptSubmit";
  const session = typeof event.session_id === "string" && event.session_id !== "" ? event.session_id.slice(0, 200) : "unknown";
  const now = Date.now();

  const memory = await recall(hook);
  const last = memory?.[session];
  if (onPrompt && last && now - last.at < cfg.promptCooldownMs) {
    hook.log("debug", `cooldown: git status ran ${Math.round((now - last.at) / 1000)} s ago in this session`);
    return { action: "continue" };
  }

  let result: Hookbox.RunResult;
  try {
    result = await hook.run("git", ["status", "--short"], { timeoutMs: cfg.gitTimeoutMs });
  } catch (error) {
    const { code, message } = describe(error);
    hook.log("warn", `git status could not run (${code}): ${message}`);
    // Say it once, when the session starts; not on every prompt.
    if (code !== "capability_denied" || onPrompt) return { action: "continue" };
    return {
      action: "continue",
      user_message:
        `git-status cannot run \`git status --short\`: ${message}. It needs the run grant { cmd: git, args: [status, --short] } ` +
        `(in its hook.yaml) to be allowed by hookbox.yaml: remove git from deny.run, or add it to ceilings.permissions.run, ` +
        `or approve it for this hook: hooks: { git-status: { permissions: { run: [{ cmd: git, args: ["status", "--short"] }] } } }`,
      user_message_level: "warning",
    };
  }
  if (result.timedOut || result.exitCode !== 0) {
    // Exit 128 "not a git repository" is the common case: a project without git has nothing to report.
    const why = result.timedOut ? `timed out after ${cfg.gitTimeoutMs} ms` : `exit ${result.exitCode}: ${firstLine(result.stderr)}`;
    hook.log("info", `git status: ${why}`);
    return { action: "continue" };
  }

  const lines = result.stdout.split("\n").filter((l) => l.trim() !== "");
  const digest = fnv1a(result.stdout);
  const changed = !last || last.digest !== digest;
  if (memory) await remember(hook, memory, session, { at: now, digest });
  if (lines.length === 0) return { action: "continue" }; // a clean tree: nothing to say
  if (onPrompt && !changed) {
    hook.log("debug", "git status is unchanged since it was last shown in this session");
    return { action: "continue" };
  }

  const text = format(lines, cfg, result.truncated);
  try {
    await hook.injectContext(text);
  } catch (error) {
    const { code, message } = describe(error);
    hook.log("warn", `injectContext failed (${code}): ${message}`);
    return onPrompt
      ? { action: "continue" }
      : { action: "continue", user_message: `git-status could not add context: ${message}`, user_message_level: "warning" };
  }
  return { action: "continue" };
}

function format(lines: string[], cfg: Config, truncated: boolean): string {
  const header = `Uncommitted changes in the workspace (git status --short: ${lines.length}${truncated ? "+" : ""} path${lines.length === 1 ? "" : "s"}; ?? untracked, M modified, A added, D deleted, R renamed):`;
  let body = "";
  let shown = 0;
  for (const line of lines.slice(0, cfg.maxLines)) {
    const clipped = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    if (header.length + body.length + clipped.length + 80 > cfg.maxChars) break;
    body += `\n${clipped}`;
    shown++;
  }
  const rest = lines.length - shown;
  const tail = rest > 0 ? `\n… and ${rest} more (run \`git status\` to see them all)` : truncated ? "\n… (git's output was longer than 50 KiB)" : "";
  return header + body + tail;
}

/** The store's per-session memory, or undefined when the store cannot be used (then: no cooldown). */
async function recall(hook: Hook): Promise<Record<string, Seen> | undefined> {
  try {
    const value = await hook.store.get(STORE_KEY);
    const out: Record<string, Seen> = {};
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [id, entry] of Object.entries(value)) {
        if (entry && typeof entry === "object" && !Array.isArray(entry) && typeof entry.at === "number" && typeof entry.digest === "string") {
          out[id] = { at: entry.at, digest: entry.digest };
        }
      }
    }
    return out;
  } catch (error) {
    hook.log("warn", `store unavailable, no cooldown this time: ${describe(error).message}`);
    return undefined;
  }
}

async function remember(hook: Hook, memory: Record<string, Seen>, session: string, seen: Seen): Promise<void> {
  const kept = Object.entries({ ...memory, [session]: seen })
    .filter(([, s]) => seen.at - s.at < SESSION_TTL_MS)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX_SESSIONS);
  try {
    await hook.store.set(STORE_KEY, Object.fromEntries(kept.map(([id, s]) => [id, { at: s.at, digest: s.digest }])));
  } catch (error) {
    hook.log("warn", `store write failed: ${describe(error).message}`);
  }
}

function describe(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown } | null;
  return { code: typeof e?.code === "string" ? e.code : "error", message: typeof e?.message === "string" ? e.message : String(error) };
}

function firstLine(text: string): string {
  return (text.split("\n").find((l) => l.trim() !== "") ?? "").slice(0, 200);
}

/** A short digest of git's output, to tell "changed" from "the same as last time". */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length}:${h.toString(16)}`;
}

function readConfig(c: Readonly<Record<string, unknown>>): Config {
  const num = (v: unknown, fallback: number, min: number, max: number): number =>
    typeof v === "number" && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback;
  return {
    promptCooldownMs: num(c.prompt_cooldown_seconds, 300, 0, 7 * 24 * 3600) * 1000,
    maxLines: num(c.max_lines, 40, 1, 1000),
    // One injection is at most 10 KiB.
    maxChars: num(c.max_chars, 4000, 200, 9000),
    gitTimeoutMs: num(c.git_timeout_ms, 5000, 100, 60_000),
  };
}
