import { Option, type Command } from "commander";
import { resolveLocations, type LocationFlags, type Locations } from "../config/locations.ts";
import type { CliContext } from "./context.ts";

/** --hooks DIR (repeatable) and --config FILE, shared by every command that loads hooks. */
export function addHookOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--hooks <dir>", "a hook directory (repeatable); default: ./.hookbox/hooks and ~/.config/hookbox/hooks").argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    )
    .addOption(new Option("--config <file>", "the operator file; default: ~/.config/hookbox/hookbox.yaml (never the project's)"));
}

export function locationsFrom(ctx: CliContext, options: LocationFlags): Locations {
  return resolveLocations(ctx.host, options);
}
