import { type QuickJSSyncVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
export declare const releaseVariant: QuickJSSyncVariant;
export interface HookModule {
    readonly qjs: QuickJSWASMModule;
    readonly memory: WebAssembly.Memory;
    /** Set when the heap needed to grow past its maximum: the memory limit was hit. */
    readonly heapExhausted: () => boolean;
    readonly resetHeapExhausted: () => void;
    readonly heapBytes: () => number;
}
export declare class QuickJsFactory {
    private readonly compiled;
    private readonly variant;
    /** Static data and the C stack, below the heap (about 5.1 MiB in the release build). */
    readonly heapBaseBytes: number;
    private readonly headroomBytes;
    private constructor();
    /**
     * Compile the wasm bytes. `variant` supplies the JS glue; it must match the bytes (release or
     * debug build). `headroomBytes` is extra heap beyond every limit: the sanitizer of the debug
     * build needs ~200 MiB of its own.
     */
    static create(wasmBytes: Uint8Array, variant?: QuickJSSyncVariant, headroomBytes?: number, compiling?: Promise<WebAssembly.Module>): Promise<QuickJsFactory>;
    /**
     * The fixed maximum of a module's memory: what lies below the heap, plus the heap limit, plus
     * the debug build's headroom. The guest heap can therefore never pass the limit; Emscripten's
     * last growth step (5% of the memory) may leave up to 1/21 of it unreached. Never below the
     * initial memory, so limits under ~11 MiB get the ~11 MiB heap that 16 MiB leaves (QuickJS's
     * own allocation limit still refuses any single allocation above the limit).
     */
    maximumBytes(heapLimitBytes: number): number;
    /** A fresh instance whose guest heap may grow to about `heapLimitBytes`. */
    newModule(heapLimitBytes: number): Promise<HookModule>;
}
