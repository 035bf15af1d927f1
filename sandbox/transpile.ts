import type { transform } from "sucrase";
import { failure, type SandboxFailure } from "./failure.ts";
import { codeHashOf, sha256Hex } from "./hash.ts";
import { columnMap } from "./source-map.ts";
import { formatBytes, MAX_SOURCE_BYTES } from "./limits.ts";

/**
 * TypeScript → JavaScript for the guest. Sucrase is pure JavaScript (it bundles into the binary
 * and runs offline), strips types without type-checking and keeps line numbers, so guest stack
 * traces point at the right line of the .ts file (and with a column map, at the right column). The output stays an ES module: QuickJS
 * evaluates `export default` natively. A handler may import only the guest library modules its
 * caller supplies (e.g. "hookbox:shell"); they are linked into the same program (see link()),
 * so the sandbox never loads anything the host did not hand it.
 */
export interface CompiledHandler {
  /** Path shown in guest stack traces and error messages. */
  readonly filename: string;
  /** ES module source for QuickJS. */
  readonly code: string;
  /** SHA-256 of `filename` and `code`: the identity of a compiled handler across processes. */
  readonly codeHash: string;
  /**
   * Where `code`'s columns come from in the TypeScript source: the `mappings` of a source map
   * (lines are kept as they are). Failures are reported in source coordinates with it
   * (source-map.ts). Derived from the code, so not part of its hash.
   */
  readonly sourceMap?: string;
}

/** Guest library modules a handler may import by specifier: TypeScript source, run in the guest. */
export type GuestModules = Readonly<Record<string, string>>;

export type CompileResult = { readonly ok: true; readonly handler: CompiledHandler } | { readonly ok: false; readonly failure: SandboxFailure };

type Transform = typeof transform;

const CACHE_ENTRIES = 512;
const cache = new Map<string, CompiledHandler>();
/** Compilations made ahead of time, by compileKey (rememberCompiled): never evicted. */
const compiledAhead = new Map<string, CompiledHandler>();

/** What a compilation is cached under: the hash of its source, file name and modules. */
export function compileKey(source: string, filename: string, modules: GuestModules = {}): Promise<string> {
  return sha256Hex(`${filename}\0${source}\0${JSON.stringify(modules)}`);
}

/**
 * Compilations made ahead of time, by their compileKey: the standard hooks, compiled when the
 * binary was built (src/hooks/builtin/precompiled.generated.ts). compileHandler answers from them as
 * from its cache, so a process that loads hooks (a daemon's start, emit with a cold snapshot
 * cache) does not transpile what the build already did. Trusted as the binary is, which carries
 * them; an entry is found only for the very source, file name and modules it was made from.
 */
export function rememberCompiled(entries: Readonly<Record<string, CompiledHandler>>): void {
  for (const [key, handler] of Object.entries(entries)) compiledAhead.set(key, handler);
}

/** Compile a handler; the result is cached by the hash of its source, file name and modules. */
export async function compileHandler(source: string, filename: string, modules: GuestModules = {}): Promise<CompileResult> {
  const bytes = new TextEncoder().encode(source).byteLength;
  if (bytes > MAX_SOURCE_BYTES) {
    return {
      ok: false,
      failure: failure(
        "handler_invalid",
        `${filename}: handler source is ${formatBytes(bytes)}, more than the ${formatBytes(MAX_SOURCE_BYTES)} a handler may be`,
      ),
    };
  }
  const key = await compileKey(source, filename, modules);
  const ahead = compiledAhead.get(key);
  if (ahead) return { ok: true, handler: ahead };
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return { ok: true, handler: hit };
  }
  // Loaded at the first compile: a process whose handlers all come compiled (the snapshot cache,
  // the daemon's workers) never loads the transpiler.
  const transform = (await import("sucrase")).transform;
  let code: string;
  try {
    code = transform(source, { transforms: ["typescript"], disableESTransforms: true, filePath: filename }).code;
  } catch (error) {
    return { ok: false, failure: syntaxFailure(error, filename) };
  }
  const sourceMap = columnMap(source, code);
  const linked = link(code, modules, transform);
  if (!linked.ok) {
    const location = { file: filename, line: linked.line, column: 1 };
    return { ok: false, failure: failure("handler_invalid", `${filename}:${linked.line}:1: ${linked.message}`, { location }) };
  }
  code = linked.code;
  const handler: CompiledHandler = { filename, code, codeHash: await codeHashOf(filename, code), sourceMap };
  cache.set(key, handler);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return { ok: true, handler };
}

type Linked = { readonly ok: true; readonly code: string } | { readonly ok: false; readonly line: number; readonly message: string };

