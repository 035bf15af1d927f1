import type { CompletionSpec, OptionSpec, Values } from "./spec.ts";

/** The shell code that fills COMPREPLY with `values` for the word in $cur. */
function reply(values: Values): string {
  switch (values.kind) {
    case "words":
      return `_hookbox_words ${values.commaList ? 1 : 0} ${values.words.join(" ")}`;
    case "file":
      return "_hookbox_paths -f";
    case "dir":
      return "_hookbox_paths -d";
    case "any":
      return "COMPREPLY=()";
  }
}

function valueCases(command: string, options: readonly OptionSpec[]): string[] {
  return options.flatMap((option) =>
    option.values ? [`    ${option.names.map((name) => `"${command} ${name}"`).join("|")}) ${reply(option.values)}; return ;;`] : [],
  );
}

const optionWords = (options: readonly OptionSpec[]): string => options.flatMap((option) => option.names).join(" ");

/** `hookbox completion bash`: one function, `complete -F`; hook ids and event names are baked in from this binary. */
export function bashCompletion(spec: CompletionSpec): string {
  const commands = spec.commands.map((command) => command.name);
  return `# hookbox completion for bash. Load it in ~/.bashrc:
#   eval "$(hookbox completion bash)"
# or save it as ~/.local/share/bash-completion/completions/hookbox

# _hookbox_words <comma-list 0|1> <word>...: the words starting with $cur; in a comma-separated
# list, the words for the part after the last comma.
_hookbox_words() {
  local list=$1 prefix="" word=$cur
  shift
  if [[ $list == 1 && $word == *,* ]]; then
    prefix=\${word%,*},
    word=\${word##*,}
  fi
  COMPREPLY=($(compgen -P "$prefix" -W "$*" -- "$word"))
  [[ $list == 1 ]] && compopt -o nospace 2>/dev/null
  return 0
}

_hookbox_paths() {
  COMPREPLY=($(compgen "$1" -- "$cur"))
  compopt -o filenames 2>/dev/null
  return 0
}

_hookbox() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} command="" i
  # --option=value: bash splits the word at "=".
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" ]]; then
    prev=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in
    -* | =) ;;
    *) command=\${COMP_WORDS[i]}; break ;;
    esac
  done
  if [[ -z $command ]]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "${optionWords(spec.options)}" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "${commands.join(" ")}" -- "$cur"))
    fi
    return 0
  fi
  case "$command $prev" in
${spec.commands.flatMap((command) => valueCases(command.name, command.options)).join("\n")}
  esac
  if [[ $cur == -* ]]; then
    case $command in
${spec.commands.map((command) => `    ${command.name}) COMPREPLY=($(compgen -W "${optionWords(command.options)}" -- "$cur")) ;;`).join("\n")}
    esac
    return 0
  fi
  case $command in
${spec.commands.flatMap((command) => (command.operands ? [`    ${command.name}) ${reply(command.operands)} ;;`] : [])).join("\n")}
  esac
  return 0
}

complete -F _hookbox hookbox
`;
}
