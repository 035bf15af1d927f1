import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import releaseVariantImport from "@jitl/quickjs-wasmfile-release-sync";
import { MiB } from "../limits.ts";

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
 * Emscripten grows the heap by up to 20% more than it needs, so the maximum is set a little
 * above the limit: growth that fails there is reported as the memory limit (see `HookModule`).
 */
const GROWTH_HEADROOM = 1.2;

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
    private readonly headroomBytes: number,
  ) {}

  /**
   * Compile the wasm bytes. `variant` supplies the JS glue; it must match the bytes (release or
   * debug build). `headroomBytes` is extra heap beyond every limit: the sanitizer of the debug
   * build needs ~200 MiB of its own.
   */
  static async create(wasmBytes: Uint8Array, variant: QuickJSSyncVariant = releaseVariant, headroomBytes = 0): Promise<QuickJsFactory> {
    const compiled = await WebAssembly.compile(wasmBytes as Uint8Array<ArrayBuffer>);
    return new QuickJsFactory(compiled, variant, headroomBytes);
  }

  /** A fresh instance whose guest heap may grow to about `heapLimitBytes`. */
  async newModule(heapLimitBytes: number): Promise<HookModule> {
    const initialPages = INITIAL_MEMORY_BYTES / PAGE_BYTES;
    const maximumPages = Math.max(initialPages, Math.ceil((INITIAL_MEMORY_BYTES + this.headroomBytes + heapLimitBytes * GROWTH_HEADROOM) / PAGE_BYTES));
    const memory = new WebAssembly.Memory({ initial: initialPages, maximum: maximumPages });
    let exhausted = false;
    const grow = memory.grow.bind(memory);
    // Emscripten calls memory.grow and treats a throw as "cannot grow" (malloc then returns NULL).
    memory.grow = (delta: number): number => {
      try {
        return grow(delta);
      } catch (error) {
        exhausted = true;
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
      },
      heapBytes: () => memory.buffer.byteLength,
    };
  }
}
