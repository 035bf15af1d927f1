// The layer order of src/ and sandbox/ (README, "Layout"), written once: the lint rule `hookbox/layers`
// (eslint.config.js) enforces it on every import, scripts/layers.ts measures the tree by it, and
// test/architecture/layers.test.ts proves the rule fails on a violation. Plain JavaScript: ESLint
// loads it under Node without a TypeScript loader (its types: layer-order.d.ts).
import { statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/**
 * Lowest first: a file may import its own wing or a wing on a lower line, never one on its own
 * line or above. package.json and handlers/lib (the guest library: the tool paths and the shell
 * parser that host and guest share) sit under everything and import nothing from src/.
 */
export const LAYER_ORDER = [
  ["package.json", "handlers/lib", "sandbox"],
  ["core"],
  ["platform"],
  ["capabilities", "agents"],
  ["hooks"],
  ["decide"],
  ["serve"],
  ["cli"],
  ["entry"],
];

/** The libraries shipped as hookbox/client and hookbox/agent-sdk: what each may import (nothing in src/ imports them). */
export const LIBRARIES = {
  client: ["core", "platform"],
  "agent-sdk": ["core", "platform", "client"],
};

/** The entry points: the only files of src/ outside a wing. */
export const ENTRY_FILES = ["src/main.ts", "src/worker.ts", "src/sandbox-thread.ts"];

/**
 * What src/ may import of sandbox/: the host's API (index.ts), a worker's loop without the
 * transpiler (worker.ts), what runs before either loads (start.ts), and the limits' numbers
 * (limits.ts, which imports nothing: src/core/limits.ts builds on it without pulling the engine
 * into hookbox/client's bundle).
 */
export const SANDBOX_ENTRIES = ["sandbox/index.ts", "sandbox/worker.ts", "sandbox/start.ts", "sandbox/limits.ts"];

/** The wing of a file given relative to the checkout with "/" separators; "src/<name>" for a stray file at the top of src/. */
export function wingOf(file) {
  if (file === "package.json") return file;
  if (file.startsWith("handlers/lib/")) return "handlers/lib";
  if (file.startsWith("sandbox/")) return "sandbox";
  if (ENTRY_FILES.includes(file)) return "entry";
  const parts = file.split("/");
  if (parts[0] !== "src") return parts[0];
  return parts.length > 2 ? parts[1] : file;
}

function rankOf(wing) {
  return LAYER_ORDER.findIndex((line) => line.includes(wing));
}

/** Why `from` may not import `to` (both files relative to the checkout), or undefined when it may. */
export function importProblem(from, to) {
  const a = wingOf(from);
  const b = wingOf(to);
  if (b === "sandbox" && a !== "sandbox" && !SANDBOX_ENTRIES.includes(to))
    return `${to} is inside sandbox/: import its entry points (${SANDBOX_ENTRIES.join(", ")})`;
  if (a === b) return undefined;
  if (a in LIBRARIES)
    return LIBRARIES[a].includes(b) ? undefined : `src/${a} is a library: it may import only ${LIBRARIES[a].map((w) => `src/${w}`).join(", ")}`;
  if (b in LIBRARIES) return `src/${b} is a library shipped to users: nothing in src/ imports it`;
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (ra < 0) return `${from} is in no wing of the layer order`;
  if (rb < 0) return `${to} is in no wing of the layer order`;
  if (rb >= ra)
    return `${name(a)} may not import ${name(b)}: ${rb === ra ? "they are on the same layer" : `${name(b)} is above it`} (${orderText()})`;
  return undefined;
}

function name(wing) {
  if (wing === "entry") return "an entry point";
  if (wing === "sandbox") return "sandbox/";
  return wing.includes("/") || wing.includes(".") ? wing : `src/${wing}`;
}

function orderText() {
  return LAYER_ORDER.slice(1)
    .map((line) => (line.length > 1 ? `{${line.join(", ")}}` : line[0]))
    .join(" < ")
    .replace("entry", "entry points");
}

const posix = (path) => path.split(sep).join("/");

/** The file a relative specifier names, relative to root: as written, else with .ts, .tsx or /index.ts. */
export function resolveImport(root, from, specifier) {
  const base = resolve(root, dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return posix(relative(root, candidate));
    } catch {
      // not this one
    }
  }
  return posix(relative(root, base));
}

/** The ESLint rule: every relative import, export-from, dynamic import() and import type of a file in src/ or sandbox/. */
const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "Imports follow the layer order of src/ (README, Layout) and reach sandbox/ only through its entry points" },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = posix(relative(root, context.filename));
    const check = (node, source) => {
      if (!source || typeof source.value !== "string" || !source.value.startsWith(".")) return;
      const problem = importProblem(file, resolveImport(root, file, source.value));
      if (problem) context.report({ node, message: problem });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === "Literal" ? node.source : undefined),
      // `typeof import("…")`: the specifier is `source` in newer typescript-eslint, a literal type before.
      TSImportType: (node) => check(node, node.source ?? (node.argument?.type === "TSLiteralType" ? node.argument.literal : undefined)),
    };
  },
};

export const layersPlugin = { rules: { layers: layersRule } };
