import type { Command } from "commander";
import { HookboxError, errorMessage } from "../core/errors.ts";
import { unifiedDiff } from "../agents/shared/install/diff.ts";
import { chooseHookboxCommand } from "../agents/shared/install/hookbox-command.ts";
import {
  HTTP_AGENTS,
  INSTALL_HELP,
  INSTALLERS,
  noTrustMessage,
  planInstall,
  planUninstall,
  TRUST_HELP,
  trustOf,
  type InstallOptions,
  type TrustChange,
} from "../agents/installers.ts";
import { displayName } from "../agents/table.ts";
import { nextRecord } from "../agents/shared/install/record.ts";
import { describeOperatorProblems } from "../decide/operator-source.ts";
import { guardsOf, unguardedMessage } from "../decide/guards.ts";
import { selfProtectState } from "../decide/self-protect.ts";
import { BUILD_ID } from "../core/version/index.ts";
import {
  agentSettingsCommand,
  parentDirectory,
  readIfPresent,
  readRecord,
  report,
  resolveTarget,
  writeBackup,
  trustStep,
  writeRecord,
  type AgentSettingsTarget,
} from "./agent-settings.ts";
import { scopesHoldingHookbox, uninstallCommand } from "./agent-settings.ts";
import type { CliContext } from "./context.ts";
import { ensureDefaultOperatorFile, type DefaultOperatorFile } from "./default-guards.ts";
import { EXIT } from "./exit-codes.ts";
import { currentHookSet } from "./hook-set.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { locationsFrom } from "./setup.ts";

function installOptions(target: AgentSettingsTarget, hookboxCommand: string, options: Record<string, unknown>): InstallOptions {
  if (options.trust === true && trustOf(target.agent) === undefined) throw new HookboxError("usage", noTrustMessage());
  const events =
    typeof options.events === "string"
      ? options.events
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "")
      : undefined;
  if (options.http === undefined && (options.tokenEnv !== undefined || options.authHeader !== undefined)) {
    throw new HookboxError("usage", "--token-env and --auth-header go with --http");
  }
  return {
    file: target.file,
    scope: target.scope,
    hookboxCommand,
    buildId: BUILD_ID,
    ...(options.trust === true && { trusting: true }),
    ...(events !== undefined && { events }),
    ...(options.failClosed === true && { failClosed: true }),
    ...(typeof options.http === "string" && {
      http: {
        url: options.http,
        ...(typeof options.tokenEnv === "string" && { tokenEnvVar: options.tokenEnv }),
        ...(typeof options.authHeader === "string" && { header: options.authHeader }),
      },
    }),
  };
}

/** The directories a new file needs that do not exist yet, outermost first: uninstall removes them again if empty. */
async function missingDirectories(ctx: CliContext, file: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = parentDirectory(file); !(await ctx.host.fs.exists(dir)); dir = parentDirectory(dir)) {
    missing.unshift(dir);
    if (parentDirectory(dir) === dir) break;
  }
  return missing;
}

/** Backup, file, record. The record is best effort: without it uninstall removes Hookbox's entries instead of restoring the file byte for byte. */
export async function writeAgentSettings(
  ctx: CliContext,
  target: AgentSettingsTarget,
  existing: string | undefined,
  text: string,
  warnings: string[],
): Promise<string | null> {
  const fs = ctx.host.fs;
  const previous = await readRecord(ctx, target);
  // Keep the config's own mode; a new one is 0644 like the agents write theirs.
  const mode = (await fs.mode(target.file)) ?? 0o644;
  const backup = existing === undefined ? null : await writeBackup(ctx, target, existing);
  const createdDirs = existing === undefined ? await missingDirectories(ctx, target.file) : [];
  if (createdDirs.length > 0) await fs.mkdirp(parentDirectory(target.file), 0o755);
  await fs.writeTextAtomic(target.file, text, mode);
  try {
    const without = existing === undefined ? undefined : planUninstall(target.agent, existing, { file: target.file });
    const existingWithoutHookbox = without === undefined ? undefined : without.removesFile ? null : without.text;
    await writeRecord(
      ctx,
      target,
      await nextRecord(previous, { ...target, existingText: existing, existingWithoutHookbox, writtenText: text, createdDirs, now: new Date() }),
    );
  } catch (error) {
    warnings.push(
      `could not record this install in ${target.dataDir}/installs (${errorMessage(error)}): uninstall-agent will remove Hookbox's entries instead of restoring the file byte for byte`,
    );
  }
  return backup;
}

