// What archive tools write: extractors (tar -x, bsdtar, unzip, cpio -i/-p, 7z x, jar x) write
// files the archive names below their destination directory — the cwd unless -C/-d/-D/-o says —
// so the destination is written "as a whole" (`contents`); archivers (tar -c, zip, 7z a) write
// the archive file; gzip and friends replace a file by its (de)compressed twin, removing it.
// Part of hookbox:shell (./index.ts).
import type { ShCommand } from "./analyze.ts";
import type { ShWord } from "./lex.ts";
import { shJoin, shLiteral, shWordSlice } from "./targets.ts";

/** One file or directory an archive tool writes (the caller's ShWritten, without its own imports). */
export interface ShArchiveWrite {
  word: ShWord;
  by: string;
  /** The tool writes files it alone knows below `word` (an archive's members): judge it as a whole. */
  contents?: true;
}

/** Files the archive may put anywhere (tar -P, cpio without --no-absolute-filenames, unzip -:): the root, as a whole. */
function shAnywhere(by: string): ShArchiveWrite {
  return { word: shLiteral("/"), by, contents: true };
}

/** tar's options that take the next argument (GNU and bsdtar), short letters and long names. */
const SH_TAR_SHORT_VALUED = "fCbTXLNVgKHIF";
const SH_TAR_LONG_VALUED = new Set([
  "--file",
  "--directory",
  "--blocking-factor",
  "--files-from",
  "--exclude-from",
  "--tape-length",
  "--newer",
  "--after-date",
  "--label",
  "--listed-incremental",
  "--starting-file",
  "--format",
  "--use-compress-program",
  "--transform",
  "--xform",
  "--exclude",
  "--owner",
  "--group",
  "--mode",
  "--mtime",
  "--suffix",
  "--to-command",
  "--checkpoint-action",
  "--rsh-command",
  "--info-script",
  "--new-volume-script",
  "--strip-components",
  "--one-top-level",
  "--newer-mtime",
]);
const SH_TAR_MODES: Record<string, string> = { x: "extract", t: "list", c: "create", r: "append", u: "update", A: "catenate", d: "diff" };
const SH_TAR_LONG_MODES: Record<string, string> = {
  "--extract": "extract",
  "--get": "extract",
  "--list": "list",
  "--create": "create",
  "--append": "append",
  "--update": "update",
  "--catenate": "catenate",
  "--concatenate": "catenate",
  "--diff": "diff",
  "--compare": "diff",
  "--delete": "delete",
};

/** tar, gtar, bsdtar: -x writes below each -C directory (or the cwd); -c/-r/-u/-A/--delete write the archive. */
function shTar(cmd: ShCommand): ShArchiveWrite[] {
  const argv = cmd.argv;
  let mode: string | undefined;
  let file: ShWord | undefined;
  let absolute = false;
  let toStdout = false;
  const dirs: ShWord[] = [];
  const members: ShWord[] = [];
  const take = (letter: string, value: ShWord | undefined): void => {
    if (letter === "f") file = value;
    else if (letter === "C" && value) dirs.push(value);
  };
  let j = 1;
  // The old form: a first argument of letters without "-" (tar xzf a.tgz), each valued letter taking the next arguments in turn.
  const first = argv[1]?.text ?? "";
  if (/^[A-Za-z]+$/.test(first)) {
    j = 2;
    for (const letter of first) {
      if (SH_TAR_MODES[letter]) mode = SH_TAR_MODES[letter];
      if (letter === "P") absolute = true;
      if (letter === "O") toStdout = true;
      if (SH_TAR_SHORT_VALUED.includes(letter)) take(letter, argv[j++]);
    }
  }
  let operandsOnly = false;
  for (; j < argv.length; j++) {
    const w = argv[j] as ShWord;
    const t = w.text;
    if (operandsOnly || !t.startsWith("-") || t === "-") {
      members.push(w);
      continue;
    }
    if (t === "--") {
      operandsOnly = true;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      if (SH_TAR_LONG_MODES[name]) mode = SH_TAR_LONG_MODES[name];
      if (name === "--absolute-names") absolute = true;
      if (name === "--to-stdout") toStdout = true;
      const value = eq >= 0 ? shWordSlice(w, eq + 1) : SH_TAR_LONG_VALUED.has(name) ? argv[++j] : undefined;
      if (name === "--file") file = value;
      if (name === "--directory" && value) dirs.push(value);
      continue;
    }
    // A cluster of short options: a valued letter takes the rest of the word, or the next argument.
    for (let k = 1; k < t.length; k++) {
      const letter = t[k] as string;
      if (SH_TAR_MODES[letter]) mode = SH_TAR_MODES[letter];
      if (letter === "P") absolute = true;
      if (letter === "O") toStdout = true;
      if (SH_TAR_SHORT_VALUED.includes(letter)) {
        take(letter, k + 1 < t.length ? shWordSlice(w, k + 1) : argv[++j]);
        break;
      }
    }
  }
  const by = `${cmd.name} -${mode === "extract" ? "x" : mode === "create" ? "c" : (mode ?? "")}`;
  if (mode === "create" || mode === "append" || mode === "update" || mode === "catenate" || mode === "delete") {
    return file && file.text !== "-" ? [{ word: file, by }] : [];
  }
  if (mode !== "extract" || toStdout) return [];
  if (absolute) return [shAnywhere(`${by}P (members with absolute names)`)];
  return shInto(dirs.length > 0 ? dirs : [shLiteral(".")], members, by);
}

