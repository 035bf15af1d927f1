import type { Command } from "commander";
import { handlerDeclarations } from "../hooks/builtin/index.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

/** `hookbox types`: print the handler API's .d.ts (event, Hook, HookResult) for editors and tsc. */
export function registerTypes(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("types")
    .description(
      "Print the TypeScript declarations of the handler API (HookEvent, Hook, HookResult) with units and defaults, and of the guest library modules (hookbox:shell)",
    )
    .addHelpText(
      "after",
      `
Examples:
  hookbox types > hookbox.d.ts      # then: tsc --noEmit handler.ts hookbox.d.ts
  In a handler: export default async function (event: HookEvent, hook: Hook): Promise<HookResult> { … }
  or:           import type { Hook } from "hookbox";`,
    )
    .action(async () => {
      await ctx.out(handlerDeclarations());
      setExit(EXIT.ok);
    });
}
