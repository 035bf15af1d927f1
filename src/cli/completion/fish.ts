import type { CompletionSpec, OptionSpec, Values } from "./spec.ts";

const quote = (text: string): string => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
const short = (text: string): string => text.split(/[;:(]/)[0]?.trim() ?? "";

function valueFlags(values: Values): string {
  switch (values.kind) {
    case "words":
      return values.commaList ? `-r -a ${quote(`(__hookbox_comma_list ${values.words.join(" ")})`)}` : `-r -a ${quote(values.words.join(" "))}`;
    case "file":
      return "-r -F";
    case "dir":
      return `-r -a ${quote("(__fish_complete_directories)")}`;
    case "any":
      return "-r";
  }
}

function operandFlags(values: Values): string | undefined {
  switch (values.kind) {
    case "words":
      return `-a ${quote(values.words.join(" "))}`;
    case "file":
      return "-F";
    case "dir":
      return `-a ${quote("(__fish_complete_directories)")}`;
    case "any":
      return undefined;
  }
}

function optionLine(condition: string, option: OptionSpec): string {
  const names = option.names.map((name) => (name.startsWith("--") ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`)).join(" ");
  return `complete -c hookbox -n ${quote(condition)} ${names}${option.values ? ` ${valueFlags(option.values)}` : ""} -d ${quote(short(option.description))}`;
}

/** `hookbox completion fish`: complete lines, one per command, option and argument. */
export function fishCompletion(spec: CompletionSpec): string {
  const lines = spec.commands.flatMap((command) => {
    const condition = `__fish_seen_subcommand_from ${command.name}`;
    const flags = command.operands && operandFlags(command.operands);
    const operands = flags ? [`complete -c hookbox -n ${quote(condition)} ${flags}`] : [];
    return [
      `complete -c hookbox -n __fish_use_subcommand -a ${command.name} -d ${quote(short(command.description))}`,
      ...command.options.map((option) => optionLine(condition, option)),
      ...operands,
    ];
  });
  return `# hookbox completion for fish. Load it:
#   hookbox completion fish > ~/.config/fish/completions/hookbox.fish

# The words for the part of the current token after its last comma (comma-separated lists).
function __hookbox_comma_list
    set -l prefix (string replace -r '[^,]*$' '' -- (commandline -ct))
    for word in $argv
        echo $prefix$word
    end
end

complete -c hookbox -f
${spec.options.map((option) => optionLine("__fish_use_subcommand", option)).join("\n")}
${lines.join("\n")}
`;
}
