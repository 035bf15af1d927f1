// protect-production: before a write under a production path (prod/, production/, deploy/,
// *.prod.*, the deploy workflow …) ask the user, with a timeout that denies. It reads only the
// event: no file, command, network or environment access. Bash commands are read best effort
// for the files they write (read with hookbox:shell).
import { shAnalyze, shCommandText, shNormalize, shNormalizeRelative, shResolve, shWriteTargets } from "hookbox:shell";
import { firstMatch, toolPaths, within } from "hookbox:paths";

// Globs: one with "/" matches the workspace-relative path (a leading **/ = at any depth), one
// without "/" the file name; case-insensitive. Paths outside the workspace match by absolute path.
const DEFAULT_PATHS = [
  ".github/workflows/deploy*",
  "deploy/**",
  "**/prod/**",
  "**/production/**",
  "**/prod.*",
  "**/production.*",
  "**/*[-_.]prod.*",
  "**/*[-_.]production.*",
  "**/*.prod",
  "**/*.production",
];

const WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "Delete"]);
const MAX_PATH_CHARS = 4096;
const DEFAULT_TIMEOUT_MS = 60_000;

interface Config {
  paths: [string, string][];
  exceptions: [string, string][];
  timeoutMs: number;
  checkBash: boolean;
  maxCommandChars: number;
}

interface Hit {
  path: string;
  glob: string;
}

