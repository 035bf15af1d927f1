import { Option, type Command } from "commander";
import { HookboxError } from "../core/errors.ts";
import { findProjectRoot } from "../decide/project.ts";
import { INSTALL_SCOPES, INSTALLERS, planInstall, type InstallAgent } from "../agents/installers.ts";
import { chooseHookboxCommand, type HookboxCommand } from "../agents/shared/install/hookbox-command.ts";
import { parseJsonDocument } from "../agents/shared/install/json-document.ts";
import { rewriteJson } from "../agents/shared/install/json-edit.ts";
import { grantDiff } from "../hooks/packages/consent.ts";
import { addApprovals, withApprovals, type RunApproval } from "../hooks/packages/import/approvals.ts";
import { readOperatorText, writeOperatorFile } from "./operator-file.ts";
import {
  importedPackage,
  IMPORT_DIALECTS,
  readImport,
  type ImportDialect,
  type ImportedHook,
  type ImportPlan,
} from "../hooks/packages/import/index.ts";
import { inspectPackage, type InspectedPackage } from "../hooks/packages/inspect.ts";
import { installPackage, readLock } from "../hooks/packages/install.ts";
import { resolvePath } from "../core/text/posix-path.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { writeAgentSettings } from "./install-agent.ts";
import { reviewLines, reviewWidth } from "./review-lines.ts";
import { collect, obtainConsent, openSession, type PackageSession, configOption } from "./package-session.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { recordTrust } from "./trust.ts";

interface ImportOptions {
  readonly agent?: string;
  readonly project?: boolean;
  readonly yes?: boolean;
  readonly allow?: string[];
  readonly switch?: boolean;
  readonly command?: string;
  readonly json?: boolean;
  readonly config?: string;
}

/**
 * `hookbox import <file>`: the command hooks a user already has (Claude Code, Codex, Gemini CLI,
 * Cursor, a plugin's hooks.json, the hooks template's YAML registry) become Hookbox hooks. Each
 * runs exactly its command through the run capability; that command line is its one grant,
 * reviewed and consented like any other. A grant the default ceiling refuses (a shell) is
 * approved for that hook in hookbox.yaml, with the same consent. Then the agent's settings run
 * Hookbox instead (install-agent's backup and record), and the old hooks get ordering,
 * fail-closed, audit and the console.
 */
