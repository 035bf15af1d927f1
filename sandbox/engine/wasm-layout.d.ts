/**
 * Where the guest heap starts in a QuickJS module's linear memory, read from the wasm binary.
 * Emscripten lays out static data and the C stack (5 MiB in quickjs-emscripten's builds) below
 * the heap, in either order; the heap begins above both. The memory's maximum is this plus the
 * hook's limit, so the limit is what the guest heap may grow to, not the whole memory.
 */
/** The lowest address the heap may start at: above every data segment and every initial i32 global (the stack pointer among them). */
export declare function wasmHeapBase(bytes: Uint8Array): number;