/** `import { a, b as c } from "x"`, `import * as ns from "x"` (or a default import, refused), possibly over several lines. */
const STATIC_IMPORT = /^\s*import\s*(?:[\w*{$]|["'])/;
const IMPORT_STATEMENT = /^[ \t]*import\s*(\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+)\s*from\s*(["'])([^"'\n]+)\2[ \t]*;?/gm;

/**
 * Link the guest library modules a handler imports into one program. Each import statement
 * becomes a call to a function holding that module (declared at the end of the program and
 * hoisted, evaluated once), written on the statement's own lines so every handler line keeps its
 * number. Sucrase has already removed type-only imports; any other import is refused here,
 * because QuickJS would refuse it at load with a less useful message.
 */
function link(code: string, modules: GuestModules, transform: Transform): Linked {
  const used = new Map<string, string>();
  let problem: { index: number; message: string } | undefined;
  const rewritten = code.replace(IMPORT_STATEMENT, (statement, clause: string, _quote, specifier: string, index: number) => {
    if (!Object.hasOwn(modules, specifier)) {
      problem ??= { index, message: importRefusal(specifier, modules) };
      return statement;
    }
    if (/^[\w$]+$/.test(clause)) {
      problem ??= { index, message: `${specifier} has no default export: write \`import { name } from "${specifier}"\`` };
      return statement;
    }
    const fn = used.get(specifier) ?? `__hookbox_module_${used.size}`;
    used.set(specifier, fn);
    const binding = clause.startsWith("*") ? clause.replace(/^\*\s*as\s+/, "") : clause.replace(/([\w$]+)\s+as\s+([\w$]+)/g, "$1: $2");
    const newlines = statement.split("\n").length - 1;
    return `const ${binding.replace(/\s*\n\s*/g, " ")} = ${fn}();${"\n".repeat(newlines)}`;
  });
  if (problem) return { ok: false, line: lineAt(code, problem.index), message: problem.message };
  const strayLine = rewritten.split("\n").findIndex((line) => STATIC_IMPORT.test(line)) + 1;
  if (strayLine > 0)
    return {
      ok: false,
      line: strayLine,
      message: `this import cannot be loaded in the sandbox: write \`import { name } from "module"\` with one of: ${available(modules)}`,
    };
  const bodies = [...used].map(([specifier, fn]) => moduleFunction(specifier, fn, modules[specifier] as string, transform));
  return { ok: true, code: bodies.length ? `${rewritten}\n${bodies.join("\n")}\n` : rewritten };
}

function importRefusal(specifier: string, modules: GuestModules): string {
  return `handlers run in a sandbox: "${specifier}" cannot be imported (type-only imports are fine). Importable guest modules: ${available(modules)}; for host access use the hook object`;
}

function available(modules: GuestModules): string {
  const names = Object.keys(modules);
  return names.length ? names.join(", ") : "none";
}

function lineAt(code: string, index: number): number {
  return code.slice(0, index).split("\n").length;
}

/** A library module as a function returning its exports: its top level runs on first import. */
function moduleFunction(specifier: string, fn: string, source: string, transform: Transform): string {
  const js = transform(source, { transforms: ["typescript"], disableESTransforms: true, filePath: specifier }).code;
  const exported: string[] = [];
  const body = js.replace(/^export\s+(?:(async\s+)?function\*?|const|let|class)\s+([\w$]+)/gm, (declaration: string, _async, name: string) => {
    exported.push(name);
    return declaration.replace(/^export\s+/, "");
  });
  // Our own library code, not the guest's: a form this linker does not handle is a build bug.
  if (/^\s*export\b/m.test(body)) throw new Error(`guest module ${specifier}: only \`export function|const|let|class\` declarations can be linked`);
  return `// ---- ${specifier} (guest library module, linked) ----\nfunction ${fn}() {\nif (${fn}.exports) return ${fn}.exports;\n${body}\nreturn (${fn}.exports = { ${exported.join(", ")} });\n}`;
}

function syntaxFailure(error: unknown, filename: string): SandboxFailure {
  if (error instanceof RangeError) {
    return failure("handler_syntax", `${filename}: source is nested too deeply to parse`);
  }
  const err = error as { message?: string; loc?: { line: number; column: number } };
  const raw = String(err.message ?? error);
  // Sucrase prefixes "Error transforming <file>: " and suffixes " (line:col)"; we report our own form.
  const reason = raw.replace(/^Error transforming [^:]*: /, "").replace(/ \(\d+:\d+\)$/, "");
  if (err.loc) {
    const location = { file: filename, line: err.loc.line, column: err.loc.column }; // Sucrase columns are 1-based
    return failure("handler_syntax", `${filename}:${location.line}:${location.column}: syntax error: ${reason}`, { location });
  }
  return failure("handler_syntax", `${filename}: syntax error: ${reason}`);
}
