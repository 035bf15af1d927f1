import { type SandboxFailure } from "./failure.ts";
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
export type CompileResult = {
    readonly ok: true;
    readonly handler: CompiledHandler;
} | {
    readonly ok: false;
    readonly failure: SandboxFailure;
};
/** Compile a handler; the result is cached by the hash of its source, file name and modules. */
export declare function compileHandler(source: string, filename: string, modules?: GuestModules): Promise<CompileResult>;