/** Agents run the hooks of all their scopes together: Hookbox in two of them evaluates every event twice. */
async function twiceWarnings(ctx: CliContext, target: AgentSettingsTarget): Promise<string[]> {
  const elsewhere = (await scopesHoldingHookbox(ctx, target.agent, target.project)).filter((held) => held.file !== target.file);
  return elsewhere.map(
    (held) =>
      `Hookbox's entries are also in ${held.file} (${target.agent}, ${held.scope}): ${target.agent} runs the hooks of every scope, so each event would be evaluated twice (twice the wait, two audit records, an ask asked twice). Keep one: ${uninstallCommand(target.agent, held.scope)} takes that one out`,
  );
}

/** What guards the installed agent: the operator file (as found, or as install-agent wrote it) and the hooks it would run. */
interface Guarding {
  readonly operator_file: DefaultOperatorFile & { readonly diff: string };
  readonly guards: readonly string[];
  readonly unguarded: boolean;
}

/**
 * The guards the agent gets once installed: the hooks of this project's hook set (for a user-wide
 * install, those every project gets) that stand before a tool call, plus those of the operator
 * file this command writes (not loaded yet on a dry run). Their absence is a warning, and so is
 * an operator file that does not load.
 */
async function guardingOf(
  ctx: CliContext,
  runtime: HookRuntimeFactory,
  target: AgentSettingsTarget,
  operatorFile: DefaultOperatorFile,
  warnings: string[],
): Promise<Guarding> {
  const locations = locationsFrom(ctx, {});
  const { snapshot } = await currentHookSet(ctx, locations, runtime);
  if (snapshot.operatorStatus.state !== "ok") {
    warnings.push(
      `the operator file does not load (${describeOperatorProblems(snapshot.operatorStatus.problems)}): every event of every agent is denied until it is fixed (hookbox validate)`,
    );
  }
  const found = guardsOf(snapshot.hooks, target.scope === "user" ? { exceptProject: target.project } : {});
  const guards = [...new Set([...found, ...operatorFile.guards])].sort();
  const unguarded = guards.length === 0 && snapshot.operatorStatus.state === "ok";
  if (unguarded) {
    const hint =
      operatorFile.created || (await ctx.host.fs.kind(operatorFile.path)) !== "missing"
        ? ""
        : `; or run hookbox install-agent ${target.agent} again without --no-default-guards, which writes it`;
    warnings.push(
      `NO GUARD: ${unguardedMessage(`${target.agent} (${target.file})`, operatorFile.path, selfProtectState(snapshot.operator) === "on")}${hint}`,
    );
  }
  return {
    operator_file: { ...operatorFile, diff: operatorFile.created ? unifiedDiff(operatorFile.path, undefined, operatorFile.text) : "" },
    guards,
    unguarded,
  };
}

