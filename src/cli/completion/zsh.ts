import type { CommandSpec, CompletionSpec, OptionSpec, Values } from "./spec.ts";

/** A description inside a single-quoted _arguments spec: no quotes, brackets or colons to break it. */
function describe(text: string): string {
  const first = text.split(/[;:(]/)[0]?.trim() ?? "";
  return first.replaceAll("'", "’").replaceAll("[", "(").replaceAll("]", ")").replaceAll("\\", "/");
}

function action(values: Values, what: string): string {
  switch (values.kind) {
    case "words":
      return values.commaList ? `_values -s , '${what}' ${values.words.join(" ")}` : `(${values.words.join(" ")})`;
    case "file":
      return "_files";
    case "dir":
      return "_files -/";
    case "any":
      return " ";
  }
}

function optionSpecs(option: OptionSpec): string[] {
  const text = describe(option.description);
  if (!option.values) {
    return option.names.length > 1 ? [`'(${option.names.join(" ")})'{${option.names.join(",")}}'[${text}]'`] : [`'${option.names[0]}[${text}]'`];
  }
  // "=" accepts both --option value and --option=value.
  return option.names.map((name) => `'${name}=[${text}]:${name.replace(/^-+/, "")}:${action(option.values as Values, text)}'`);
}

function commandCase(command: CommandSpec): string {
  const specs = [
    ...command.options.flatMap(optionSpecs),
    ...(command.operands ? [`'*:${command.name}:${action(command.operands, command.name)}'`] : []),
  ];
  return `      ${command.name}) _arguments -s ${specs.join(" ")} ;;`;
}

/** `hookbox completion zsh`: a #compdef function; works from $fpath or eval'd after compinit. */
export function zshCompletion(spec: CompletionSpec): string {
  return `#compdef hookbox
# hookbox completion for zsh. Load it in ~/.zshrc after compinit:
#   eval "$(hookbox completion zsh)"
# or save it as _hookbox in a directory on $fpath.

_hookbox() {
  local curcontext=$curcontext state line
  local -a commands
  commands=(
${spec.commands.map((command) => `    '${command.name}:${describe(command.description)}'`).join("\n")}
  )
  _arguments -C ${spec.options.flatMap(optionSpecs).join(" ")} '1: :->command' '*:: :->args'
  case $state in
    command) _describe -t commands 'hookbox command' commands ;;
    args)
      case $line[1] in
${spec.commands.map(commandCase).join("\n")}
      esac ;;
  esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _hookbox "$@"
else
  compdef _hookbox hookbox
fi
`;
}
