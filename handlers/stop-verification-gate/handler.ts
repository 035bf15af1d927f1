// stop-verification-gate: when the agent is about to stop, run the project's tests and type
// check; if something fails, block the stop (a deny on Stop means "keep going") with the
// failures listed, so the agent fixes them before it reports done (seeds 001/003).
//
// Loops are avoided: when the stop is already a continuation forced by a stop hook
// (stop_hook_active), the gate lets it stop. Only failures of the project's checks block:
// a check that cannot run (not approved, not installed, timed out) is reported to the user and
// never traps the agent.

type Obj = Record<string, unknown>;
type Framework = "auto" | "pytest" | "jest" | "vitest";

interface Check {
  readonly argv: readonly string[];
  readonly framework: Framework;
}

interface Failure {
  readonly label: string;
  readonly detail: string[];
}

const FRAMEWORKS: readonly Framework[] = ["auto", "pytest", "jest", "vitest"];
/** What npm init writes as the test script: no tests, not a failure to report. */
const PLACEHOLDER_TEST = /no test specified/;
/** Output of a runner that is not there (as opposed to tests that failed). */
const NOT_RUNNABLE =
  /command not found|could not determine executable to run|npx canceled due to missing packages|No module named \S+|Missing script:|Cannot find module '[^']*node_modules|ENOENT/;
/** The project's own TypeScript compiler, run by node: no npx, so nothing is fetched from a registry. */
const LOCAL_TSC = "node_modules/typescript/bin/tsc";
const GIT_STATUS = ["status", "--porcelain"] as const;
const MAX_REASON_CHARS = 8000;

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  if (event.stop_hook_active === true) {
    hook.log("info", "stop_hook_active: this stop already follows a block by a stop hook; letting it stop (no loop)");
    return { action: "continue" };
  }
  if (typeof event.cwd !== "string" || event.cwd === "/") return { action: "continue" }; // no workspace, nothing to run in
  const config: Readonly<Obj> = isObj(hook.config) ? hook.config : {};
  const perCommandMs = intIn(config.timeout_seconds, 25, 1, 900) * 1000;
  const deadline = Date.now() + intIn(config.total_seconds, 25, 1, 900) * 1000;
  const onlyWhenChanged = config.only_when_changed !== false;

  const configured = configuredChecks(config.commands, hook);
  const checks = configured.length > 0 ? configured : await detectChecks(hook);
  if (checks.length === 0) {
    hook.log("info", "nothing to verify: no config.commands, and no test script, tsconfig or pytest configuration found");
    return { action: "continue" };
  }

  const needsApproval: Check[] = [];
  const notes: string[] = [];
  if (onlyWhenChanged) {
    const changed = await workingTreeChanged(hook, needsApproval, notes);
    if (changed === false) {
      hook.log("info", "git status is clean: nothing changed since the last commit, so nothing to verify");
      return { action: "continue" };
    }
  }

  const failures: Failure[] = [];
  for (const check of checks) {
    const label = `\`${check.argv.join(" ")}\``;
    const remaining = deadline - Date.now();
    if (remaining < 1000) {
      notes.push(`${label} was not run: config.total_seconds was used up`);
      continue;
    }
    let run: Hookbox.TestRun;
    try {
      run = await hook.runTests(check.argv, { framework: check.framework, timeoutMs: Math.min(perCommandMs, remaining) });
    } catch (error) {
      const e = error as { code?: unknown; message?: unknown };
      if (e.code === "capability_denied") needsApproval.push(check);
      else notes.push(`${label} could not run: ${String(e.message)}`);
      continue;
    }
    if (run.timedOut) {
      notes.push(
        `${label} timed out after ${Math.round(Math.min(perCommandMs, remaining) / 1000)} s; it was not counted as a failure (config.timeout_seconds)`,
      );
    } else if (run.passed) {
      hook.log("info", `${label} passed${run.testCount ? ` (${run.testCount} tests)` : ""}`);
    } else if (run.framework === "pytest" && run.exitCode === 5) {
      notes.push(`${label} collected no tests (pytest exit 5)`); // nothing ran, so nothing failed
    } else if (run.exitCode === 127 || (run.failures.length === 0 && run.testCount === 0 && NOT_RUNNABLE.test(run.output))) {
      notes.push(`${label} could not run (exit ${run.exitCode}): ${lastLines(run.output, 2).join(" / ") || "no output"}`);
    } else {
      failures.push({
        label: `${label} failed (exit ${run.exitCode}${run.testCount ? `, ${run.failures.length} of ${run.testCount} tests failing` : ""})`,
        detail: details(run.failures, run.output, intIn(config.max_failures, 15, 1, 100)),
      });
    }
  }

  const userMessage = [approvalMessage(hook.id, needsApproval, onlyWhenChanged, checks), ...notes.map((n) => `stop-verification-gate: ${n}`)]
    .filter((m) => m !== "")
    .join("\n");
  for (const note of notes) hook.log("warn", note);
  if (failures.length === 0) {
    return userMessage ? { action: "continue", user_message: userMessage, user_message_level: "warning" } : { action: "continue" };
  }
  const reason = [
    "Verification failed, so the work is not done yet (stop-verification-gate). Fix these, run them again, then finish:",
    ...failures.flatMap((f) => [`- ${f.label}`, ...f.detail.map((line) => `    ${line}`)]),
    "Do not skip, delete or weaken tests to get past this; if a failure is not caused by your change, tell the user instead.",
  ].join("\n");
  return {
    action: "deny",
    reason: reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason,
    ...(userMessage ? { user_message: userMessage, user_message_level: "warning" as const } : {}),
  };
}

