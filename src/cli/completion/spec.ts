import type { Argument, Command, Option } from "commander";

/** What a value completes to: listed words (comma-separated lists: one at a time), paths, or anything (nothing offered). */
export type Values =
  | { readonly kind: "words"; readonly words: readonly string[]; readonly commaList: boolean }
  | { readonly kind: "file" }
  | { readonly kind: "dir" }
  | { readonly kind: "any" };

export interface OptionSpec {
  /** e.g. ["-V", "--version"]. */
  readonly names: readonly string[];
  readonly description: string;
  /** Undefined for a flag that takes no value. */
  readonly values: Values | undefined;
}

export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options: readonly OptionSpec[];
  /** What its positional arguments complete to (undefined: it takes none). */
  readonly operands: Values | undefined;
}

export interface CompletionSpec {
  readonly commands: readonly CommandSpec[];
  readonly options: readonly OptionSpec[];
}

/** The words completions offer: hook ids of the standard hooks, event names, agents. */
export interface CompletionWords {
  readonly hookIds: readonly string[];
  readonly events: readonly string[];
  readonly installAgents: readonly string[];
}

export const words = (list: readonly string[], commaList = false): Values => ({ kind: "words", words: list, commaList });

/**
 * Values that commander's metadata does not say, by "<command> --option" or "<command> <argument>"
 * ("*" for any command). Choices declared on an option or argument need no entry; paths are
 * recognised from the placeholder's name (<file>, <dir> …).
 */
function valueTable(known: CompletionWords, commands: readonly string[]): Readonly<Record<string, Values>> {
  return {
    "* --builtin": words(["all", ...known.hookIds], true),
    "runs --hook": words(known.hookIds),
    "runs --event": words(known.events),
    "new --event": words(known.events),
    "replay --event": words(known.events),
    "promote <id>": words(known.hookIds),
    "install-agent --events": words(known.events, true),
    "install-agent <agent>": words(known.installAgents),
    "emit <event>": words(known.events),
    "help <command>": words(commands),
  };
}

const HELP_OPTION: OptionSpec = { names: ["-h", "--help"], description: "display help for command", values: undefined };

function byPlaceholder(placeholder: string): Values {
  if (/^(file|path|handler)s?$/.test(placeholder)) return { kind: "file" };
  if (/^dirs?$/.test(placeholder)) return { kind: "dir" };
  return { kind: "any" };
}

function optionSpec(option: Option, command: string, table: Readonly<Record<string, Values>>): OptionSpec {
  const names = [option.short, option.long].filter((name): name is string => name !== undefined);
  const takesValue = option.required || option.optional;
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? "";
  const values = !takesValue
    ? undefined
    : option.argChoices
      ? words(option.argChoices)
      : (table[`${command} ${option.long}`] ?? table[`* ${option.long}`] ?? byPlaceholder(placeholder));
  return { names, description: option.description, values };
}

function operandValues(argument: Argument | undefined, command: string, table: Readonly<Record<string, Values>>): Values | undefined {
  if (!argument) return undefined;
  if (argument.argChoices) return words(argument.argChoices);
  return table[`${command} <${argument.name()}>`] ?? byPlaceholder(argument.name());
}

function commandSpec(command: Command, table: Readonly<Record<string, Values>>): CommandSpec {
  const name = command.name();
  return {
    name,
    description: command.description(),
    options: [...command.options.filter((option) => !option.hidden).map((option) => optionSpec(option, name, table)), HELP_OPTION],
    operands: operandValues(command.registeredArguments[0], name, table),
  };
}

/**
 * The command line as completions see it, read from the commander program (so a new command or
 * flag is completed without touching this folder); `replacements` stand in for commands that
 * parse their own flags (emit).
 */
export function completionSpec(program: Command, known: CompletionWords, replacements: readonly Command[]): CompletionSpec {
  const commands = program.commands.map((command) => replacements.find((r) => r.name() === command.name()) ?? command);
  const names = [...commands.map((command) => command.name()), "help"];
  const table = valueTable(known, names);
  const help: CommandSpec = { name: "help", description: "display help for command", options: [], operands: table["help <command>"] };
  return {
    commands: [...commands.map((command) => commandSpec(command, table)), help],
    options: [...program.options.map((option) => optionSpec(option, "", table)), HELP_OPTION],
  };
}