export function registerImport(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  program
    .command("import")
    .description(
      "Bring the command hooks you already have under Hookbox: agent settings, plugin hooks.json, Cursor hooks.json, the hooks template's YAML registry",
    )
    .argument(
      "<file>",
      "e.g. .claude/settings.json, ~/.codex/hooks.json, .gemini/settings.json, .cursor/hooks.json, <plugin>/hooks/hooks.json, .system/hooks/ (or one of its YAML files)",
    )
    .addOption(new Option("--agent <dialect>", "whose protocol the commands speak (default: guessed from the file)").choices([...IMPORT_DIALECTS]))
    .option("--project", "install the hooks into this project's .hookbox/hooks instead of your own")
    .option("--yes", "do not ask: accept exactly the grants named with --allow")
    .option("--allow <grant>", "a grant accepted with --yes, as the review names it (repeatable)", collect)
    .option("--command <path>", "the hookbox executable the agent's settings will run (default: this binary's absolute path)")
    .option("--no-switch", "leave the agent's settings as they are (the commands then run twice: once by the agent, once by Hookbox)")
    .option("--json", "print the result as JSON")
    .addOption(configOption())
    .action(async (file: string, options: ImportOptions) => {
      const session = await openSession(ctx, runtime, options);
      const path = resolvePath(ctx.host.cwd(), file);
      const plan = await readImport(ctx.host.fs, path, options.agent as ImportDialect | undefined);
      for (const warning of plan.warnings) ctx.err(`note: ${warning}\n`);
      if (plan.hooks.length === 0) {
        await ctx.out(
          options.json
            ? `${JSON.stringify({ file: path, imported: [], warnings: plan.warnings }, null, 2)}\n`
            : `${path}: no command hooks to import\n`,
        );
        return setExit(EXIT.ok);
      }
      const result = await importPlan(session, path, plan, options);
      await ctx.out(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${result.lines.join("\n")}\n`);
      setExit(EXIT.ok);
    });
}

async function importPlan(session: PackageSession, path: string, plan: ImportPlan, options: ImportOptions) {
  const { ctx } = session;
  // First against the operator file as it is: which command lines its ceiling refuses (shells do).
  const first = await inspectAll(session, path, plan.hooks, session.operator);
  const approvals: RunApproval[] = first.flatMap(({ hook, inspected }) =>
    inspected.hook.review.lines.some((line) => line.kind === "run" && line.status !== "granted" && /default run ceiling/.test(line.why ?? "")) &&
    hook.run
      ? [{ hookId: hook.id, cmd: hook.run.cmd, args: hook.run.args }]
      : [],
  );
  const operator = withApprovals(session.operator, approvals);
  const packages = approvals.length > 0 ? await inspectAll(session, path, plan.hooks, operator) : first;
  const lock = await readLock(ctx.host.fs, session.hooksDir);
  const report: string[] = [`${path}: ${plan.hooks.length} command hook${plan.hooks.length === 1 ? "" : "s"} (${plan.dialect})`];
  const needed = new Set<string>();
  for (const { hook, inspected } of packages) {
    const previous = Object.hasOwn(lock.packages, hook.id) ? lock.packages[hook.id] : undefined;
    for (const key of grantDiff(previous?.grants ?? [], inspected.grants).added) needed.add(key);
    report.push(
      `  ${hook.id} (${hook.where}, on ${hook.event}): ${hook.command}`,
      ...reviewLines(inspected.hook.review, "    ", { width: reviewWidth(session.ctx) }),
    );
  }
  if (approvals.length > 0) {
    report.push(`  these commands run with your rights, so the operator must approve them: ${session.locations.operatorFile.path} gets`);
    for (const approval of approvals)
      report.push(`    hooks: { ${approval.hookId}: { permissions: { run: [{ cmd: ${approval.cmd}, args: ${JSON.stringify(approval.args)} }] } } }`);
  }
  const cannotRun = promptsWithoutModel(
    session,
    packages.map(({ hook }) => hook),
  );
  report.push(...cannotRun.map((warning) => `  warning: ${warning}`));
  const target = options.switch === false ? undefined : await settingsTarget(session, path, plan.dialect);
  // Resolved before anything is written: an import that cannot switch the settings changes nothing.
  const command = target
    ? await chooseHookboxCommand(options.command, {
        cwd: ctx.host.cwd(),
        env: ctx.host.env,
        binaryPath: ctx.host.binaryPath(),
        runtime: ctx.host.name,
        exists: (file) => ctx.host.fs.exists(file),
      })
    : undefined;
  if (target)
    report.push(
      `  then ${target.file} runs Hookbox instead of these commands (a backup is kept; hookbox uninstall-agent ${target.agent} undoes the switch)`,
    );
  ctx.err(`${report.join("\n")}\n`);
  await obtainConsent(ctx, `Import ${plan.hooks.length} hook${plan.hooks.length === 1 ? "" : "s"} with these grants?`, [...needed], options, true);
  if (approvals.length > 0) await writeApprovals(session, approvals);
  for (const { hook, inspected, tree } of packages) {
    await installPackage(ctx.host.fs, session.hooksDir, hook.id, tree, {
      version: inspected.version,
      source: `import:${path}#${hook.where}`,
      grants: inspected.grants,
      signer: null,
      onError: inspected.onError,
    });
  }
  if (session.project)
    await recordTrust(
      ctx,
      session.locations,
      session.runtime,
      session.project,
      packages.map(({ hook }) => hook.id),
    );
  const switched = target && command && plan.remaining ? await switchSettings(session, path, target, plan.remaining, command) : undefined;
  const lines = [
    `imported ${packages.length} hook${packages.length === 1 ? "" : "s"} into ${session.hooksDir}: ${packages.map(({ hook }) => hook.id).join(", ")}`,
  ];
  if (approvals.length > 0) lines.push(`approved their command lines in ${session.locations.operatorFile.path}`);
  if (switched) lines.push(`${switched.file} now runs Hookbox${switched.backup ? ` (backup: ${switched.backup})` : ""}`);
  else if (plan.remaining)
    lines.push(`${path} is unchanged: its commands still run there too (hookbox install-agent, then remove them, when you are ready)`);
  lines.push(...cannotRun.map((warning) => `warning: ${warning}`));
  return {
    file: path,
    dialect: plan.dialect,
    imported: packages.map(({ hook, inspected }) => ({
      id: hook.id,
      where: hook.where,
      command: hook.command,
      on_error: hook.onError,
      grants: inspected.hook.review.lines,
    })),
    approvals,
    switched: switched ?? null,
    warnings: [...plan.warnings, ...cannotRun],
    lines,
  };
}

