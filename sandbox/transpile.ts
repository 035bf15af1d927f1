import { transform } from "sucrase";
import { failure, type SandboxFailure } from "./failure.ts";
import { formatBytes, MAX_SOURCE_BYTES } from "./limits.ts";

/**
 * TypeScript → JavaScript for the guest. Sucrase is pure JavaScript (it bundles into the binary
 * and runs offline), strips types without type-checking and keeps line numbers, so guest stack
 * traces point at the right line of the .ts file. The output stays an ES module: QuickJS
 * evaluates `export default` natively and refuses imports (handlers are single files).
 */
export interface CompiledHandler {
  /** Path shown in guest stack traces and error messages. */
  readonly filename: string;
  /** ES module source for QuickJS. */
  readonly code: string;
  /** SHA-256 of `filename` and `code`: the identity of a compiled handler across processes. */
  readonly codeHash: string;
}

export type CompileResult = { readonly ok: true; readonly handler: CompiledHandler } | { readonly ok: false; readonly failure: SandboxFailure };

const CACHE_ENTRIES = 512;
const cache = new Map<string, CompiledHandler>();

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compile a handler; the result is cached by the hash of its source and file name. */
export async function compileHandler(source: string, filename: string): Promise<CompileResult> {
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
  const key = await sha256Hex(`${filename}\0${source}`);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return { ok: true, handler: hit };
  }
  let code: string;
  try {
    code = transform(source, { transforms: ["typescript"], disableESTransforms: true, filePath: filename }).code;
  } catch (error) {
    return { ok: false, failure: syntaxFailure(error, filename) };
  }
  const importLine = firstImportLine(code);
  if (importLine !== undefined) {
    const location = { file: filename, line: importLine, column: 1 };
    return {
      ok: false,
      failure: failure(
        "handler_invalid",
        `${filename}:${importLine}:1: handlers are single files: this import cannot be loaded in the sandbox (type-only imports are fine); inline what you need and use the hook object for host access`,
        { location },
      ),
    };
  }
  const handler: CompiledHandler = { filename, code, codeHash: await sha256Hex(`${filename}\0${code}`) };
  cache.set(key, handler);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return { ok: true, handler };
}

/**
 * Sucrase removes type-only imports and keeps the others; QuickJS would refuse them at load.
 * Sucrase keeps line numbers, so the line found here is the line in the .ts file.
 */
function firstImportLine(code: string): number | undefined {
  const lines = code.split("\n");
  const index = lines.findIndex((line) => /^\s*import\s*(?:[\w*{$]|["'])/.test(line) && !/^\s*import\s*\(/.test(line));
  return index >= 0 ? index + 1 : undefined;
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
