import { isMap, isNode, isPair, isScalar, LineCounter, parseDocument, type Document, type Node } from "yaml";
import type { z } from "zod";
import { closest } from "../../core/text/suggest.ts";
import type { Diagnostic } from "./diagnostic.ts";

export { formatDiagnostic, type Diagnostic } from "./diagnostic.ts";

export type Parsed<T> =
  /** `input`: the document as written, before defaults (what a file itself says, for merging layers). */
  { readonly ok: true; readonly value: T; readonly input: unknown } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Aliases beyond this are refused (a "billion laughs" document expands exponentially). */
const MAX_ALIASES = 100;

/**
 * Parse YAML text against a strict schema and report every problem at once, each located in
 * the source. YAML syntax errors come first; schema problems are only checked on valid YAML.
 */
export function parseYaml<S extends z.ZodType>(text: string, file: string, schema: S): Parsed<z.output<S>> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number): { line: number; column: number } => {
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  if (doc.errors.length > 0) {
    return {
      ok: false,
      diagnostics: doc.errors.map((error) => ({ file, ...at(error.pos[0]), field: "", message: `YAML syntax: ${firstLine(error.message)}` })),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    return { ok: false, diagnostics: [{ file, line: 1, column: 1, field: "", message: `YAML: ${(error as Error).message}` }] };
  }
  if (data === null || data === undefined) {
    return { ok: false, diagnostics: [{ file, line: 1, column: 1, field: "", message: "the file is empty: expected a YAML mapping" }] };
  }
  if (isExotic(data)) {
    return {
      ok: false,
      diagnostics: [{ file, line: 1, column: 1, field: "", message: `found ${describe(data)} at the top of the file: expected a YAML mapping` }],
    };
  }
  const parsed = schema.safeParse(data, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data, input: data };
  const diagnostics = parsed.error.issues.flatMap((issue) => describeIssue(issue, doc, file, at, schema));
  diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, diagnostics: capped(diagnostics, file) };
}

/**
 * A hostile or mangled file can hold thousands of problems (a `!!binary` blob decodes to one key
 * per byte); past this many the rest are summed up in one line, so the report stays readable
 * and bounded.
 */
const MAX_DIAGNOSTICS_PER_FILE = 50;

function capped(diagnostics: Diagnostic[], file: string): Diagnostic[] {
  if (diagnostics.length <= MAX_DIAGNOSTICS_PER_FILE) return diagnostics;
  const last = diagnostics[MAX_DIAGNOSTICS_PER_FILE - 1] as Diagnostic;
  const more = diagnostics.length - MAX_DIAGNOSTICS_PER_FILE;
  return [
    ...diagnostics.slice(0, MAX_DIAGNOSTICS_PER_FILE),
    {
      file,
      line: last.line,
      column: last.column,
      field: "",
      message: `and ${more} more problem${more === 1 ? "" : "s"} in this file (fix the ones above first)`,
    },
  ];
}

/** A YAML 1.1 value that is neither a mapping nor a list (`!!binary`, `!!set`, a timestamp): no schema takes one at the top. */
function isExotic(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto !== Object.prototype && proto !== null;
}

/** The position of a field in YAML text, for problems found after the schema (e.g. a handler that fails to compile). */
export function locate(text: string, path: readonly (string | number)[]): { line: number; column: number } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const node = nodeAt(doc, path);
  const offset = node?.range?.[0] ?? nearestRange(doc, path) ?? 0;
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}

function describeIssue(
  issue: z.core.$ZodIssue,
  doc: Document,
  file: string,
  at: (offset: number) => { line: number; column: number },
  schema: z.ZodType,
): Diagnostic[] {
  const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
  if (issue.code === "unrecognized_keys") {
    const parent = nodeAt(doc, path);
    return issue.keys.map((key) => {
      const keyNode = isMap(parent) ? parent.items.find((pair) => isScalar(pair.key) && pair.key.value === key)?.key : undefined;
      const offset = isNode(keyNode) && keyNode.range ? keyNode.range[0] : (parent?.range?.[0] ?? 0);
      const known = knownKeys(schema, path);
      const suggestion = closest(key, known);
      return {
        file,
        ...at(offset),
        field: [...path, key].join("."),
        message: `unknown key "${key}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}${known.length ? `; expected one of: ${known.join(", ")}` : ""}`,
      };
    });
  }
  const node = nodeAt(doc, path);
  const offset = node?.range?.[0] ?? nearestRange(doc, path) ?? 0;
  return [{ file, ...at(offset), field: path.join("."), message: issueMessage(issue, node === undefined) }];
}

function issueMessage(issue: z.core.$ZodIssue, missing: boolean): string {
  if (missing && issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union")) {
    return issue.code === "invalid_type" ? `missing (expected ${issue.expected})` : "missing";
  }
  if (issue.code === "invalid_type") return `found ${describe(issue.input)}, expected ${issue.expected}`;
  if (issue.code === "invalid_value")
    return `found ${describe(issue.input)}, expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (issue.code === "invalid_union") return `found ${describe(issue.input)}, which matches none of the accepted forms`;
  const found = issue.input !== undefined ? ` (found ${describe(issue.input)})` : "";
  return `${issue.message}${found}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (value instanceof Uint8Array) return "binary data (!!binary)";
  if (value instanceof Map || value instanceof Set) return "a YAML 1.1 set or ordered map";
  if (value instanceof Date) return "a timestamp";
  if (typeof value === "object") return "a mapping";
  const text = JSON.stringify(value);
  return `${typeof value} ${text && text.length > 60 ? `${text.slice(0, 57)}…` : text}`;
}

function nodeAt(doc: Document, path: readonly (string | number)[]): Node | undefined {
  if (path.length === 0) return isNode(doc.contents) ? doc.contents : undefined;
  const found = doc.getIn(path, true);
  if (isNode(found)) return found;
  if (isPair(found) && isNode(found.value)) return found.value;
  return undefined;
}

/** For a missing key, point at the mapping that should contain it. */
function nearestRange(doc: Document, path: readonly (string | number)[]): number | undefined {
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const node = nodeAt(doc, path.slice(0, depth));
    if (node?.range) return node.range[0];
  }
  return undefined;
}

type SchemaDef = {
  type?: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  options?: unknown[];
  element?: unknown;
  valueType?: unknown;
};

/** Zod's strict-object issue does not list the allowed keys; walk the schema to the object and read its shape. */
function knownKeys(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let current: unknown = schema;
  for (const key of [...path, undefined]) {
    // Unwrap optional/default/pipe/refinement layers down to the object, array or record.
    for (let guard = 0; guard < 10; guard++) {
      const def = (current as { _zod?: { def?: SchemaDef } })._zod?.def;
      if (!def) return [];
      if (def.innerType) current = def.innerType;
      else if (def.type === "pipe" && def.in) current = def.in;
      else if (def.type === "union" && def.options)
        current = def.options.find((o) => (o as { _zod?: { def?: SchemaDef } })._zod?.def?.type === "object") ?? def.options[0];
      else break;
    }
    const def = (current as { _zod: { def: SchemaDef } })._zod.def;
    if (key === undefined) return def.shape ? Object.keys(def.shape) : [];
    if (def.shape && typeof key === "string") current = def.shape[key];
    else if (def.element !== undefined) current = def.element;
    else if (def.valueType !== undefined) current = def.valueType;
    else return [];
    if (!current) return [];
  }
  return [];
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}
