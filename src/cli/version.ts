import type { Command } from "commander";
import { catalogDigest } from "../hooks/builtin/standard-hooks.ts";
import { formatVersion, versionInfo, versionJson } from "../core/version/index.ts";
import type { CliContext } from "./context.ts";

export function registerVersion(program: Command, ctx: CliContext): void {
  program
    .command("version")
    .description("Print the version and how this binary was built: commit, date, target, Bun, QuickJS, the standard hooks' digest")
    .option("--json", "print it as JSON (the same as hookbox --version --json)")
    .action(async (options: { json?: boolean }) => {
      const info = await versionInfo(catalogDigest);
      await ctx.out(options.json ? versionJson(info) : formatVersion(info));
    });
}