/** The operator file's part of the text report: what was written (or would be, as a diff), the guards, how to change them. */
function guardingText(guarding: Guarding, agent: string, dryRun: boolean): string {
  const { operator_file: file, guards } = guarding;
  const lines: string[] = [];
  if (file.created) {
    lines.push(
      `${file.path} (Hookbox's operator file: there was none)`,
      `  enables the standard guards ${file.guards.join(", ")}; self-protect is always on`,
    );
    if (dryRun) lines.push("(dry run: nothing written)", file.diff.trimEnd());
    else
      lines.push(
        "written:",
        ...(file.text ?? "")
          .trimEnd()
          .split("\n")
          .map((line) => `  | ${line}`),
      );
    lines.push(
      `To change what guards your agents: edit ${file.path} (hookbox validate checks it, hookbox show <id> explains a hook), or install without it: hookbox install-agent ${agent} --no-default-guards`,
    );
  } else if (guards.length > 0) {
    lines.push(`guards: ${guards.join(", ")} (and self-protect), from ${file.path} and your hooks; hookbox show <id> explains one`);
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

export function registerInstallAgent(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  agentSettingsCommand(
    program,
    "install-agent",
    "Add Hookbox to an agent's hook configuration, keeping every other hook, setting and comment (a backup of the old file is kept)",
  )
    .option(
      "--events <names>",
      "comma-separated events to install (the agent's names or Hookbox's); default: the agent's default set (install-agent --help names the ones installed only on request)",
    )
    .option("--command <path>", "the hookbox executable the agent runs (default: the absolute path of this hookbox binary)")
    .option("--fail-closed", "block when Hookbox cannot evaluate, instead of the agent's fail-open default")
    .option("--http <url>", `${HTTP_AGENTS} only: POST events to the daemon's loopback listener instead of spawning hookbox`)
    .option(
      "--token-env <name>",
      "with --http: the environment variable holding the daemon's bearer token (the file hookbox serve --listen writes: ~/.local/share/hookbox/http-token, or its --token-file)",
    )
    .option("--auth-header <value>", "with --http: a literal Authorization header value (stored in plain text)")
    .option("--trust", TRUST_HELP)
    .option("--no-default-guards", "when there is no operator file, do not write one enabling the standard guards (guard-secrets, bash-guard)")
    .addHelpText(
      "after",
      `
Examples:
  hookbox install-agent claude --dry-run
  hookbox install-agent claude --local
  hookbox install-agent gemini --user --events BeforeTool,AfterTool
  hookbox serve --listen 127.0.0.1:8787      # writes its token to ~/.local/share/hookbox/http-token
  export HOOKBOX_TOKEN="$(cat ~/.local/share/hookbox/http-token)"   # where Claude Code starts
  hookbox install-agent claude --http http://127.0.0.1:8787 --token-env HOOKBOX_TOKEN
  hookbox install-agent codex --user --trust
  hookbox install-agent opencode --user
  hookbox install-agent claude --no-default-guards

Guards on by default: when you have no operator file yet (~/.config/hookbox/hookbox.yaml, or
$HOOKBOX_CONFIG), install-agent writes one enabling the standard guards guard-secrets and
bash-guard, and shows it (--dry-run: as a diff). An existing one is never rewritten. It says so
loudly when the agent would be protected by nothing but self-protect.

The entries run this binary by its absolute path: install it somewhere lasting first (not a
build directory or /tmp). Running it again changes nothing. Only entries that run
\`hookbox emit\` (or post to the daemon) are Hookbox's; nothing else is touched, comments
included. hookbox uninstall-agent takes them out again.

${INSTALL_HELP.join("\n\n")}`,
    )
    .action(async (agent: string, options: Record<string, unknown>) => {
      const target = await resolveTarget(ctx, agent, options);
      const command = await chooseHookboxCommand(typeof options.command === "string" ? options.command : undefined, {
        cwd: ctx.host.cwd(),
        env: ctx.host.env,
        binaryPath: ctx.host.binaryPath(),
        runtime: ctx.host.name,
        exists: (path) => ctx.host.fs.exists(path),
      });
      const existing = await readIfPresent(ctx, target.file, `the ${agent} config`);
      const install = installOptions(target, command.path, options);
      const plan = planInstall(target.agent, existing, install);
      // How the agent's http hooks fail (Claude Code's: open).
      const httpWarning = install.http ? INSTALLERS[target.agent].http?.warning : undefined;
      const warnings = [...command.warnings, ...(httpWarning ? [httpWarning] : []), ...(await twiceWarnings(ctx, target))];
      const dryRun = options.dryRun === true;
      // Before the agent's settings: an operator file that cannot be written leaves the agent as it was.
      const operatorPath = locationsFrom(ctx, {}).operatorFile.path;
      const operatorFile =
        options.defaultGuards === false
          ? { path: operatorPath, created: false, text: undefined, guards: [] }
          : await ensureDefaultOperatorFile(ctx.host.fs, operatorPath, `hookbox install-agent ${target.agent}`, { dryRun, dataDir: target.dataDir });
      const backup = plan.changed && !dryRun ? await writeAgentSettings(ctx, target, existing, plan.text, warnings) : null;
      const trustStepOf = options.trust === true ? trustOf(target.agent) : undefined;
      const step = trustStep(ctx, target);
      const trust: TrustChange | undefined = trustStepOf ? await trustStepOf.record(step.io, step.target, plan.text, install, dryRun) : undefined;
      const guarding = await guardingOf(ctx, runtime, target, operatorFile, warnings);
      const change = {
        agent: target.agent,
        scope: target.scope,
        file: target.file,
        changed: plan.changed,
        dry_run: dryRun,
        created: plan.changed && existing === undefined,
        command: command.path,
        summary: [
          ...plan.summary,
          ...(trust ? [`${trust.file} (${displayName(target.agent)}'s trust):`, ...trust.summary.map((line) => `  ${line}`)] : []),
        ],
        diff: `${plan.changed ? unifiedDiff(target.file, existing, plan.text) : ""}${trust?.diff ?? ""}`,
        backup,
        warnings,
        ...(trust && { trust }),
        ...guarding,
      };
      const outcome = [
        ...(backup === null ? [] : [`backup: ${backup}`]),
        ...(plan.changed ? ["written"] : []),
        ...(trust?.backup ? [`backup: ${trust.backup}`] : []),
        ...(trust?.changed ? [`trust recorded in ${trust.file}`] : []),
      ];
      await report(ctx, { ...change, changed: plan.changed || trust?.changed === true || operatorFile.created }, options.json === true, outcome);
      if (options.json !== true) await ctx.out(guardingText(guarding, target.agent, dryRun));
      setExit(EXIT.ok);
    });
}
