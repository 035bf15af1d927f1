import type { Command } from "commander";
import { HookboxError } from "../errors.ts";
import { INSTALL_AGENTS, configPath, isInstallAgent, planInstall, type InstallOptions, type InstallScope } from "../install/index.ts";
import { readTextFile, type CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

function parentDirectory(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut <= 0 ? path.slice(0, cut + 1) || "." : path.slice(0, cut);
}

function scopeOf(options: Record<string, unknown>): InstallScope {
  if (options.user && options.project) throw new HookboxError("usage", "--user and --project exclude each other");
  return options.user ? "user" : "project";
}

function installOptions(file: string, options: Record<string, unknown>): InstallOptions {
  const events = typeof options.events === "string" ? options.events.split(",").map((name) => name.trim()).filter((name) => name !== "") : undefined;
  if (options.http === undefined && (options.tokenEnv !== undefined || options.authHeader !== undefined)) {
    throw new HookboxError("usage", "--token-env and --auth-header go with --http");
  }
  return {
    file,
    ...(events !== undefined && { events }),
    ...(typeof options.command === "string" && { hookboxCommand: options.command }),
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

export function registerInstallAgent(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("install-agent")
    .description("Add Hookbox to an agent's hook configuration, keeping every other hook and setting (a backup of the old file is kept)")
    .argument("<agent>", INSTALL_AGENTS.join(" | "))
    .option("--project", "this project's config file (default)")
    .option("--user", "the user-wide config file")
    .option("--dry-run", "print what would change and the resulting file; write nothing")
    .option("--events <names>", "comma-separated events to install (the agent's names or Hookbox's); default: all Hookbox decodes")
    .option("--command <path>", "the hookbox executable the agent runs (default: hookbox on PATH)")
    .option("--fail-closed", "block when Hookbox cannot evaluate, instead of the agent's fail-open default")
    .option("--http <url>", "Claude Code only: POST events to the daemon's loopback listener instead of spawning hookbox")
    .option("--token-env <name>", "with --http: the environment variable holding the daemon's bearer token")
    .option("--auth-header <value>", "with --http: a literal Authorization header value (stored in plain text)")
    .addHelpText(
      "after",
      `
Examples:
  hookbox install-agent claude --dry-run
  hookbox install-agent gemini --user --events BeforeTool,AfterTool
  hookbox install-agent claude --http http://127.0.0.1:8787 --token-env HOOKBOX_TOKEN

Running it again changes nothing. Only entries that run \`hookbox emit\` (or post to the daemon) are Hookbox's; nothing else is touched.`,
    )
    .action(async (agent: string, options: Record<string, unknown>) => {
      if (!isInstallAgent(agent)) throw new HookboxError("usage", `unknown agent "${agent}": use one of ${INSTALL_AGENTS.join(", ")}`);
      const path = configPath(agent, scopeOf(options), { home: ctx.host.homeDir(), project: ctx.host.cwd() });
      const existing = (await ctx.host.fs.exists(path)) ? await readTextFile(ctx, path, `the ${agent} config`) : undefined;
      const plan = planInstall(agent, existing, installOptions(path, options));
      await ctx.out(`${path}\n${plan.summary.map((line) => `  ${line}\n`).join("")}`);
      if (options.dryRun) {
        await ctx.out(plan.changed ? `\n(dry run: nothing written) the file would become:\n${plan.text}` : "(dry run) nothing to change\n");
        setExit(EXIT.ok);
        return;
      }
      if (!plan.changed) {
        await ctx.out("nothing to change\n");
        setExit(EXIT.ok);
        return;
      }
      const fs = ctx.host.fs;
      // Keep the config's own mode; backups may hold secrets the user put in the config: 0600.
      const mode = (await fs.mode(path)) ?? 0o644;
      if (existing !== undefined) {
        const backup = `${path}.hookbox-backup-${new Date().toISOString().replace(/[:.]/g, "-")}`;
        await fs.writeTextAtomic(backup, existing, 0o600);
        await ctx.out(`backup: ${backup}\n`);
      } else {
        await fs.mkdirp(parentDirectory(path), 0o755);
      }
      await fs.writeTextAtomic(path, plan.text, mode);
      await ctx.out("written\n");
      setExit(EXIT.ok);
    });
}
