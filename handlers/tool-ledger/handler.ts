// tool-ledger: a per-session record of every tool call (input and output summaries, duration,
// status) in the hook's store, with a markdown rendering beside it; and, before a call, a
// warning — or with mode: deny, a refusal — when it repeats a side-effecting command (git push,
// npm publish, a deploy, a POST …) that already ran in this session (seeds 000/001).
//
// Store layout (hook.store, one JSON file per hook, at most 1 MiB in all):
//   sessions          string[]  session keys, oldest first (at most max_sessions are kept)
//   session/<id>      Session   the rolling call log and the side effects seen
//   ledger.md         string    the markdown log of the session that recorded last
// The store has no compare-and-set: two events of one session evaluated at the same moment
// (parallel tool calls) can each read the log before the other writes it, and one entry is lost.

type Obj = Record<string, unknown>;
type Status = "ok" | "error" | "interrupted";

interface Entry {
  n: number;
  at: string;
  tool: string;
  input: string;
  output: string;
  ms: number | null;
  status: Status;
}

/** A side-effecting command or call: pending (allowed, no result yet), done or failed. */
interface Effect {
  fp: string;
  text: string;
  status: "pending" | "done" | "failed";
  at: string;
  n: number | null;
}

interface Session {
  total: number;
  calls: Entry[];
  effects: Effect[];
}

interface Settings {
  mode: "warn" | "deny";
  sideEffects: RegExp[];
  sideEffectTools: RegExp[];
  exempt: RegExp[];
  windowMs: number;
  maxEntries: number;
  maxSessions: number;
  summaryChars: number;
}

const MAX_EFFECTS = 100;
const MAX_SEGMENTS = 50;

/** Used when config.side_effects is absent: commands that change something outside the workspace. */
const DEFAULT_SIDE_EFFECTS = [
  "\\bgit(\\s+-[Cc]\\s+\\S+)*\\s+push\\b",
  "\\b(npm|pnpm|yarn|bun)\\s+publish\\b",
  "\\b(cargo\\s+publish|twine\\s+upload|gem\\s+push|poetry\\s+publish|docker\\s+push)\\b",
  "\\bkubectl\\s+(apply|create|delete|replace|patch|scale|rollout\\s+restart)\\b",
  "\\bhelm\\s+(install|upgrade|uninstall|rollback)\\b",
  "\\b(terraform|tofu)\\s+(apply|destroy|import)\\b",
  "\\bpulumi\\s+(up|destroy)\\b",
  "\\b(vercel|netlify|fly|flyctl|firebase|wrangler|serverless|sls|cdk|heroku|gcloud|eb)\\b.*\\bdeploy\\b",
  "\\bgh\\s+(pr\\s+(create|merge)|release\\s+create|issue\\s+create|repo\\s+create)\\b",
  "\\bcurl\\b.*(\\s-X\\s*(POST|PUT|PATCH|DELETE)\\b|\\s--request\\s+(POST|PUT|PATCH|DELETE)\\b|\\s(-d|--data[\\w-]*|-F|--form|--json)(\\s|=))",
  "\\bwget\\b.*--(post-data|post-file|method=(POST|PUT|PATCH|DELETE))",
  "\\bhttps?\\s+(POST|PUT|PATCH|DELETE)\\b",
];
const DEFAULT_SIDE_EFFECT_TOOLS = ["^mcp__.+__(create|send|post|publish|deploy|delete|merge|push|transfer|pay|charge)"];
const DEFAULT_EXEMPT = ["--dry-?run\\b", "\\bgit\\b.*\\spush\\b.*\\s-n(\\s|$)"];