/** The destination as a whole, or each named member below it (as a whole: a member may be a directory). */
function shInto(dirs: readonly ShWord[], members: readonly ShWord[], by: string): ShArchiveWrite[] {
  const out: ShArchiveWrite[] = [];
  for (const dir of dirs) {
    if (members.length === 0) out.push({ word: dir, by, contents: true });
    else for (const m of members) out.push({ word: shJoin(dir, dir.text.endsWith("/") ? "" : "/", m), by, contents: true });
  }
  return out;
}

/** unzip [opts] archive [members] [-x excluded] [-d dir]: below -d (or the cwd); -l -t -v -z -Z -p -c write nothing. */
function shUnzip(cmd: ShCommand): ShArchiveWrite[] {
  const argv = cmd.argv;
  let dir: ShWord | undefined;
  let archive: ShWord | undefined;
  let excluding = false;
  let anywhere = false;
  const members: ShWord[] = [];
  for (let j = 1; j < argv.length; j++) {
    const w = argv[j] as ShWord;
    const t = w.text;
    if (t.startsWith("-") && t.length > 1) {
      excluding = false;
      if (t === "-x") excluding = true;
      else if (t === "-d") dir = argv[++j];
      else if (t.startsWith("-d")) dir = shWordSlice(w, 2);
      else if (t === "-P") j++;
      else if (/^-[A-Za-z:^]*[ltvzZpc]/.test(t) && !t.startsWith("--")) return [];
      if (t.includes(":")) anywhere = true;
      continue;
    }
    if (archive === undefined) archive = w;
    else if (!excluding) members.push(w);
  }
  if (archive === undefined) return [];
  if (anywhere) return [shAnywhere("unzip -: (members may climb out with ../)")];
  return shInto([dir ?? shLiteral(".")], members, "unzip");
}

/** cpio -i (copy-in: below -D/--directory or the cwd; absolute names as they are unless --no-absolute-filenames), -p DIR (pass-through), -o -O/-F FILE. */
function shCpio(cmd: ShCommand): ShArchiveWrite[] {
  const argv = cmd.argv.slice(1).map((w) => w.text);
  const letters = argv.filter((t) => /^-[A-Za-z]+$/.test(t)).join("");
  const value = (short: string, long: string): ShWord | undefined => {
    for (let j = 1; j < cmd.argv.length; j++) {
      const t = (cmd.argv[j] as ShWord).text;
      if (t === short || t === long) return cmd.argv[j + 1];
      if (t.startsWith(`${long}=`)) return shWordSlice(cmd.argv[j] as ShWord, long.length + 1);
      if (t.startsWith(short) && t.length > short.length && /^-[A-Za-z]$/.test(short)) return shWordSlice(cmd.argv[j] as ShWord, 2);
    }
    return undefined;
  };
  const extract = letters.includes("i") || argv.includes("--extract");
  const pass = letters.includes("p") || argv.includes("--pass-through");
  const create = letters.includes("o") || argv.includes("--create");
  if (create) {
    const file = value("-O", "--file") ?? value("-F", "--file");
    return file ? [{ word: file, by: "cpio -o" }] : [];
  }
  if (pass) {
    const operands = cmd.argv.slice(1).filter((w) => !w.text.startsWith("-"));
    const dir = operands[operands.length - 1];
    return dir ? [{ word: dir, by: "cpio -p", contents: true }] : [];
  }
  if (!extract || letters.includes("t") || argv.includes("--list")) return [];
  if (!argv.includes("--no-absolute-filenames"))
    return [shAnywhere("cpio -i (members with absolute names are written where they name; --no-absolute-filenames keeps them below the directory)")];
  return [{ word: value("-D", "--directory") ?? shLiteral("."), by: "cpio -i", contents: true }];
}

