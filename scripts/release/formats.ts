// What an executable's header says it is: enough to check a binary built for a platform this
// machine cannot run (ELF, Mach-O 64 and PE32+ headers, read by their published layouts).

export interface ExecutableFormat {
  readonly os: "linux" | "darwin" | "windows";
  readonly arch: "x64" | "arm64" | "other";
  /** Mach-O: has an LC_CODE_SIGNATURE (Apple Silicon runs nothing unsigned); PE: the console subsystem. */
  readonly detail: string;
}

const ELF_MACHINES: Readonly<Record<number, "x64" | "arm64">> = { 62: "x64", 183: "arm64" };
const MACHO_CPUS: Readonly<Record<number, "x64" | "arm64">> = { 0x01000007: "x64", 0x0100000c: "arm64" };
const PE_MACHINES: Readonly<Record<number, "x64" | "arm64">> = { 0x8664: "x64", 0xaa64: "arm64" };
const LC_CODE_SIGNATURE = 0x1d;
const MH_EXECUTE = 2;

/** The format of an executable from its first bytes (64 KiB covers every header here), or undefined. */
export function executableFormat(bytes: Uint8Array): ExecutableFormat | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 64) return undefined;
  // ELF: 7f 'E' 'L' 'F', class 2 (64-bit), data 1 (little-endian), e_type 2 (EXEC) or 3 (DYN, PIE).
  if (view.getUint32(0) === 0x7f454c46 && bytes[4] === 2 && bytes[5] === 1) {
    const type = view.getUint16(16, true);
    if (type !== 2 && type !== 3) return undefined;
    return { os: "linux", arch: ELF_MACHINES[view.getUint16(18, true)] ?? "other", detail: type === 3 ? "PIE" : "EXEC" };
  }
  // Mach-O 64, little-endian: magic 0xfeedfacf, then cputype, cpusubtype, filetype, ncmds, sizeofcmds, flags, reserved.
  if (view.getUint32(0, true) === 0xfeedfacf) {
    if (view.getUint32(12, true) !== MH_EXECUTE) return undefined;
    const commands = view.getUint32(16, true);
    let signed = false;
    for (let offset = 32, index = 0; index < commands && offset + 8 <= bytes.length; index++) {
      if (view.getUint32(offset, true) === LC_CODE_SIGNATURE) signed = true;
      offset += view.getUint32(offset + 4, true) || bytes.length;
    }
    return { os: "darwin", arch: MACHO_CPUS[view.getUint32(4, true)] ?? "other", detail: signed ? "signed" : "unsigned" };
  }
  // PE: "MZ", e_lfanew at 0x3c, "PE\0\0", COFF machine; the optional header's magic 0x20b is PE32+, subsystem 3 the console.
  if (bytes[0] === 0x4d && bytes[1] === 0x5a) {
    const pe = view.getUint32(0x3c, true);
    if (pe + 24 + 70 > bytes.length || view.getUint32(pe) !== 0x50450000) return undefined;
    const optional = pe + 24;
    if (view.getUint16(optional, true) !== 0x20b) return undefined;
    const subsystem = view.getUint16(optional + 68, true);
    return {
      os: "windows",
      arch: PE_MACHINES[view.getUint16(pe + 4, true)] ?? "other",
      detail: subsystem === 3 ? "console" : `subsystem ${subsystem}`,
    };
  }
  return undefined;
}
