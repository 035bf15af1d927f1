/**
 * A minimal, strict ustar writer and reader, for hook bundles only. The writer is reproducible:
 * entries in byte order of their paths, mode 0644, uid/gid 0, no owner names, mtime 0, regular
 * files only (directories are implied by paths). The reader accepts regular files and directories
 * and refuses everything a hostile bundle could use: links, devices, FIFOs, extended headers,
 * absolute paths, `..`, duplicate paths, bad checksums, oversized entries.
 *
 * Hand-written rather than a library: nanotar rewrites `../x` to `x` before the caller can see
 * it (a traversal must be refused, not repaired) and checks no checksum; tar-stream brings a
 * stream stack for what is a 150-line format here.
 */

const BLOCK = 512;
const NAME_BYTES = 100;
const PREFIX_BYTES = 155;

export interface TarFile {
  /** Relative, `/`-separated, no `.` or `..` segments. */
  readonly path: string;
  readonly data: Uint8Array;
}

export interface TarLimits {
  readonly maxEntries: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
}

const encoder = new TextEncoder();

/** Paths compared as UTF-8 bytes: the order every implementation agrees on. */
export function compareBytes(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function put(header: Uint8Array, offset: number, text: string | Uint8Array): void {
  header.set(typeof text === "string" ? encoder.encode(text) : text, offset);
}

/** The ustar name/prefix split of a path, or an error when it cannot be stored. */
function splitName(path: string): { name: Uint8Array; prefix: Uint8Array } | string {
  const bytes = encoder.encode(path);
  if (bytes.length <= NAME_BYTES) return { name: bytes, prefix: new Uint8Array(0) };
  for (let cut = bytes.lastIndexOf(0x2f); cut > 0; cut = bytes.lastIndexOf(0x2f, cut - 1)) {
    if (cut <= PREFIX_BYTES && bytes.length - cut - 1 <= NAME_BYTES) return { prefix: bytes.slice(0, cut), name: bytes.slice(cut + 1) };
  }
  return `${path}: the path is too long for a bundle (at most ${PREFIX_BYTES} bytes of directories and ${NAME_BYTES} of name)`;
}

export function writeTar(files: readonly TarFile[]): Uint8Array {
  const sorted = [...files].sort((a, b) => compareBytes(a.path, b.path));
  const size = sorted.reduce((sum, file) => sum + BLOCK + Math.ceil(file.data.length / BLOCK) * BLOCK, 2 * BLOCK);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const file of sorted) {
    const split = splitName(file.path);
    if (typeof split === "string") throw new RangeError(split);
    const header = out.subarray(offset, offset + BLOCK);
    put(header, 0, split.name);
    put(header, 100, octal(0o644, 8));
    put(header, 108, octal(0, 8));
    put(header, 116, octal(0, 8));
    put(header, 124, octal(file.data.length, 12));
    put(header, 136, octal(0, 12));
    put(header, 148, "        ");
    put(header, 156, "0");
    put(header, 257, "ustar\0");
    put(header, 263, "00");
    put(header, 345, split.prefix);
    put(header, 148, `${checksum(header).toString(8).padStart(6, "0")}\0 `);
    out.set(file.data, offset + BLOCK);
    offset += BLOCK + Math.ceil(file.data.length / BLOCK) * BLOCK;
  }
  return out;
}

function checksum(header: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] as number);
  return sum;
}

function field(header: Uint8Array, offset: number, length: number): Uint8Array {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return end < 0 ? bytes : bytes.subarray(0, end);
}

function numberField(header: Uint8Array, offset: number, length: number): number | undefined {
  const text = new TextDecoder().decode(field(header, offset, length)).trim();
  return /^[0-7]{1,12}$/.test(text) ? parseInt(text, 8) : undefined;
}

const ENTRY_KINDS: Readonly<Record<string, string>> = {
  "1": "a hard link",
  "2": "a symbolic link",
  "3": "a character device",
  "4": "a block device",
  "6": "a FIFO",
  "7": "a contiguous file",
  x: "an extended (pax) header",
  g: "a global extended (pax) header",
  L: "a GNU long name",
  K: "a GNU long link name",
};

export type TarRead = { readonly ok: true; readonly files: readonly TarFile[] } | { readonly ok: false; readonly error: string };

