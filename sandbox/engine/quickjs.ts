import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import releaseVariantImport from "@jitl/quickjs-wasmfile-release-sync";
import { MiB } from "../limits.ts";
import { compileQuickJs } from "./compile.ts";
import { wasmHeapBase } from "./wasm-layout.ts";

/**
 * The QuickJS WebAssembly code, compiled once per process, and the factory of module instances.
 * Every hook slot gets its own instance (its own linear memory): the memory's fixed maximum is
 * the hard cap QuickJS's own accounting cannot give under Emscripten (quickjs-emscripten#271),
 * an abort poisons one hook instead of all, and no heap is shared between hooks.
 */

/** Emscripten's INITIAL_MEMORY for these builds: the imported memory may not start smaller. */
const INITIAL_MEMORY_BYTES = 16 * MiB;
const PAGE_BYTES = 64 * 1024;
/**
 * Emscripten's heap growth (`emscripten_resize_heap`) asks for 20%, then 10%, then 5% more than
 * the current size (never less than it needs), and gives up after these three refusals. A refused
 * attempt that a smaller one then satisfies is not exhaustion; three in a row are.
 */
const GROW_ATTEMPTS_PER_RESIZE = 3;

function unwrapDefault<T>(mod: T | { default: T }): T {
  return mod && typeof mod === "object" && "default" in mod && mod.default ? mod.default : (mod as T);
}

export const releaseVariant: QuickJSSyncVariant = unwrapDefault(releaseVariantImport as unknown as QuickJSSyncVariant);

export interface HookModule {
  readonly qjs: QuickJSWASMModule;
  readonly memory: WebAssembly.Memory;
  /** Set when the heap needed to grow past its maximum: the memory limit was hit. */
  readonly heapExhausted: () => boolean;
  readonly resetHeapExhausted: () => void;
  readonly heapBytes: () => number;
}

export class QuickJsFactory {
  private constructor(
    private readonly compiled: WebAssembly.Module,
    private readonly variant: QuickJSSyncVariant,
    /** Static data and the C stack, below the heap (about 5.1 MiB in the release build). */
    readonly heapBaseBytes: number,
    private readonly headroomBytes: number,
  ) {}

  /**
   * Compile the wasm bytes. `variant` supplies the JS glue; it must match the bytes (release or
   * debug build). `headroomBytes` is extra heap beyond every limit: the sanitizer of the debug
   * build needs ~200 MiB of its own.
   */
  static async create(
    wasmBytes: Uint8Array,
    variant: QuickJSSyncVariant = releaseVariant,
    headroomBytes = 0,
    compiling: Promise<WebAssembly.Module> = compileQuickJs(wasmBytes),
  ): Promise<QuickJsFactory> {
    return new QuickJsFactory(await compiling, variant, wasmHeapBase(wasmBytes), headroomBytes);
  }

  /**
   * The fixed maximum of a module's memory: what lies below the heap, plus the heap limit, plus
   * the debug build's headroom. The guest heap can therefore never pass the limit; Emscripten's
   * last growth step (5% of the memory) may leave up to 1/21 of it unreached. Never below the
   * initial memory, so limits under ~11 MiB get the ~11 MiB heap that 16 MiB leaves (QuickJS's
   * own allocation limit still refuses any single allocation above the limit).
   */
  maximumBytes(heapLimitBytes: number): number {
    const wanted = this.heapBaseBytes + heapLimitBytes + this.headroomBytes;
    return Math.max(INITIAL_MEMORY_BYTES, Math.ceil(wanted / PAGE_BYTES) * PAGE_BYTES);
  }

  /** A fresh instance whose guest heap may grow to about `heapLimitBytes`. */
  async newModule(heapLimitBytes: number): Promise<HookModule> {
    const memory = new WebAssembly.Memory({ initial: INITIAL_MEMORY_BYTES / PAGE_BYTES, maximum: this.maximumBytes(heapLimitBytes) / PAGE_BYTES });
    let exhausted = false;
    let refusals = 0;
    const grow = memory.grow.bind(memory);
    // Emscripten calls memory.grow and treats a throw as "cannot grow" (malloc then returns NULL).
    memory.grow = (delta: number): number => {
      try {
        const previous = grow(delta);
        refusals = 0;
        return previous;
      } catch (error) {
        if (++refusals >= GROW_ATTEMPTS_PER_RESIZE) exhausted = true;
        throw error;
      }
    };
    const qjs = await newQuickJSWASMModuleFromVariant(newVariant(this.variant, { wasmModule: this.compiled, wasmMemory: memory }));
    return {
      qjs,
      memory,
      heapExhausted: () => exhausted,
      resetHeapExhausted: () => {
        exhausted = false;
        refusals = 0;
      },
      heapBytes: () => memory.buffer.byteLength,
    };
  }
}
