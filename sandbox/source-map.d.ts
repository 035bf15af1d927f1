import type { SandboxFailure } from "./failure.ts";
import type { CompiledHandler } from "./transpile.ts";
/**
 * Where each column of the transpiled JavaScript comes from in the TypeScript, as the `mappings`
 * of a v3 source map. Sucrase keeps every line where it was and mostly removes text (types, `as
 * T`, `!`), so each changed line is aligned with its source by a character diff. (Sucrase's own
 * source maps lose their place after a template literal on an earlier line.)
 */
export declare function columnMap(typescript: string, javascript: string): string;
/**
 * Guest stack traces point into the transpiled JavaScript, where removing types moved columns
 * (`const n: number = x.y` → `const n = x.y`): failures are reported in TypeScript coordinates
 * with the compiled handler's column map (`sourceMap`). Lines past the handler's own are the
 * linked guest library modules: they are left as they are.
 */
export declare function failureInSource(failure: SandboxFailure, handler: Pick<CompiledHandler, "filename" | "sourceMap">): SandboxFailure;
