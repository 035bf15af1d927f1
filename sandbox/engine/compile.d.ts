/**
 * Compile the QuickJS wasm (~35 ms for its 500 KB). JavaScriptCore does it on a compiler thread,
 * so a process that starts it first can load its other code meanwhile. This module imports
 * nothing for that reason: a worker calls it before it loads the engine.
 */
export declare function compileQuickJs(wasmBytes: Uint8Array): Promise<WebAssembly.Module>;