/**
 * Prompt hooks ask the model at the operator file's `llm` default endpoint, and Hookbox has none
 * of its own: without one such a hook cannot run from the moment it is imported. Each is named
 * with what its failure does (on_error) and what to configure.
 */
function promptsWithoutModel(session: PackageSession, hooks: readonly ImportedHook[]): string[] {
  if (Object.hasOwn(session.operator.llm, "default")) return [];
  const file = session.locations.operatorFile.path;
  return hooks
    .filter((hook) => hook.prompt !== undefined)
    .map(
      (hook) =>
        `${hook.id} (${hook.where}) is a prompt hook: it asks the model at the operator file's llm default endpoint, and ${file} configures none. Until it does, the hook cannot run and ${hook.onError === "deny" ? `every ${hook.event} it matches is denied (on_error: deny)` : `it lets every ${hook.event} go on, each failure recorded (on_error: continue)`}. Add a local model there: llm: { endpoint: "http://127.0.0.1:8080/v1", api: openai, model: NAME } (docs/prompt-hooks.md)`,
    );
}

async function inspectAll(session: PackageSession, path: string, hooks: readonly ImportedHook[], operator: PackageSession["operator"]) {
  const out: { hook: ImportedHook; inspected: InspectedPackage; tree: ReturnType<typeof importedPackage> }[] = [];
  for (const hook of hooks) {
    const tree = importedPackage(hook, path);
    out.push({ hook, tree, inspected: await inspectPackage(tree, `${path}#${hook.where}`, operator, session.capabilities) });
  }
  return out;
}

async function writeApprovals(session: PackageSession, approvals: readonly RunApproval[]): Promise<void> {
  const file = session.locations.operatorFile.path;
  await writeOperatorFile(session.ctx, file, addApprovals(await readOperatorText(session.ctx, file), approvals));
}

/** The agent settings file `path` is (Claude, Codex, Gemini, Cursor at one of their scopes), or undefined for other files. */
async function settingsTarget(session: PackageSession, path: string, dialect: ImportDialect) {
  if (dialect === "template") return undefined;
  const agent = dialect as InstallAgent;
  const host = session.ctx.host;
  const project = await findProjectRoot(host.fs, host.cwd(), host.homeDir());
  for (const scope of INSTALL_SCOPES) {
    const file = INSTALLERS[agent].configPath(scope, { home: host.homeDir(), project, env: host.env });
    if (file === path) return { agent, scope, file, dataDir: session.locations.dataDir, project };
  }
  return undefined;
}

async function switchSettings(
  session: PackageSession,
  path: string,
  target: NonNullable<Awaited<ReturnType<typeof settingsTarget>>>,
  remaining: Record<string, unknown>,
  command: HookboxCommand,
) {
  const { ctx } = session;
  const existing = await ctx.host.fs.readText(path);
  const document = parseJsonDocument(existing, path);
  const without =
    document.body === undefined
      ? `${JSON.stringify(remaining, null, 2)}\n`
      : document.bom + rewriteJson(document.body, document.root, remaining, document.layout);
  const plan = planInstall(target.agent, without, { file: path, hookboxCommand: command.path });
  const warnings = [...command.warnings];
  for (const warning of warnings) ctx.err(`note: ${warning}\n`);
  if (plan.text === existing) throw new HookboxError("internal", `${path}: switching to Hookbox changed nothing`);
  const backup = await writeAgentSettings(ctx, target, existing, plan.text, warnings);
  return { file: path, backup };
}