/** config.commands: [{cmd, args, framework}], each checked here (the grants check them again). */
function configuredChecks(value: unknown, hook: Hook): Check[] {
  if (!Array.isArray(value)) return [];
  const checks: Check[] = [];
  for (const [index, item] of value.slice(0, 10).entries()) {
    const cmd = isObj(item) ? item.cmd : undefined;
    const args = isObj(item) && Array.isArray(item.args) ? item.args : [];
    const framework = isObj(item) && typeof item.framework === "string" ? item.framework : "auto";
    if (
      typeof cmd !== "string" ||
      cmd === "" ||
      !args.every((a): a is string => typeof a === "string") ||
      !(FRAMEWORKS as readonly string[]).includes(framework)
    ) {
      hook.log("error", `config.commands[${index}]: expected {cmd: string, args: [string…], framework: auto|pytest|jest|vitest}; skipped`);
      continue;
    }
    checks.push({ argv: [cmd, ...args], framework: framework as Framework });
  }
  return checks;
}

/**
 * The checks a project's own files declare: its npm test script, its type-check script (or its
 * installed tsc when there is a tsconfig.json), and pytest when it is configured. The commands
 * are the ones the hook's YAML grants.
 */
async function detectChecks(hook: Hook): Promise<Check[]> {
  const checks: Check[] = [];
  let typecheck: string | undefined;
  const pkgText = await readOptional(hook, "package.json");
  if (pkgText !== undefined) {
    let pkg: Obj = {};
    try {
      const parsed: unknown = JSON.parse(pkgText);
      if (isObj(parsed)) pkg = parsed;
    } catch {
      hook.log("warn", "package.json is not valid JSON; its scripts were not used");
    }
    const scripts = isObj(pkg.scripts) ? pkg.scripts : {};
    if (typeof scripts.test === "string" && !PLACEHOLDER_TEST.test(scripts.test)) checks.push({ argv: ["npm", "test"], framework: "auto" });
    typecheck = ["typecheck", "type-check", "check-types", "types", "tsc"].find((name) => typeof scripts[name] === "string");
  }
  if (typecheck !== undefined) checks.push({ argv: ["npm", "run", typecheck], framework: "auto" });
  else if ((await readOptional(hook, "tsconfig.json", 1)) !== undefined && (await readOptional(hook, LOCAL_TSC, 1)) !== undefined) {
    checks.push({ argv: ["node", LOCAL_TSC, "--noEmit"], framework: "auto" });
  }
  const pyproject = (await readOptional(hook, "pyproject.toml")) ?? "";
  const setupCfg = (await readOptional(hook, "setup.cfg")) ?? "";
  const toxIni = (await readOptional(hook, "tox.ini")) ?? "";
  if (
    /^\[tool\.pytest/m.test(pyproject) ||
    /^\[tool:pytest\]/m.test(setupCfg) ||
    /^\[pytest\]/m.test(toxIni) ||
    (await readOptional(hook, "pytest.ini")) !== undefined ||
    (await readOptional(hook, "conftest.py")) !== undefined
  ) {
    checks.push({ argv: ["python3", "-m", "pytest", "-q"], framework: "pytest" });
  }
  return checks;
}

/** true: uncommitted changes; false: a clean git tree; undefined: cannot tell (not a repo, git refused). */
async function workingTreeChanged(hook: Hook, needsApproval: Check[], notes: string[]): Promise<boolean | undefined> {
  try {
    const status = await hook.run("git", [...GIT_STATUS], { timeoutMs: 10_000 });
    if (status.exitCode !== 0) return undefined; // not a git repository: verify anyway
    return status.stdout.trim() !== "";
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    if (e.code === "capability_denied") needsApproval.push({ argv: ["git", ...GIT_STATUS], framework: "auto" });
    else notes.push(`git status could not run (${String(e.message)}); verifying anyway`);
    return undefined;
  }
}

/**
 * The hookbox.yaml lines that would let every check run. Once the operator writes any run
 * approval for this hook, only what is listed runs, so the list holds all of the hook's commands.
 */
function approvalMessage(id: string, denied: readonly Check[], onlyWhenChanged: boolean, checks: readonly Check[]): string {
  if (denied.length === 0) return "";
  const all = [...(onlyWhenChanged ? [["git", ...GIT_STATUS]] : []), ...checks.map((c) => c.argv)];
  const grants = all.map(([cmd, ...args]) => `{ cmd: ${cmd}, args: [${args.map((a) => JSON.stringify(a)).join(", ")}] }`);
  return (
    `stop-verification-gate could not run ${denied.map((c) => `\`${c.argv.join(" ")}\``).join(", ")}: running a project's tests runs its code, so the operator approves each command. ` +
    `To verify before every stop, add to hookbox.yaml:  hooks: { ${id}: { permissions: { run: [${grants.join(", ")}] } } }`
  );
}

/** Failed test names when the runner's output named them, else the lines that look like errors. */
function details(failures: readonly string[], output: string, max: number): string[] {
  if (failures.length > 0) {
    const shown = failures.slice(0, max).map((name) => `✗ ${cut(name, 300)}`);
    if (failures.length > max) shown.push(`… and ${failures.length - max} more`);
    return shown;
  }
  const lines = output.split(/\r?\n/).map((line) => line.trimEnd());
  const errors = lines.filter((line) => /\berror\b|\bfail(ed|ure)?\b|✗|×|assert/i.test(line) && line.trim() !== "");
  const picked = (errors.length > 0 ? errors : lastLines(output, max)).slice(0, max).map((line) => cut(line.trim(), 300));
  if (errors.length > max) picked.push(`… and ${errors.length - max} more lines`);
  return picked;
}

async function readOptional(hook: Hook, path: string, maxBytes = 256 * 1024): Promise<string | undefined> {
  try {
    return await hook.readFile(path, { maxBytes });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "not_found") hook.log("debug", `${path}: ${String((error as { message?: unknown }).message)}`);
    return undefined;
  }
}

function lastLines(output: string, count: number): string[] {
  return output
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(-count);
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