/** 7z x|e archive [-oDIR] [members]; a/u/d write the archive. */
function sh7z(cmd: ShCommand): ShArchiveWrite[] {
  const argv = cmd.argv;
  const command = argv[1]?.text;
  const operands = argv.slice(2).filter((w) => !w.text.startsWith("-"));
  if (command === "a" || command === "u" || command === "d" || command === "rn")
    return operands[0] ? [{ word: operands[0], by: `${cmd.name} ${command}` }] : [];
  if (command !== "x" && command !== "e") return [];
  const out = argv.slice(2).find((w) => w.text.startsWith("-o"));
  return shInto([out ? shWordSlice(out, 2) : shLiteral(".")], operands.slice(1), `${cmd.name} ${command}`);
}

/** jar x (below the cwd), ar x (the cwd). */
function shJarAr(cmd: ShCommand): ShArchiveWrite[] {
  const mode = (cmd.argv[1]?.text ?? "").replace(/^-/, "");
  if (!/^[a-zA-Z]*x/.test(mode)) return [];
  const dir = cmd.name === "jar" ? cmd.argv.findIndex((w) => w.text === "-C" || w.text === "--dir") : -1;
  return [{ word: dir > 0 ? (cmd.argv[dir + 1] ?? shLiteral(".")) : shLiteral("."), by: `${cmd.name} x`, contents: true }];
}

const SH_COMPRESSORS: Record<string, { suffix: string; decompress: boolean }> = {
  gzip: { suffix: ".gz", decompress: false },
  gunzip: { suffix: ".gz", decompress: true },
  bzip2: { suffix: ".bz2", decompress: false },
  bunzip2: { suffix: ".bz2", decompress: true },
  xz: { suffix: ".xz", decompress: false },
  unxz: { suffix: ".xz", decompress: true },
  lzma: { suffix: ".lzma", decompress: false },
  unlzma: { suffix: ".lzma", decompress: true },
  zstd: { suffix: ".zst", decompress: false },
  unzstd: { suffix: ".zst", decompress: true },
  lz4: { suffix: ".lz4", decompress: false },
  unlz4: { suffix: ".lz4", decompress: true },
  compress: { suffix: ".Z", decompress: false },
  uncompress: { suffix: ".Z", decompress: true },
};

/** gzip F writes F.gz and removes F (unless -k); gunzip F.gz writes F (and removes F.gz); -c/-t/-l write nothing. */
function shCompressor(cmd: ShCommand): ShArchiveWrite[] {
  const tool = SH_COMPRESSORS[cmd.name] as { suffix: string; decompress: boolean };
  const options = cmd.argv
    .slice(1)
    .filter((w) => w.text.startsWith("-") && w.text.length > 1)
    .map((w) => w.text);
  const has = (short: string, long: string): boolean => options.some((o) => o === long || (!o.startsWith("--") && o.slice(1).includes(short)));
  if (has("c", "--stdout") || has("t", "--test") || has("l", "--list")) return [];
  const decompress = tool.decompress || has("d", "--decompress");
  const keep = has("k", "--keep");
  const outIndex = cmd.name === "zstd" || cmd.name === "unzstd" ? cmd.argv.findIndex((w) => w.text === "-o") : -1;
  const operands = cmd.argv.slice(1).filter((w, k) => !(w.text.startsWith("-") && w.text.length > 1) && k + 1 !== outIndex + 1);
  const out: ShArchiveWrite[] = [];
  if (outIndex > 0 && cmd.argv[outIndex + 1]) out.push({ word: cmd.argv[outIndex + 1] as ShWord, by: cmd.name });
  for (const w of operands) {
    if (w.text === "-") continue;
    if (!keep) out.push({ word: w, by: `${cmd.name} (it removes the file it replaces)` });
    if (outIndex > 0) continue;
    if (decompress) {
      const cut = w.text.toLowerCase().endsWith(tool.suffix.toLowerCase()) ? tool.suffix.length : w.text.toLowerCase().endsWith(".tgz") ? 4 : 0;
      out.push({ word: cut > 0 ? shWordSlice(w, 0, w.text.length - cut) : w, by: cmd.name });
    } else out.push({ word: shJoin(w, tool.suffix), by: cmd.name });
  }
  return out;
}

/** The files an archive or compression tool writes; [] for any other command. */
export function shArchiveWrites(cmd: ShCommand): ShArchiveWrite[] {
  switch (cmd.name) {
    case "tar":
    case "gtar":
    case "bsdtar":
      return shTar(cmd);
    case "unzip":
      return shUnzip(cmd);
    case "cpio":
      return shCpio(cmd);
    case "7z":
    case "7za":
    case "7zr":
    case "7zz":
      return sh7z(cmd);
    case "jar":
    case "ar":
      return shJarAr(cmd);
  }
  return Object.hasOwn(SH_COMPRESSORS, cmd.name) ? shCompressor(cmd) : [];
}