export default function handler(event: HookEvent, hook: Hook): HookResult {
  const cfg = readConfig(hook.config);
  const workspace = typeof event.cwd === "string" && event.cwd.startsWith("/") && event.cwd !== "/" ? shNormalize(event.cwd) : undefined;
  const input: Record<string, unknown> = isRecord(event.tool_input) ? event.tool_input : {};
  const tool = typeof event.tool_name === "string" && event.tool_name !== "" ? event.tool_name : "a tool";

  let targets: { path: string; cwd: string | undefined }[];
  if (tool === "Bash") {
    if (!cfg.checkBash) return { action: "continue" };
    const command = shCommandText(input.command);
    if (command.length > cfg.maxCommandChars) {
      // Too long to read: it may write anywhere, so the user decides.
      return ask(
        tool,
        [{ path: `a ${command.length}-character command`, glob: `(too long to check: max_command_chars ${cfg.maxCommandChars})` }],
        cfg,
      );
    }
    targets = shAnalyze(command, workspace).flatMap((p) => p.commands.flatMap((c) => shWriteTargets(c).map((path) => ({ path, cwd: c.cwd }))));
  } else {
    if (!WRITE_TOOLS.has(tool) && !tool.startsWith("mcp__")) return { action: "continue" };
    targets = toolPaths(input, event.patch_files).map((path) => ({ path, cwd: workspace }));
  }

  const hits: Hit[] = [];
  const seen = new Set<string>();
  for (const target of targets) {
    const key = `${target.cwd ?? ""}\0${target.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const hit = production(target.path, target.cwd, workspace, cfg);
    if (hit) hits.push(hit);
  }
  if (hits.length === 0) return { action: "continue" };
  hook.log(
    "info",
    `production paths: ${hits
      .map((h) => `${h.path} (${h.glob})`)
      .join(", ")
      .slice(0, 2000)}`,
  );
  return ask(tool, hits, cfg);
}

function ask(tool: string, found: Hit[], cfg: Config): HookResult {
  // cp a b dir/ is checked as dir/ and dir/a …: show the directory once.
  const hits = found.filter((h) => !found.some((o) => o !== h && h.path.startsWith(`${o.path.replace(/\/+$/, "")}/`)));
  const first = hits[0] as Hit;
  const more = hits.length > 1 ? ` (and ${hits.length - 1} more production path${hits.length > 2 ? "s" : ""})` : "";
  const what = `${tool} would write ${clip(first.path, 200)}${more}`;
  return {
    action: "ask_user",
    reason: `protect-production: ${what}, which is production (matches ${first.glob}); the user must approve it`,
    // No deadline in the words: an agent with its own dialog (Claude Code, Gemini CLI …) asks
    // with no time limit; where Hookbox holds the question, it shows the deadline beside it.
    approval_prompt: `Allow a change to production? ${what}, matching ${first.glob}.`,
    approval_options: ["allow", "deny"],
    approval_timeout_ms: cfg.timeoutMs,
    // Fixed, not configurable: an unanswered question about production must never mean yes.
    approval_default: "deny",
  };
}

function production(raw: string, cwd: string | undefined, workspace: string | undefined, cfg: Config): Hit | undefined {
  if (raw.length > MAX_PATH_CHARS || raw.includes("\0")) return { path: clip(raw, 200), glob: "(a path too long or malformed to check)" };
  const path = trimName(raw.replace(/\\/g, "/").trim());
  const resolved = /^[A-Za-z]:\//.test(path) ? path.toLowerCase() : shResolve(cwd, path);
  const forms = pathForms(path, resolved, workspace);
  if (firstMatch(cfg.exceptions, forms)) return undefined;
  const hit = firstMatch(cfg.paths, forms);
  // The prompt names the file as the user knows it: relative to the project when it is inside.
  const inside = resolved !== undefined && workspace !== undefined && within(resolved, workspace) && resolved !== workspace;
  return hit ? { path: clip(inside ? resolved.slice(workspace.length + 1) : raw, 200), glob: hit[0] } : undefined;
}

interface Forms {
  /** The file name, lower-cased, glob characters of a shell word removed (deploy/* → deploy/). */
  name: string;
  /** Paths to match "a/b" globs against: workspace-relative, absolute without "/", as written. */
  paths: string[];
  absolute: string | undefined;
}

function pathForms(path: string, resolved: string | undefined, workspace: string | undefined): Forms {
  const clean = (s: string): string => s.toLowerCase().replace(/[*?[\]]+/g, "");
  const paths = new Set<string>();
  if (resolved !== undefined) {
    if (workspace !== undefined && within(resolved, workspace) && resolved !== workspace) paths.add(resolved.slice(workspace.length + 1));
    else paths.add(resolved.replace(/^\//, ""));
  } else paths.add(shNormalizeRelative(path).replace(/^(\.\.\/)+/, ""));
  const cleaned = [...paths].flatMap((p) => [p.toLowerCase(), clean(p)]);
  const last = (resolved ?? path).replace(/\/+$/, "");
  return {
    name: clean(last.slice(last.lastIndexOf("/") + 1)),
    paths: [...new Set(cleaned)],
    absolute: resolved?.startsWith("/") ? resolved.toLowerCase() : undefined,
  };
}

/** Windows ignores trailing dots and spaces in a name: match without them. */
function trimName(path: string): string {
  const cut = path.lastIndexOf("/") + 1;
  const name = path.slice(cut);
  if (name === "." || name === "..") return path;
  const trimmed = name.replace(/[. ]+$/, "");
  return trimmed === "" ? path : path.slice(0, cut) + trimmed;
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > n ? `${one.slice(0, n)}…` : one;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0 && v.length <= 1024).slice(0, 256) : [];
}

function readConfig(c: Readonly<Record<string, unknown>>): Config {
  const base = Array.isArray(c.paths) ? strings(c.paths) : DEFAULT_PATHS;
  const timeout = c.approval_timeout_ms;
  const max = typeof c.max_command_chars === "number" && c.max_command_chars > 0 ? c.max_command_chars : 50_000;
  return {
    paths: [...base, ...strings(c.extra_paths)].map((g): [string, string] => [g, "production"]),
    exceptions: strings(c.exceptions).map((g): [string, string] => [g, "exception"]),
    // Kept within 1 s … 24 h (the hook file's approval.timeout_ms bounds); nonsense means the default.
    timeoutMs:
      typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0
        ? Math.min(86_400_000, Math.max(1000, Math.round(timeout)))
        : DEFAULT_TIMEOUT_MS,
    checkBash: c.check_bash !== false,
    maxCommandChars: max,
  };
}
