import ts from "typescript";
import type { Diagnostic } from "../config/diagnostics.ts";
import { applyInsertions, contractInsertions, originalOffset, type Insertion } from "./annotate.ts";
import { TS_LIB } from "./ts-lib.generated.ts";

/** A handler to check: the name problems are reported under, and its TypeScript source. */
export interface HandlerToCheck {
  readonly file: string;
  readonly source: string;
}

export const TYPESCRIPT_VERSION: string = ts.version;

const ROOT = "/__hookbox__";
const LIB_DIR = `${ROOT}/lib`;
const DECLARATIONS = `${ROOT}/hookbox.d.ts`;

/**
 * What the sandbox runs, as compiler options: ES2023 and the handler API, nothing else (no DOM,
 * no @types, no node_modules). Strict, as `hookbox new` writes handlers.
 */
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noLib: true,
  types: [],
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
};

/**
 * Type-check handlers against the handler API's declarations (`hookbox types`) with the
 * TypeScript compiler in this binary. Each handler is checked as a module of its own, its
 * default export held to HookHandler (annotate.ts); problems come back at the handler's own
 * file:line:col. Files are given, never read: nothing outside them is looked at.
 */
export function typeCheckHandlers(handlers: readonly HandlerToCheck[], declarations: string): Diagnostic[] {
  const files = new Map<string, string>(Object.entries(TS_LIB).map(([name, text]) => [`${LIB_DIR}/${name}`, text]));
  files.set(DECLARATIONS, declarations);
  const checked = new Map<string, { handler: HandlerToCheck; insertions: readonly Insertion[]; original: ts.SourceFile }>();
  const problems: Diagnostic[] = [];
  handlers.forEach((handler, index) => {
    const path = `${ROOT}/handlers/${index}/handler.ts`;
    const original = ts.createSourceFile(path, handler.source, ts.ScriptTarget.ES2022, true);
    const insertions = contractInsertions(ts, original);
    if (insertions === "no-default-export") {
      problems.push({
        file: handler.file,
        line: 1,
        column: 1,
        field: "",
        message: "the handler has no default export: write `export default function handler(event: HookEvent, hook: Hook): HookResult { … }`",
      });
    }
    const added = insertions === "no-default-export" ? [] : insertions;
    files.set(path, applyInsertions(handler.source, added));
    checked.set(path, { handler, insertions: added, original });
  });
  const program = ts.createProgram({ rootNames: [...files.keys()], options: OPTIONS, host: memoryHost(files) });
  for (const diagnostic of program.getOptionsDiagnostics())
    problems.push({ file: "(compiler options)", line: 1, column: 1, field: "", message: messageOf(diagnostic) });
  for (const [path, { handler, insertions, original }] of checked) {
    const sourceFile = program.getSourceFile(path);
    if (!sourceFile) continue;
    for (const diagnostic of [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]) {
      const at = original.getLineAndCharacterOfPosition(originalOffset(diagnostic.start ?? 0, insertions));
      problems.push({ file: handler.file, line: at.line + 1, column: at.character + 1, field: "", message: messageOf(diagnostic) });
    }
  }
  return problems;
}

/** "TS2322: Type '"dny"' is not assignable to type 'HookAction'." — the chain's lines below, indented. */
function messageOf(diagnostic: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  return `TS${diagnostic.code}: ${text.replaceAll(`${ROOT}/`, "")}`;
}

function memoryHost(files: ReadonlyMap<string, string>): ts.CompilerHost {
  return {
    getSourceFile: (name, language) => {
      const text = files.get(name);
      return text === undefined ? undefined : ts.createSourceFile(name, text, language);
    },
    getDefaultLibFileName: () => `${LIB_DIR}/lib.es2023.d.ts`,
    writeFile: () => undefined,
    getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => files.has(name),
    readFile: (name) => files.get(name),
    directoryExists: (name) => [...files.keys()].some((file) => file.startsWith(`${name}/`)),
    getDirectories: () => [],
  };
}
