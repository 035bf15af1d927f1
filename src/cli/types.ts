import type { Command } from "commander";
import { HOOK_API_DTS } from "../capabilities/index.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

/** `hookbox types`: print the handler API's .d.ts (event, Hook, HookResult) for editors and tsc. */
export function registerTypes(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("types")
    .description("Print the TypeScript declarations of the handler API (HookEvent, Hook, HookResult) with units and defaults")
    .addHelpText(
      "after",
      `
Examples:
  hookbox types > hookbox.d.ts      # then: tsc --noEmit handler.ts hookbox.d.ts
  In a handler: export default async function (event: HookEvent, hook: Hook): Promise<HookResult> { … }
  or:           import type { Hook } from "hookbox";`,
    )
    .action(async () => {
      await ctx.out(HOOK_API_DTS);
      setExit(EXIT.ok);
    });
}
