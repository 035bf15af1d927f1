// post-edit-lint: after the agent writes or edits a file, run the linters configured for its
// extension on that one file and give the findings to the model as context, so it fixes them
// while the change is fresh (seed 004). Clean files produce nothing.
//
// Linters run without a shell, on a workspace-relative path ("./src/a.ts"), and only on files the
// hook may read: the path is checked through hook.readFile first, so a file outside the
// workspace, or one an operator deny rule protects, is never handed to a linter.

type Obj = Record<string, unknown>;
type Parser = "lines" | "eslint-json" | "ruff-json";

interface Linter {
  readonly name: string;
  readonly extensions: readonly string[];
  readonly cmd: string;
  readonly args: readonly string[];
  readonly parse: Parser;
  /** A workspace file that must exist for this linter to apply (its entry point). */
  readonly requires: string | undefined;
}

const PARSERS: readonly Parser[] = ["lines", "eslint-json", "ruff-json"];

/** Used when config.linters is absent. The same list is in hook.yaml, where it is documented. */
const DEFAULT_LINTERS: readonly Linter[] = [
  {
    name: "conflict-markers",
    extensions: ["*"],
    cmd: "grep",
    args: ["-n", "-H", "-E", "^(<<<<<<<|>>>>>>>)( |$)", "--", "{file}"],
    parse: "lines",
    requires: undefined,
  },
  {
    name: "eslint",
    extensions: [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"],
    cmd: "node",
    args: ["node_modules/eslint/bin/eslint.js", "--format", "json", "{file}"],
    parse: "eslint-json",
    requires: "node_modules/eslint/bin/eslint.js",
  },
  {
    name: "ruff",
    extensions: [".py", ".pyi"],
    cmd: "python3",
    args: ["-m", "ruff", "check", "--no-cache", "--output-format", "json", "{file}"],
    parse: "ruff-json",
    requires: undefined,
  },
];

/** A wildcard in a run grant never matches an argument with shell syntax (docs/permissions.md). */
const SHELL_SYNTAX = /[;|&<>`\n\r]|\$\(|\$\{/;
const MAX_FILES = 5;
const MAX_CONTEXT_CHARS = 8000;

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const cwd = typeof event.cwd === "string" ? event.cwd.replace(/\/+$/, "") : "";
  if (!cwd) return { action: "continue" };
  const config: Readonly<Obj> = isObj(hook.config) ? hook.config : {};
  const linters = readLinters(config.linters, hook);
  const maxFindings = intIn(config.max_findings, 20, 1, 200);
  const timeoutMs = intIn(config.timeout_seconds, 20, 1, 300) * 1000;
  // All linter runs of one edit together, inside the agents' default 30 s hook timeout.
  const deadline = Date.now() + intIn(config.total_seconds, 25, 1, 300) * 1000;

  const sections: string[] = [];
  const denied: Linter[] = [];
  let shown = 0;
  let hidden = 0;
  for (const file of editedFiles(event, cwd, hook)) {
    const applicable = linters.filter((l) => l.extensions.some((ext) => ext === "*" || file.toLowerCase().endsWith(ext.toLowerCase())));
    if (applicable.length === 0 || !(await readable(hook, file))) continue;
    for (const linter of applicable) {
      if (linter.requires !== undefined && !(await readable(hook, linter.requires))) {
        hook.log("debug", `${linter.name}: ${linter.requires} is not in the workspace; skipped`);
        continue;
      }
      const remaining = deadline - Date.now();
      if (remaining < 500) {
        hook.log("warn", `${linter.name} not run on ${file}: config.total_seconds was used up`);
        continue;
      }
      const findings = await runLinter(hook, linter, file, Math.min(timeoutMs, remaining), denied);
      if (findings.length === 0) continue;
      const room = Math.max(0, maxFindings - shown);
      shown += Math.min(room, findings.length);
      hidden += Math.max(0, findings.length - room);
      if (room > 0)
        sections.push(
          `${linter.name} (${findings.length} finding${findings.length === 1 ? "" : "s"}):\n${findings
            .slice(0, room)
            .map((f) => `  ${f}`)
            .join("\n")}`,
        );
    }
  }

  const result: { action: "continue" | "inject_context"; context_injection?: string; user_message?: string; user_message_level?: "warning" } = {
    action: "continue",
  };
  if (sections.length > 0) {
    const text = [
      "Lint findings in what you just changed (post-edit-lint). Fix them now, or say why they should stay:",
      ...sections,
      ...(hidden > 0 ? [`… and ${hidden} more (config.max_findings: ${maxFindings})`] : []),
    ].join("\n");
    result.action = "inject_context";
    result.context_injection = text.length > MAX_CONTEXT_CHARS ? `${text.slice(0, MAX_CONTEXT_CHARS - 1)}…` : text;
  }
  if (denied.length > 0) {
    result.user_message = approvalMessage(hook.id, denied, linters);
    result.user_message_level = "warning";
  }
  return result;
}

/** Workspace-relative paths of the files this call wrote, at most MAX_FILES. */
function editedFiles(event: HookEvent, cwd: string, hook: Hook): string[] {
  const input = isObj(event.tool_input) ? event.tool_input : {};
  // Claude and Gemini: file_path; Copilot: path; notebooks; Codex's apply_patch: patch_files.
  const candidates: unknown[] = [input.file_path, input.path, input.notebook_path, ...(Array.isArray(event.patch_files) ? event.patch_files : [])];
  const files: string[] = [];
  for (const candidate of candidates) {
    if (typeof candidate !== "string" || candidate === "" || candidate.length > 4096) continue;
    let rel = candidate;
    if (rel.startsWith("/")) {
      if (!rel.startsWith(`${cwd}/`)) {
        hook.log("info", `${candidate} is outside the workspace; not linted`);
        continue;
      }
      rel = rel.slice(cwd.length + 1);
    }
    rel = rel.replace(/^(\.\/)+/, "");
    if (rel === "" || rel.split("/").includes("..") || SHELL_SYNTAX.test(rel)) {
      hook.log("info", `${JSON.stringify(candidate)} cannot be passed to a linter safely; not linted`);
      continue;
    }
    if (!files.includes(rel)) files.push(rel);
    if (files.length >= MAX_FILES) break;
  }
  return files;
}

/** Readable under the hook's grants and the operator's deny rules (and present). */
async function readable(hook: Hook, path: string): Promise<boolean> {
  try {
    await hook.readFile(path, { maxBytes: 1 });
    return true;
  } catch (error) {
    hook.log("debug", `${path}: ${String((error as { message?: unknown }).message)}`);
    return false;
  }
}

async function runLinter(hook: Hook, linter: Linter, file: string, timeoutMs: number, denied: Linter[]): Promise<string[]> {
  // "./" keeps a file named like an option ("-rf.ts") from being read as one.
  const args = linter.args.map((arg) => arg.split("{file}").join(`./${file}`));
  let run: Hookbox.RunResult;
  try {
    run = await hook.run(linter.cmd, args, { timeoutMs });
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    if (e.code === "capability_denied") {
      if (!denied.includes(linter)) denied.push(linter);
    } else {
      hook.log("warn", `${linter.name} could not run on ${file}: ${String(e.message)}`);
    }
    return [];
  }
  if (run.timedOut) {
    hook.log("warn", `${linter.name} timed out on ${file} (config.timeout_seconds)`);
    return [];
  }
  const parsed = parseOutput(linter.parse, run.stdout, file);
  if (parsed === undefined || (run.exitCode > 1 && parsed.length === 0)) {
    // Not installed, not configured, crashed: the project's business, not the model's.
    const why = (run.stderr || run.stdout).split("\n").find((line) => line.trim() !== "") ?? "";
    hook.log("warn", `${linter.name} could not lint ${file} (exit ${run.exitCode}): ${why.slice(0, 300)}`);
    return [];
  }
  return parsed;
}

/** Findings as "path:line:col: message (rule)" lines; undefined when the output is not the expected format. */
function parseOutput(parser: Parser, stdout: string, file: string): string[] | undefined {
  const text = stdout.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
  if (parser === "lines") {
    return text
      .split("\n")
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== "")
      .map((line) => cut(line.replace(/^\.\//, ""), 300));
  }
  let data: unknown;
  try {
    data = JSON.parse(text.trim() === "" ? "[]" : text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(data)) return undefined;
  const out: string[] = [];
  if (parser === "eslint-json") {
    for (const result of data.slice(0, 20)) {
      const messages = isObj(result) && Array.isArray(result.messages) ? result.messages : [];
      for (const m of messages.slice(0, 200)) {
        // "File ignored because of a matching ignore pattern" is eslint declining, not a finding.
        if (!isObj(m) || /^File ignored\b/.test(str(m.message))) continue;
        const level = m.severity === 2 ? "error" : "warning";
        const rule = typeof m.ruleId === "string" ? ` (${m.ruleId})` : "";
        out.push(cut(`${file}:${num(m.line)}:${num(m.column)}: ${level} ${str(m.message)}${rule}`, 300));
      }
    }
  } else {
    for (const d of data.slice(0, 500)) {
      if (!isObj(d)) continue;
      const location = isObj(d.location) ? d.location : {};
      const code = typeof d.code === "string" ? ` (${d.code})` : "";
      out.push(cut(`${file}:${num(location.row)}:${num(location.column)}: ${str(d.message)}${code}`, 300));
    }
  }
  return out;
}

/**
 * What the operator adds to hookbox.yaml so the linters run. Once the operator writes any run
 * approval for this hook only what is listed runs, so every configured linter is listed.
 */
function approvalMessage(id: string, denied: readonly Linter[], linters: readonly Linter[]): string {
  const grants = linters.map((l) => `{ cmd: ${l.cmd}, args: [${l.args.map((a) => JSON.stringify(a.includes("{file}") ? "*" : a)).join(", ")}] }`);
  return (
    `post-edit-lint could not run ${denied.map((l) => `${l.name} (${l.cmd})`).join(", ")}: ${denied.length === 1 ? "it runs" : "they run"} the project's code, so the operator approves ${denied.length === 1 ? "it" : "them"}. ` +
    `To lint after every edit, add to hookbox.yaml:  hooks: { ${id}: { permissions: { run: [${grants.join(", ")}] } } }  — or drop ${denied.length === 1 ? "it" : "them"} from config.linters.`
  );
}

