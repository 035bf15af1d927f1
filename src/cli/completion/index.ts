// src/cli/completion owns `hookbox completion bash|zsh|fish`; it must not import another command's action (it reads the program).
// Shell code generated from the commander program itself, with the standard hooks' ids and the event names baked in.
import { Argument, type Command } from "commander";
import { CANONICAL_EVENTS } from "../../core/events/names.ts";
import { INSTALL_AGENTS } from "../../agents/installers.ts";
import type { CliContext } from "../context.ts";
import { emitCommand } from "../emit-help.ts";
import { bashCompletion } from "./bash.ts";
import { fishCompletion } from "./fish.ts";
import { completionSpec } from "./spec.ts";
import { zshCompletion } from "./zsh.ts";

const SHELLS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

export function registerCompletion(program: Command, ctx: CliContext): void {
  program
    .command("completion")
    .description("Print the shell completion script: commands, flags, standard hook ids and event names")
    .addArgument(new Argument("<shell>", "the shell").choices(Object.keys(SHELLS)))
    .addHelpText(
      "after",
      '\nLoad it:\n  bash  eval "$(hookbox completion bash)"        in ~/.bashrc\n  zsh   eval "$(hookbox completion zsh)"         in ~/.zshrc, after compinit\n  fish  hookbox completion fish > ~/.config/fish/completions/hookbox.fish',
    )
    .action(async (shell: keyof typeof SHELLS) => {
      const { STANDARD_HOOKS } = await import("../../hooks/builtin/catalog.generated.ts");
      const spec = completionSpec(program, { hookIds: Object.keys(STANDARD_HOOKS), events: CANONICAL_EVENTS, installAgents: INSTALL_AGENTS }, [
        emitCommand(),
      ]);
      await ctx.out(SHELLS[shell](spec));
    });
}