/** Secrets that show up in command lines; the ledger keeps summaries, never credentials. */
const REDACTIONS: readonly [RegExp, string][] = [
  [/(:\/\/)[^\s/@:]+:[^\s/@]+@/g, "$1***@"],
  [/\b(authorization\s*[:=]\s*)(?:(?:bearer|basic|token|digest)\s+)?[^\s'"]+/gi, "$1***"],
  [/\b(bearer|token)\s+(?!\*\*\*)[A-Za-z0-9._~+/=-]{8,}/gi, "$1 ***"],
  [/(--?(?:password|passwd|token|api-?key|secret|auth)(?:=|\s+))(?!\*\*\*)("[^"]*"|'[^']*'|\S+)/gi, "$1***"],
  [/\b([A-Za-z0-9_]*(?:api_?key|token|secret|password|passwd|pwd|auth)[A-Za-z0-9_]*\s*[=:]\s*)(?!\*\*\*)("[^"]*"|'[^']*'|[^\s"']+)/gi, "$1***"],
  [
    /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20,})/g,
    "***",
  ],
];

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const tool = typeof event.tool_name === "string" ? event.tool_name : "";
  if (!tool) return { action: "continue" };
  const config: Readonly<Obj> = isObj(hook.config) ? hook.config : {};
  const settings = readSettings(config, hook);
  const sessionKey = `session/${safeId(event.session_id)}`;
  const now = timeOf(event.timestamp);
  const effects = effectsOf(tool, event.tool_input, settings);

  if (event.event_type === "PreToolUse") return beforeCall(hook, settings, sessionKey, now, effects, event.tool_use_id);
  if (event.event_type === "PostToolUse" || event.event_type === "PostToolUseFailure") {
    await afterCall(hook, settings, event, sessionKey, now, tool, effects);
  }
  return { action: "continue" };
}

/** Before a call: flag a side effect that already happened, and remember this one as pending. */
async function beforeCall(
  hook: Hook,
  settings: Settings,
  key: string,
  now: number,
  effects: { fp: string; text: string }[],
  toolUseId: unknown,
): Promise<HookResult> {
  if (effects.length === 0) return { action: "continue" };
  const session = await loadSession(hook, key);
  const since = settings.windowMs > 0 ? now - settings.windowMs : -Infinity;
  const repeats = new Set<string>();
  const inThisCall = new Set<string>();
  for (const effect of effects) {
    const earlier = session.effects.find((e) => e.fp === effect.fp && e.status === "done" && timeOf(e.at) >= since);
    if (earlier) {
      repeats.add(
        `\`${effect.text}\` already ran in this session (${clock(earlier.at)} UTC${earlier.n !== null ? `, call #${earlier.n}` : ""}, succeeded)`,
      );
    } else if (inThisCall.has(effect.fp)) {
      repeats.add(`\`${effect.text}\` appears twice in this one call`);
    }
    inThisCall.add(effect.fp);
  }
  // Remember what this hook let through, so a repeat is caught even when no result comes back.
  const at = new Date(now).toISOString();
  for (const effect of effects) {
    const known = session.effects.find((e) => e.fp === effect.fp);
    if (known && known.status !== "done") {
      known.status = "pending";
      known.at = at;
    } else if (!known) {
      session.effects.push({ fp: effect.fp, text: effect.text, status: "pending", at, n: null });
    }
  }
  session.effects = session.effects.slice(-MAX_EFFECTS);
  await hook.store.set(key, toJson(session));
  hook.log(
    "info",
    `side effect${effects.length > 1 ? "s" : ""} before the call${typeof toolUseId === "string" ? ` ${toolUseId}` : ""}: ${effects.map((e) => e.text).join(" ; ")}${repeats.size ? " (repeat)" : " (first time)"}`,
  );
  if (repeats.size === 0) return { action: "continue" };

  const what = [...repeats].join("; ");
  if (settings.mode === "deny") {
    return {
      action: "deny",
      reason: `Not run: ${what}. It changes something outside this workspace, and running it again may do it twice (a second push, publish, deploy or POST). If it really must run again, say why and ask the user to run it or to allow repeats (tool-ledger mode: warn).`,
    };
  }
  return { action: "continue", user_message: `tool-ledger: ${what}; it is running again.`, user_message_level: "warning" };
}

/** After a call: append it to the session's log, settle its side effects, re-render the markdown. */
async function afterCall(
  hook: Hook,
  settings: Settings,
  event: HookEvent,
  key: string,
  now: number,
  tool: string,
  effects: { fp: string; text: string }[],
): Promise<void> {
  const failed = event.event_type === "PostToolUseFailure";
  const status: Status = failed ? (event.is_interrupt === true ? "interrupted" : "error") : statusOf(event.tool_response);
  const session = await loadSession(hook, key);
  const n = session.total + 1;
  const entry: Entry = {
    n,
    at: new Date(now).toISOString(),
    tool,
    input: summarize(inputSummary(event.tool_input), settings.summaryChars),
    output: summarize(failed ? errorSummary(event.error) || "(failed)" : outputSummary(event.tool_response), settings.summaryChars),
    ms: typeof event.duration_ms === "number" && Number.isFinite(event.duration_ms) && event.duration_ms >= 0 ? Math.round(event.duration_ms) : null,
    status,
  };
  session.total = n;
  session.calls.push(entry);
  session.calls = session.calls.slice(-settings.maxEntries);
  for (const effect of effects) {
    const known = session.effects.find((e) => e.fp === effect.fp);
    const settled: Effect = { fp: effect.fp, text: effect.text, status: status === "ok" ? "done" : "failed", at: entry.at, n };
    if (known) Object.assign(known, settled);
    else session.effects.push(settled);
  }
  session.effects = session.effects.slice(-MAX_EFFECTS);

  await hook.store.set(key, toJson(session));
  await hook.store.set("ledger.md", render(key.slice("session/".length), session));
  await rememberSession(hook, key, settings.maxSessions);
  hook.log("info", `recorded #${n} ${tool} [${status}] ${entry.input}${entry.ms !== null ? ` (${entry.ms} ms)` : ""}`);
  hook.log("debug", `ledger.md row: ${row(entry)}`);
}

/** Keep the newest max_sessions sessions; the oldest one's log is deleted. */
async function rememberSession(hook: Hook, key: string, maxSessions: number): Promise<void> {
  const stored = await hook.store.get("sessions");
  const sessions = Array.isArray(stored) ? stored.filter((s): s is string => typeof s === "string") : [];
  if (sessions.includes(key)) return;
  sessions.push(key);
  while (sessions.length > maxSessions) {
    const oldest = sessions.shift();
    if (oldest !== undefined) await hook.store.delete(oldest);
  }
  await hook.store.set("sessions", sessions);
}

async function loadSession(hook: Hook, key: string): Promise<Session> {
  const stored = await hook.store.get(key);
  const value = isObj(stored) ? stored : {};
  // The store is ours, but read it as untrusted anyway: a hand-edited file must not break hooks.
  return {
    total: typeof value.total === "number" && Number.isInteger(value.total) && value.total >= 0 ? value.total : 0,
    calls: Array.isArray(value.calls) ? (value.calls.filter(isObj) as unknown as Entry[]) : [],
    effects: Array.isArray(value.effects) ? (value.effects.filter((e) => isObj(e) && typeof e.fp === "string") as unknown as Effect[]) : [],
  };
}

/**
 * The side effects of a call: each shell segment (split on && || ; | & and newlines) that
 * matches a side_effects pattern and no exempt one, or the whole call for a side_effect_tools
 * tool. A fingerprint is the normalised segment, or the tool with its canonical input.
 */
function effectsOf(tool: string, input: unknown, settings: Settings): { fp: string; text: string }[] {
  const args = isObj(input) ? input : {};
  const effects: { fp: string; text: string }[] = [];
  if (typeof args.command === "string") {
    const segments = args.command
      .split(/&&|\|\||[;&|\n]/)
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter((s) => s !== "")
      .slice(0, MAX_SEGMENTS);
    for (const segment of segments) {
      // Patterns see the first 2000 characters of a segment (enough for any real command line)
      // so that a hostile megabyte-long one cannot make them backtrack for long.
      const head = segment.slice(0, 2000);
      if (!settings.sideEffects.some((p) => p.test(head)) || settings.exempt.some((p) => p.test(head))) continue;
      const shown = summarize(redact(segment), 200);
      effects.push({ fp: `cmd:${hash(segment)}`, text: shown });
    }
  }
  if (settings.sideEffectTools.some((p) => p.test(tool))) {
    const canonical = canonicalJson(input, 0);
    effects.push({ fp: `tool:${hash(`${tool}\n${canonical}`)}`, text: `${tool} ${summarize(redact(canonical), 160)}` });
  }
  return effects;
}

function inputSummary(input: unknown): string {
  if (!isObj(input)) return input === undefined ? "" : canonicalJson(input, 0);
  const path = [input.file_path, input.path, input.notebook_path, input.absolute_path].find((p): p is string => typeof p === "string");
  if (typeof input.command === "string") return input.command;
  if (path !== undefined && typeof input.content === "string") return `${path} (${input.content.length} chars)`;
  if (path !== undefined && Array.isArray(input.edits)) return `${path} (${input.edits.length} edits)`;
  if (typeof input.pattern === "string") return `${input.pattern}${path !== undefined ? ` in ${path}` : ""}`;
  if (path !== undefined) return path;
  for (const field of ["url", "query", "description", "prompt"]) if (typeof input[field] === "string") return input[field] as string;
  return canonicalJson(input, 0);
}

/** The first meaningful line of a tool's result, whatever shape the agent gave it. */
function outputSummary(response: unknown): string {
  if (response === undefined || response === null) return "";
  if (typeof response === "string") return firstLine(response) || "(no output)";
  if (!isObj(response)) return canonicalJson(response, 0);
  for (const field of ["stdout", "stderr", "output", "result", "llmContent", "returnDisplay", "message", "content"]) {
    const value = response[field];
    const line = typeof value === "string" ? firstLine(value) : "";
    if (line) return line;
  }
  if (typeof response.stdout === "string" || typeof response.stderr === "string") return "(no output)";
  if (typeof response.filePath === "string") return `${typeof response.type === "string" ? `${response.type} ` : ""}${response.filePath}`;
  return canonicalJson(response, 0);
}

/** Errors reported inside a "successful" result: interrupted, is_error, a non-zero exit code. */
function statusOf(response: unknown): Status {
  if (!isObj(response)) return typeof response === "string" && response.includes("<tool_use_error>") ? "error" : "ok";
  if (response.interrupted === true) return "interrupted";
  if (
    response.is_error === true ||
    response.isError === true ||
    (response.error !== undefined && response.error !== null && response.error !== false)
  )
    return "error";
  for (const field of ["exit_code", "exitCode", "returncode"]) {
    const code = response[field];
    if (typeof code === "number" && code !== 0) return "error";
  }
  for (const field of ["llmContent", "output"]) {
    const value = response[field];
    if (typeof value === "string" && /\bexit code:?\s*[1-9]\d*/i.test(value)) return "error";
  }
  return "ok";
}

const cell = (value: string): string => value.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/`/g, "'").replace(/\s+/g, " ");

function row(e: Entry): string {
  return `| ${e.n} | ${clock(e.at)} | ${cell(String(e.tool))} | ${cell(String(e.input))} | ${e.status} | ${e.ms ?? ""} | ${cell(String(e.output))} |`;
}

function render(sessionId: string, session: Session): string {
  const shown = session.calls.length;
  const lines = [
    `# Tool ledger — session ${cell(sessionId)}`,
    "",
    `${shown < session.total ? `The last ${shown} of ${session.total} calls` : `${session.total} call${session.total === 1 ? "" : "s"}`}, oldest first. Written by the tool-ledger hook.`,
    "",
    "| # | time (UTC) | tool | input | status | ms | output |",
    "|---:|---|---|---|---|---:|---|",
    ...session.calls.map(row),
  ];
  const done = session.effects.filter((e) => e.status === "done");
  if (done.length > 0)
    lines.push("", "Side effects done:", ...done.map((e) => `- ${clock(e.at)} \`${cell(e.text)}\`${e.n !== null ? ` (#${e.n})` : ""}`));
  return `${lines.join("\n")}\n`;
}

function readSettings(config: Readonly<Obj>, hook: Hook): Settings {
  return {
    mode: config.mode === "deny" ? "deny" : "warn",
    sideEffects: patterns(config.side_effects, DEFAULT_SIDE_EFFECTS, "", "side_effects", hook),
    sideEffectTools: patterns(config.side_effect_tools, DEFAULT_SIDE_EFFECT_TOOLS, "i", "side_effect_tools", hook),
    exempt: patterns(config.exempt, DEFAULT_EXEMPT, "", "exempt", hook),
    windowMs: intIn(config.window_seconds, 0, 0, 30 * 24 * 3600) * 1000,
    maxEntries: intIn(config.max_entries, 50, 1, 500),
    maxSessions: intIn(config.max_sessions, 5, 1, 50),
    summaryChars: intIn(config.summary_chars, 120, 20, 1000),
  };
}

function patterns(value: unknown, fallback: readonly string[], flags: string, field: string, hook: Hook): RegExp[] {
  const sources = Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : fallback;
  const compiled: RegExp[] = [];
  for (const source of sources.slice(0, 200)) {
    try {
      compiled.push(new RegExp(source, flags));
    } catch (error) {
      hook.log("error", `config.${field}: ${JSON.stringify(source)} is not a valid regular expression (${String(error)}); skipped`);
    }
  }
  return compiled;
}

function summarize(value: string, max: number): string {
  // Cut before the regexes run: a command can be megabytes, a summary is a line.
  const flat = redact(value.slice(0, Math.max(4 * max, 1000)))
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function redact(value: string): string {
  let out = value;
  for (const [pattern, replacement] of REDACTIONS) out = out.replace(pattern, replacement);
  return out;
}

function firstLine(value: string): string {
  for (const line of value.slice(0, 4000).split("\n")) {
    const trimmed = line.replace(/<\/?[a-z_]+>/g, "").trim();
    if (trimmed) return trimmed;
  }
  return "";
}

/** An error's first lines: Claude's begins "Exit code N", and the reason is on the next line. */
function errorSummary(value: unknown): string {
  if (typeof value !== "string") return "";
  const lines = value
    .slice(0, 4000)
    .split("\n")
    .map((line) => line.replace(/<\/?[a-z_]+>/g, "").trim());
  return lines
    .filter((line) => line !== "")
    .slice(0, 3)
    .join(" / ");
}

/** JSON with sorted keys, bounded in depth and length: the same input always prints the same. */
function canonicalJson(value: unknown, depth: number): string {
  if (depth > 6) return '"…"';
  if (Array.isArray(value))
    return `[${value
      .slice(0, 50)
      .map((v) => canonicalJson(v, depth + 1))
      .join(",")}]`;
  if (isObj(value)) {
    const keys = Object.keys(value).sort().slice(0, 50);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k], depth + 1)}`).join(",")}}`;
  }
  const json = JSON.stringify(value);
  return json === undefined ? "null" : json.length > 2000 ? `${json.slice(0, 2000)}…` : json;
}

/** FNV-1a, 32 bits, twice with different seeds: a compact fingerprint (not a security boundary). */
function hash(value: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 ^ 0x2f) >>> 0;
  }
  return `${a.toString(16).padStart(8, "0")}${b.toString(16).padStart(8, "0")}`;
}

/** Session ids become store keys: keep readable ones, hash anything long or odd. */
function safeId(id: unknown): string {
  const value = typeof id === "string" && id !== "" ? id : "unknown";
  return /^[A-Za-z0-9._-]{1,100}$/.test(value) ? value : `h${hash(value)}`;
}

function timeOf(value: unknown): number {
  const parsed = typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isFinite(parsed) ? parsed : Date.now();
}

function clock(iso: string): string {
  const match = /T(\d\d:\d\d:\d\d)/.exec(String(iso));
  return match ? match[1] : String(iso);
}

function toJson(session: Session): Hookbox.JsonValue {
  return JSON.parse(JSON.stringify(session)) as Hookbox.JsonValue;
}

function intIn(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === "number" && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
