import type { Command } from "commander";
import { acquire } from "../hooks/packages/acquire.ts";
import { parseSource } from "../hooks/packages/source.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { appliedText, applyCandidate } from "./package-apply.ts";
import { candidateOf, collect, openSession, configOption } from "./package-session.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { withHookMode } from "../hooks/config/operator-edit.ts";
import { readOperatorText, writeOperatorFile } from "./operator-file.ts";

/** Options add and update share: where, consent, output. */
export function packageOptions(command: Command): Command {
  return command
    .option("--project", "this project's .hookbox/hooks (trusted for you at once) instead of your own hooks")
    .option("--yes", "do not ask: accept exactly the grants named with --allow (for scripts)")
    .option("--allow <grant>", "a grant accepted with --yes, as the review names it (repeatable)", collect)
    .option("--key <public-key>", "also trust this minisign public key (the base64 line of a .pub file) for this command", collect)
    .option("--allow-downgrade", "install an older version over the newer one installed (refused otherwise: an older release may lack its fixes)")
    .option("--json", "print the result as JSON")
    .addOption(configOption());
}

export interface PackageCommandOptions {
  readonly project?: boolean;
  readonly yes?: boolean;
  readonly allow?: string[];
  readonly key?: string[];
  readonly allowDowngrade?: boolean;
  readonly json?: boolean;
  readonly config?: string;
}

/** `hookbox add <source>`: review a community hook's grants, ask, install it, record it in hookbox.lock. */
export function registerAdd(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  packageOptions(
    program
      .command("add")
      .description("Install a hook package: shows what it may do (granted, capped or refused), asks, installs, records it in hookbox.lock"),
  )
    .option(
      "--monitor",
      "install it in shadow mode: it runs and its would-be decisions are recorded, but it blocks nothing until `hookbox promote <id>`",
    )
    .argument(
      "<source>",
      "a package folder, a bundle (.tar.gz, with its .minisig beside it), git+<repository> (https or a local path, #ref optional), or an https bundle URL",
    )
    .addHelpText(
      "after",
      `
Examples:
  hookbox add ./guard-secrets-1.2.0.tar.gz          # verifies guard-secrets-1.2.0.tar.gz.minisig when it is there
  hookbox add git+https://example.com/hooks/lint.git#v2
  hookbox add ./my-hook --yes --allow 'read \${workspace}/**' --allow 'run git diff *'

A bundle with a signature must verify against packages.trusted_keys in hookbox.yaml (or --key);
with packages.require_signatures: true, unsigned packages are refused. A bundle must hold what
its file name says (<id>-<version>.tar.gz), and an older version than the one installed is
refused unless --allow-downgrade.

--monitor marks it hooks.<id>.mode: monitor in the operator file before its files are installed:
it runs on every event it matches, hookbox runs --would-block shows what it would have blocked,
and it blocks nothing until hookbox promote <id>.`,
    )
    .action(async (source: string, options: PackageCommandOptions & { readonly monitor?: boolean }) => {
      const session = await openSession(ctx, runtime, options);
      const candidate = await candidateOf(session, await acquire(parseSource(source, ctx.host.cwd()), session.deps), options.key);
      const file = session.locations.operatorFile.path;
      let marked = false;
      const mark = async (id: string): Promise<void> => {
        await writeOperatorFile(ctx, file, withHookMode(await readOperatorText(ctx, file), id, "monitor"));
        marked = true;
      };
      const applied = await applyCandidate(session, candidate, { ...options, ...(options.monitor ? { beforeInstall: mark } : {}) });
      // Already installed, unchanged: nothing was written, and the mode is asked for all the same.
      if (options.monitor && !marked) await mark(applied.id);
      const monitored = options.monitor ? { mode: "monitor" as const } : {};
      await ctx.out(
        options.json
          ? `${JSON.stringify({ ...applied, ...monitored }, null, 2)}\n`
          : `${appliedText(applied)}${options.monitor ? `in shadow mode (hooks.${applied.id}.mode: monitor in ${file}): it blocks nothing until hookbox promote ${applied.id}\n` : ""}`,
      );
      setExit(EXIT.ok);
    });
}
