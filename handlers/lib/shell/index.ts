// hookbox:shell — a guest library for handlers: `import { shAnalyze, shWrites } from "hookbox:shell";`
// It runs inside the sandbox with the handler (linked at compile time, no host access), so a
// community hook gets the same shell reading as the standard guards without shipping a copy.
//
// A best-effort reading of a shell command line, as bash would split it: words with quotes
// removed ($'…' decoded), redirections, here-documents, pipelines, `cd` tracked along a
// sequence, and the scripts that run inside it ($(…), `…`, <(…), sh -c '…', eval …, a script
// fed to bash on stdin) read the same way. It never executes anything. shWrites goes further:
// the files the line may write, as patterns, with variables, loops and substitutions resolved
// where the line itself defines them and "anything" where it does not.
export { type ShPart, type ShRedir, type ShWord, SH_MAX_COMMANDS } from "./lex.ts";
export {
  type ShCommand,
  type ShPipeline,
  shAnalyze,
  shBase,
  shExpandBraces,
  shInlineScript,
  shNormalize,
  shReadsStdinScript,
  shResolve,
  shUnwrap,
  shValues,
} from "./analyze.ts";
export { shCommandText, shNormalizeRelative, shOperands, shWriteTargets, shWriteWords } from "./targets.ts";
export {
  type ShPattern,
  type ShTok,
  shBraceAlternatives,
  shGlobPatterns,
  shLiteralPattern,
  shMayMatchGlob,
  shOverlap,
  shPatternLiteral,
  shPatternMatches,
  shPatternText,
} from "./pattern.ts";
export { shCodePaths } from "./commands.ts";
export { type ShTarget, shWrites } from "./writes.ts";
export { type ShGitWorktree, shGitWorktree } from "./worktree.ts";
