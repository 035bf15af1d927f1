/**
 * Where the guest heap starts in a QuickJS module's linear memory, read from the wasm binary.
 * Emscripten lays out static data and the C stack (5 MiB in quickjs-emscripten's builds) below
 * the heap, in either order; the heap begins above both. The memory's maximum is this plus the
 * hook's limit, so the limit is what the guest heap may grow to, not the whole memory.
 */

const SECTION_GLOBAL = 6;
const SECTION_DATA = 11;
const OP_I32_CONST = 0x41;
const OP_END = 0x0b;

/** The lowest address the heap may start at: above every data segment and every initial i32 global (the stack pointer among them). */
export function wasmHeapBase(bytes: Uint8Array): number {
  const reader = new Reader(bytes);
  reader.pos = 8; // magic and version
  let base = 0;
  while (reader.pos < bytes.length) {
    const id = reader.byte();
    const size = reader.u32();
    const end = reader.pos + size;
    if (id === SECTION_GLOBAL) {
      for (let n = reader.u32(); n > 0; n--) {
        reader.pos += 2; // value type, mutability
        const value = reader.constExpr();
        if (value !== undefined) base = Math.max(base, value);
      }
    } else if (id === SECTION_DATA) {
      for (let n = reader.u32(); n > 0; n--) {
        const flags = reader.u32();
        if (flags === 2) reader.u32(); // memory index
        const offset = flags === 1 ? undefined : reader.constExpr(); // 1: passive, no offset
        const length = reader.u32();
        if (offset !== undefined) base = Math.max(base, offset + length);
        reader.pos += length;
      }
    }
    reader.pos = end;
  }
  if (base === 0) throw new Error("wasmHeapBase: no data segment or global found in the wasm binary");
  return base;
}

class Reader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    const value = this.bytes[this.pos++];
    if (value === undefined) throw new Error("wasmHeapBase: truncated wasm binary");
    return value;
  }

  u32(): number {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return result;
    }
  }

  i32(): number {
    let result = 0;
    let shift = 0;
    let b: number;
    do {
      b = this.byte();
      result |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    return shift < 32 && b & 0x40 ? result | (-1 << shift) : result;
  }

  /** A constant initialiser's value when it is a plain i32.const; other initialisers are skipped. */
  constExpr(): number | undefined {
    let value: number | undefined;
    let ops = 0;
    for (let op = this.byte(); op !== OP_END; op = this.byte(), ops++) {
      if (op === OP_I32_CONST) value = this.i32();
      else if (op === 0x42)
        this.i32(); // i64.const: only its length matters here
      else if (op === 0x43)
        this.pos += 4; // f32.const
      else if (op === 0x44)
        this.pos += 8; // f64.const
      else if (op === 0x23 || op === 0xd2 || op === 0xd0)
        this.u32(); // global.get, ref.func, ref.null
      else if (op < 0x6a || op > 0x7e) throw new Error(`wasmHeapBase: unexpected opcode 0x${op.toString(16)} in a constant expression`);
    }
    return ops === 1 ? value : undefined;
  }
}
