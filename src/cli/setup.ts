import { Option, type Command } from "commander";
import { resolveLocations, type LocationFlags, type Locations } from "../hooks/config/locations.ts";
import type { CliContext } from "./context.ts";
import { BUILTIN_FLAG_HELP, SYSTEM_ROOT_HELP } from "./serve-args.ts";

/** --hooks DIR (repeatable) and --config FILE, shared by every command that loads hooks. */
export function addHookOptions(command: Command, { builtinOption = true }: { builtinOption?: boolean } = {}): Command {
  command
    .addOption(
      new Option("--hooks <dir>", "a hook directory (repeatable); default: ./.hookbox/hooks and ~/.config/hookbox/hooks").argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    )
    .addOption(
      new Option("--config <file>", "the operator file; default: $HOOKBOX_CONFIG, else ~/.config/hookbox/hookbox.yaml (never the project's)"),
    )
    .addOption(new Option("--system-root <dir>", SYSTEM_ROOT_HELP));
  if (builtinOption) {
    command.addOption(
      new Option("--builtin <ids>", BUILTIN_FLAG_HELP).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    );
  }
  return command;
}

export function locationsFrom(ctx: CliContext, options: LocationFlags): Locations {
  return resolveLocations(ctx.host, options);
}
