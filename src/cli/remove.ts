import type { Command } from "commander";
import { lockPath, removePackage } from "../hooks/packages/install.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { openSession, configOption } from "./package-session.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

/** `hookbox remove <id>`: an installed package's files and its lock entry. */
export function registerRemove(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  program
    .command("remove")
    .description("Remove an installed hook package and its entry in hookbox.lock")
    .argument("<id>", "the package's hook id")
    .option("--project", "from this project's .hookbox/hooks instead of your own hooks")
    .option("--json", "print the result as JSON")
    .addOption(configOption())
    .action(async (id: string, options: { project?: boolean; json?: boolean; config?: string }) => {
      const session = await openSession(ctx, runtime, options);
      const entry = await removePackage(ctx.host.fs, session.hooksDir, id);
      const result = { removed: id, version: entry.version, dir: `${session.hooksDir}/${entry.dir}`, lock: lockPath(session.hooksDir) };
      await ctx.out(options.json ? `${JSON.stringify(result, null, 2)}\n` : `removed ${id} ${entry.version ?? ""}`.trimEnd() + ` (${result.dir})\n`);
      setExit(EXIT.ok);
    });
}
