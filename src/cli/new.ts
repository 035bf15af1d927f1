import type { Command } from "commander";
import { HOOK_ID } from "../hooks/config/schema.ts";
import { HookboxError } from "../core/errors.ts";
import { checkEventName } from "../core/events/names.ts";
import { scaffold } from "../decide/testing/scaffold.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

/** `hookbox new <id>`: a hook directory whose fixtures pass at once. */
export function registerNew(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("new")
    .description("Create a hook (hook.yaml, handler.ts, a fixture, a README) that passes `hookbox test` as it is")
    .argument("<id>", "the hook id: a-z, 0-9, - and _")
    .option("--event <name>", "the event it handles", "PreToolUse")
    .option("--dir <dir>", "where hooks live", ".hookbox/hooks")
    .option("--json", "print what was created as JSON ({id, dir, files, next})")
    .action(async (id: string, options: { event: string; dir: string; json?: boolean }) => {
      if (!HOOK_ID.test(id))
        throw new HookboxError("usage", `"${id}" is not a hook id: use 1–64 characters of a-z, 0-9, - and _, starting with a letter or digit`);
      const event = checkEventName(options.event);
      if (!event.ok) throw new HookboxError("usage", event.message);
      const base = options.dir.startsWith("/") ? options.dir : `${ctx.host.cwd()}/${options.dir}`;
      const target = `${base.replace(/\/+$/, "")}/${id}`;
      if (await ctx.host.fs.exists(target)) throw new HookboxError("conflict", `${target} already exists; pick another id or remove it`);
      const files = Object.entries(scaffold(id, event.name));
      for (const [name, text] of files) {
        const path = `${target}/${name}`;
        await ctx.host.fs.mkdirp(path.slice(0, path.lastIndexOf("/")), 0o755);
        await ctx.host.fs.writeTextAtomic(path, text, 0o644);
      }
      const next = `hookbox test ${options.dir}/${id}`;
      await ctx.out(
        options.json
          ? `${JSON.stringify({ id, event: event.name, dir: target, files: files.map(([name]) => name), next }, null, 2)}\n`
          : `created ${target}\n  ${files.map(([name]) => name).join("  ")}\nnext: ${next}\n`,
      );
      setExit(EXIT.ok);
    });
}
