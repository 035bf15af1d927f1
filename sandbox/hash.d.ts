/**
 * SHA-256 of a text, as hex: the identity of compiled code and of warm slots. A module of its
 * own so that the engine (through spec.ts) does not load the TypeScript transpiler with it:
 * workers only run code the parent compiled.
 */
export declare function sha256Hex(text: string): Promise<string>;
/** The identity of a handler's compiled code (CompiledHandler.codeHash): its file name and its JavaScript. */
export declare function codeHashOf(filename: string, code: string): Promise<string>;