function readLinters(value: unknown, hook: Hook): Linter[] {
  if (!Array.isArray(value)) return [...DEFAULT_LINTERS];
  const linters: Linter[] = [];
  for (const [index, item] of value.slice(0, 20).entries()) {
    const l = isObj(item) ? item : {};
    const extensions = Array.isArray(l.extensions) ? l.extensions.filter((e): e is string => typeof e === "string" && e !== "") : [];
    const args = Array.isArray(l.args) ? l.args : [];
    const parse = typeof l.parse === "string" ? l.parse : "lines";
    if (
      typeof l.cmd !== "string" ||
      l.cmd === "" ||
      extensions.length === 0 ||
      !args.every((a): a is string => typeof a === "string") ||
      !(PARSERS as readonly string[]).includes(parse)
    ) {
      hook.log(
        "error",
        `config.linters[${index}]: expected {name, extensions: [".ts" …], cmd, args: [… "{file}" …], parse: lines|eslint-json|ruff-json, requires?}; skipped`,
      );
      continue;
    }
    linters.push({
      name: typeof l.name === "string" && l.name !== "" ? l.name : l.cmd,
      extensions,
      cmd: l.cmd,
      args,
      parse: parse as Parser,
      requires: typeof l.requires === "string" && l.requires !== "" ? l.requires : undefined,
    });
  }
  return linters;
}

function num(value: unknown): string {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : "?";
}

function str(value: unknown): string {
  return typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function intIn(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === "number" && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
