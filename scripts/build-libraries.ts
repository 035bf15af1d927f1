// hookbox/client and hookbox/agent-sdk as the package exports them (package.json "exports"): one
// ES module each for Node, Bun and Deno (zod and the wire schemas bundled in; the runtime's
// transport chosen when first used), and TypeScript declarations — those of src/ the two entry
// points' public types reach, nothing else (no sandbox, no server).
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export const LIBRARY_ENTRIES = { client: "src/client/index.ts", "agent-sdk": "src/agent-sdk/index.ts" } as const;

export async function buildLibraries(root: string): Promise<void> {
  const out = join(root, "dist", "lib");
  rmSync(out, { recursive: true, force: true });
  const entries = Object.values(LIBRARY_ENTRIES).map((entry) => join(root, entry));
  const result = await Bun.build({
    entrypoints: entries,
    outdir: out,
    root: join(root, "src"),
    target: "node",
    format: "esm",
    splitting: false,
    sourcemap: "none",
  });
  if (!result.success) throw new Error(`building the libraries failed:\n${result.logs.join("\n")}`);
  emitDeclarations(root, entries, join(out, "types"));
}

/** Declarations of what the entries' public types reach, under out/ in src/'s layout. */
function emitDeclarations(root: string, entries: readonly string[], out: string): void {
  const emitted = new Map<string, string>();
  const program = ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    allowImportingTsExtensions: true,
    declaration: true,
    emitDeclarationOnly: true,
    skipLibCheck: true,
    types: ["node", "bun-types"],
    rootDir: root,
    outDir: out,
  });
  program.emit(undefined, (file, text) => emitted.set(resolve(file), text));
  // Walk relative imports from the entries: only what a consumer's type checker will open.
  const queue = entries.map((entry) => resolve(out, relative(root, entry).replace(/\.ts$/, ".d.ts")));
  const kept = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (kept.has(file)) continue;
    const text = emitted.get(file);
    if (text === undefined) throw new Error(`no declarations emitted for ${file}`);
    kept.add(file);
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g))
      queue.push(resolve(dirname(file), (match[1] as string).replace(/\.ts$/, ".d.ts")));
  }
  for (const file of kept) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, emitted.get(file) as string);
  }
  for (const entry of entries)
    if (!existsSync(resolve(out, relative(root, entry).replace(/\.ts$/, ".d.ts")))) throw new Error(`missing declarations for ${entry}`);
}
