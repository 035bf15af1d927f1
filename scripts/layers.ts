// The layer order measured over a tree: every relative import of src/ and sandbox/ (static,
// dynamic, export-from, type-only) mapped to the wings it joins, by the rule layer-order.js
// writes once (the same the lint rule enforces). test/architecture/layers.test.ts runs on it; run
// it to print the counts of a checkout, or of the tree before the re-layout (its folders mapped to
// the wings they moved into):
//   npx tsx scripts/layers.ts [root]                  this checkout, or the tree at root
//   npx tsx scripts/layers.ts /tmp/before --before     (git archive f53c4d4 | tar -x -C /tmp/before)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { importProblem, resolveImport, wingOf } from "./layer-order.js";

export interface Edge {
  /** Files relative to the root, "/" separated. */
  readonly from: string;
  readonly to: string;
  readonly line: number;
}

const SOURCE = /\.tsx?$/;

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** Every source file under src/ and sandbox/, relative to root. */
export function sourceFiles(root: string): string[] {
  return ["src", "sandbox"].flatMap((top) => walk(join(root, top), []).map((file) => relative(root, file).split(sep).join("/")));
}

/** The relative imports in one file's text (`from`: its path relative to root). */
export function importsOf(root: string, from: string, text: string): Edge[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const lineOf = (pos: number) => starts.findLastIndex((start) => start <= pos) + 1;
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter((ref) => ref.fileName.startsWith("."))
    .map((ref) => ({ from, to: resolveImport(root, from, ref.fileName), line: lineOf(ref.pos) }));
}

export function allImports(root: string): Edge[] {
  return sourceFiles(root).flatMap((file) => importsOf(root, file, readFileSync(join(root, file), "utf8")));
}

/** The folder a file sits in, at most `depth` folders below src/ or sandbox/. */
export function folderOf(file: string, depth: number): string {
  return file
    .split("/")
    .slice(0, -1)
    .slice(0, 1 + depth)
    .join("/");
}

/** Folder → the folders it imports (itself left out), folders named by `node`. */
export function folderGraph(edges: readonly Edge[], node: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const at = (folder: string) => graph.get(folder) ?? graph.set(folder, new Set()).get(folder)!;
  for (const edge of edges) {
    const a = node(edge.from);
    const b = node(edge.to);
    at(b);
    if (a !== b) at(a).add(b);
  }
  return graph;
}

/** The import cycles between folders: each strongly connected component of more than one folder (Tarjan). */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.lastIndexOf(v));
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Pairs of folders that import each other. */
export function mutualPairs(graph: ReadonlyMap<string, ReadonlySet<string>>): [string, string][] {
  return [...graph].flatMap(([a, targets]) => [...targets].filter((b) => a < b && graph.get(b)?.has(a)).map((b): [string, string] => [a, b]));
}

/** The longest chain of folder imports, in folders (a cycle counts as one folder). */
export function layerCount(graph: ReadonlyMap<string, ReadonlySet<string>>): number {
  const merged = new Map<string, string>();
  for (const component of cycles(graph)) for (const v of component) merged.set(v, component[0]!);
  const id = (v: string) => merged.get(v) ?? v;
  const depth = new Map<string, number>();
  const longest = (v: string): number => {
    if (!depth.has(v)) {
      depth.set(v, 1); // a guard: the graph of merged cycles has none left
      let deepest = 0;
      for (const [a, targets] of graph) if (id(a) === v) for (const b of targets) if (id(b) !== v) deepest = Math.max(deepest, longest(id(b)));
      depth.set(v, deepest + 1);
    }
    return depth.get(v)!;
  };
  return Math.max(0, ...[...graph.keys()].map((v) => longest(id(v))));
}

/** An import that breaks the order: the two files, the line and why. */
export interface Violation extends Edge {
  readonly why: string;
}

export function violations(edges: readonly Edge[]): Violation[] {
  return edges.flatMap((edge) => {
    const why = importProblem(edge.from, edge.to);
    return why ? [{ ...edge, why }] : [];
  });
}

/**
 * Where each top folder (or top file) of the tree before the re-layout (f53c4d4) went, so that
 * its imports are judged by today's order.
 */
export const BEFORE_WINGS: Readonly<Record<string, string>> = {
  "errors.ts": "core",
  events: "core",
  wire: "core",
  text: "core",
  version: "core",
  types: "core",
  runtime: "platform",
  protocols: "agents",
  install: "agents",
  notify: "capabilities",
  config: "hooks",
  registry: "hooks",
  builtin: "hooks",
  packages: "hooks",
  check: "hooks",
  evaluator: "decide",
  dispatch: "decide",
  approvals: "decide",
  steps: "decide",
  audit: "decide",
  testing: "decide",
  metrics: "decide",
  server: "serve",
  daemon: "serve",
  console: "serve",
  triggers: "serve",
  "compose.ts": "cli",
};

/** src/dispatch/x.ts → src/decide/dispatch/x.ts: a file of the old tree placed in the wing it moved into. */
export function inBeforeWing(file: string): string {
  const [top, first, ...rest] = file.split("/");
  const wing = top === "src" && first !== undefined ? BEFORE_WINGS[first] : undefined;
  return wing ? ["src", wing, first, ...rest].join("/") : file;
}

export interface Counts {
  readonly topFolders: number;
  readonly layers: number;
  readonly upward: readonly Violation[];
  readonly sandboxInternals: readonly Violation[];
  readonly cycles: readonly string[][];
  readonly mutual: readonly [string, string][];
}

/** The counts the re-layout reports, over the top folders of src/ (each entry point on its own) and sandbox/. */
export function counts(root: string, before = false): Counts {
  const edges = allImports(root);
  const top = (file: string) => (file.startsWith("src/") ? file.split("/").slice(0, 2).join("/") : wingOf(file));
  const graph = folderGraph(edges, top);
  const judged = violations(before ? edges.map((edge) => ({ ...edge, from: inBeforeWing(edge.from), to: inBeforeWing(edge.to) })) : edges);
  const sandboxInternal = (v: Violation) => v.why.includes("inside sandbox/");
  return {
    topFolders: readdirSync(join(root, "src")).filter((name) => statSync(join(root, "src", name)).isDirectory()).length,
    layers: layerCount(graph),
    upward: judged.filter((v) => !sandboxInternal(v)),
    sandboxInternals: judged.filter(sandboxInternal),
    cycles: cycles(graph),
    mutual: mutualPairs(graph),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const root = resolve(args.find((arg) => !arg.startsWith("--")) ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
  const found = counts(root, args.includes("--before"));
  const list = (title: string, items: readonly string[]) =>
    console.log([`${title}: ${items.length}`, ...items.map((item) => `  ${item}`)].join("\n"));
  console.log(`top-level folders under src/: ${found.topFolders}`);
  console.log(`layers (the longest chain of imports between top folders, a cycle counted once): ${found.layers}`);
  list(
    "imports that run up the order",
    found.upward.map((v) => `${v.from}:${v.line} → ${v.to}: ${v.why}`),
  );
  list(
    "imports of sandbox/ internals",
    found.sandboxInternals.map((v) => `${v.from}:${v.line} → ${v.to}`),
  );
  list(
    "import cycles between top folders",
    found.cycles.map((c) => c.join(" ⇄ ")),
  );
  list(
    "pairs of top folders importing each other",
    found.mutual.map(([a, b]) => `${a} ⇄ ${b}`),
  );
}