/** The regular files of a ustar archive, each checked; the first problem refuses the whole archive. */
export function readTar(bytes: Uint8Array, limits: TarLimits): TarRead {
  const files: TarFile[] = [];
  const seen = new Set<string>();
  const dirs = new Set<string>();
  let total = 0;
  let offset = 0;
  let index = 0;
  while (offset + BLOCK <= bytes.length) {
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    index++;
    const at = `entry ${index}`;
    if (index > limits.maxEntries) return { ok: false, error: `more than ${limits.maxEntries} entries` };
    const stored = numberField(header, 148, 8);
    const sum = checksum(header);
    if (stored === undefined || stored !== sum) return { ok: false, error: `${at}: bad header checksum (not a tar archive, or a damaged one)` };
    const magic = new TextDecoder().decode(header.subarray(257, 263));
    if (magic !== "ustar\0" && magic !== "ustar ") return { ok: false, error: `${at}: not a ustar header` };
    let name: string;
    try {
      const fatal = new TextDecoder("utf-8", { fatal: true });
      const prefix = fatal.decode(field(header, 345, PREFIX_BYTES));
      const base = fatal.decode(field(header, 0, NAME_BYTES));
      name = prefix === "" ? base : `${prefix}/${base}`;
    } catch {
      return { ok: false, error: `${at}: the path is not UTF-8` };
    }
    const type = String.fromCharCode(header[156] as number);
    const size = numberField(header, 124, 12);
    if (size === undefined) return { ok: false, error: `${at} (${JSON.stringify(name)}): unreadable size` };
    const kind = ENTRY_KINDS[type];
    if (kind !== undefined) return { ok: false, error: `${JSON.stringify(name)} is ${kind}: bundles hold regular files only` };
    if (type !== "0" && type !== "\0" && type !== "5")
      return { ok: false, error: `${JSON.stringify(name)}: unknown entry type ${JSON.stringify(type)}` };
    const isDir = type === "5";
    const dataStart = offset + BLOCK;
    const next = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    // The archive's own root, as `tar -C dir .` writes it.
    if (isDir && /^\.\/?$/.test(name)) {
      offset = next;
      continue;
    }
    const path = checkPath(isDir ? name.replace(/\/$/, "") : name);
    if (typeof path !== "string") return { ok: false, error: `${JSON.stringify(name)}: ${path.error}` };
    if (isDir) {
      if (size !== 0) return { ok: false, error: `${JSON.stringify(name)}: a directory with data` };
      if (seen.has(path)) return { ok: false, error: `${JSON.stringify(name)}: a directory where a file is` };
      dirs.add(path);
      offset = next;
      continue;
    }
    if (size > limits.maxFileBytes)
      return { ok: false, error: `${JSON.stringify(name)}: ${size} bytes, more than the ${limits.maxFileBytes} a bundled file may have` };
    total += size;
    if (total > limits.maxTotalBytes) return { ok: false, error: `the files add up to more than ${limits.maxTotalBytes} bytes` };
    if (dataStart + size > bytes.length) return { ok: false, error: `${JSON.stringify(name)}: the archive ends inside it` };
    if (seen.has(path) || dirs.has(path)) return { ok: false, error: `${JSON.stringify(name)} appears twice` };
    seen.add(path);
    files.push({ path, data: bytes.slice(dataStart, dataStart + size) });
    offset = next;
  }
  // A file whose path is another file's directory ("a" and "a/b") cannot both be written.
  for (const file of files) {
    for (let cut = file.path.indexOf("/"); cut > 0; cut = file.path.indexOf("/", cut + 1)) {
      if (seen.has(file.path.slice(0, cut)))
        return { ok: false, error: `${JSON.stringify(file.path)} is inside ${JSON.stringify(file.path.slice(0, cut))}, which is a file` };
    }
  }
  return { ok: true, files };
}

const MAX_PATH_CHARS = 255;
const MAX_DEPTH = 16;

/**
 * A path a package may hold: relative, `/`-separated, each segment a plain name (no `.`, `..`,
 * empty segment, backslash, control character). A leading `./` (what `tar -C dir .` writes) is
 * dropped. Anything else is refused, never repaired.
 */
export function checkPath(raw: string): string | { error: string } {
  const path = raw.startsWith("./") ? raw.slice(2) : raw;
  if (path === "" || path === ".") return { error: "an empty path" };
  if (path.startsWith("/")) return { error: "an absolute path" };
  if (path.length > MAX_PATH_CHARS) return { error: `a path longer than ${MAX_PATH_CHARS} characters` };
  if (/[\x00-\x1f\x7f\\]/.test(path)) return { error: "a control character or backslash in the path" };
  const segments = path.split("/");
  if (segments.length > MAX_DEPTH) return { error: `more than ${MAX_DEPTH} directories deep` };
  for (const segment of segments) {
    if (segment === "..") return { error: "a `..` segment (it would write outside the package)" };
    if (segment === "" || segment === ".") return { error: "an empty or `.` segment" };
  }
  return path;
}
