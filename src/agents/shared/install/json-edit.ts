import { applyEdits, findNodeAtLocation, modify, parse, parseTree, type JSONPath, type Node, type ParseError } from "jsonc-parser";
import { HookboxError } from "../../../core/errors.ts";
import { isJsonObject, sameJson } from "./json-value.ts";

/** How a file is laid out, so that what Hookbox adds looks like what was there. */
export interface JsonLayout {
  /** One level of indentation: "  ", "    " or "\t". */
  readonly indentUnit: string;
  readonly eol: string;
}

type Edit =
  | { readonly op: "set"; readonly path: JSONPath; readonly value: unknown }
  | { readonly op: "append"; readonly path: JSONPath; readonly key: string | undefined; readonly value: unknown }
  | { readonly op: "remove"; readonly path: JSONPath };

const LENIENT = { allowTrailingComma: true, disallowComments: false } as const;

/**
 * `text` (JSON or JSONC) whose value is `before`, edited in place until its value is `after`:
 * only what changed is touched, so comments, trailing commas, key order and the layout of
 * everything else stay exactly as they were. Added values are laid out like their siblings.
 */
export function rewriteJson(text: string, before: unknown, after: unknown, layout: JsonLayout): string {
  const edits: Edit[] = [];
  plan([], before, after, edits);
  const result = edits.reduce((current, edit) => applyEdit(current, edit, layout), text);
  // The edits are made in the text; the value they make is checked against the one wanted.
  const errors: ParseError[] = [];
  if (!sameJson(parse(result, errors, LENIENT), after) || errors.length > 0) {
    throw new HookboxError(
      "internal",
      "editing the config file in place did not give the expected content (a bug in Hookbox: please report it with the file). Nothing was changed.",
    );
  }
  return result;
}

/** The edits from `a` to `b`, in an order where each path is valid in the text it is applied to. */
function plan(path: JSONPath, a: unknown, b: unknown, out: Edit[]): void {
  if (sameJson(a, b)) return;
  if (isJsonObject(a) && isJsonObject(b)) {
    for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) out.push({ op: "remove", path: [...path, key] });
    for (const key of Object.keys(b)) {
      if (Object.hasOwn(a, key)) plan([...path, key], a[key], b[key], out);
      else out.push({ op: "append", path, key, value: b[key] });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    planArray(path, a, b, out);
    return;
  }
  out.push({ op: "set", path, value: b });
}

/**
 * Elements of `b` are matched in order to equal elements of `a`, else to the next unmatched one
 * (changed in place); what is left of `a` is removed, what is left of `b` appended. The planners
 * only ever append, change in place and remove, so this finds exactly what they did.
 */
function planArray(path: JSONPath, a: readonly unknown[], b: readonly unknown[], out: Edit[]): void {
  const removed: number[] = [];
  const appended: unknown[] = [];
  let next = 0;
  for (const wanted of b) {
    const equal = a.findIndex((item, index) => index >= next && sameJson(item, wanted));
    if (equal >= 0) {
      for (let index = next; index < equal; index++) removed.push(index);
      next = equal + 1;
    } else if (next < a.length) {
      plan([...path, next], a[next], wanted, out);
      next += 1;
    } else {
      appended.push(wanted);
    }
  }
  for (let index = next; index < a.length; index++) removed.push(index);
  for (const value of appended) out.push({ op: "append", path, key: undefined, value });
  // From the end, so that each index still names the element it was planned for.
  for (const index of removed.reverse()) out.push({ op: "remove", path: [...path, index] });
}

function applyEdit(text: string, edit: Edit, layout: JsonLayout): string {
  const root = parseTree(text, [], LENIENT);
  const node = root && findNodeAtLocation(root, edit.path);
  if (node === undefined)
    throw new HookboxError("internal", `editing the config file: ${JSON.stringify(edit.path)} is not in it (a bug in Hookbox). Nothing was changed.`);
  switch (edit.op) {
    case "set":
      return splice(text, node.offset, node.length, render(edit.value, indentAt(text, node.offset), layout));
    case "append":
      return (
        appendChild(text, node, edit.key, edit.value, layout) ??
        appendFormatted(text, edit.key === undefined ? [...edit.path, -1] : [...edit.path, edit.key], edit.value, layout)
      );
    case "remove": {
      // An object's member is its property node (key and value); an array's is the value itself.
      const child = node.parent?.type === "property" ? node.parent : node;
      const container = child.parent;
      if (container === undefined)
        throw new HookboxError("internal", "editing the config file: the top-level value cannot be removed (a bug in Hookbox). Nothing was changed.");
      return removeLines(text, container, child) ?? removeInline(text, container, child);
    }
  }
}

/**
 * After the last child, on a line of its own with the last child's indentation, keeping the
 * file's comma style (a trailing comma stays trailing). Undefined when the container is not laid
 * out one child per line: then jsonc-parser's own formatting of the touched lines applies.
 */
function appendChild(text: string, container: Node, key: string | undefined, value: unknown, layout: JsonLayout): string | undefined {
  const member = (indent: string): string => `${key === undefined ? "" : `${JSON.stringify(key)}: `}${render(value, indent, layout)}`;
  const close = container.offset + container.length - 1;
  const children = container.children ?? [];
  const last = children.at(-1);
  if (last === undefined) {
    const indent = indentAt(text, container.offset) + layout.indentUnit;
    if (startsLine(text, close)) return splice(text, lineStart(text, close), 0, `${indent}${member(indent)}${layout.eol}`);
    if (text.slice(container.offset + 1, close).trim() !== "") return undefined;
    return splice(
      text,
      container.offset + 1,
      close - container.offset - 1,
      `${layout.eol}${indent}${member(indent)}${layout.eol}${indentAt(text, container.offset)}`,
    );
  }
  const end = last.offset + last.length;
  const tail = lineTail(text, end);
  if (!startsLine(text, last.offset) || tail === undefined) return undefined;
  const indent = indentAt(text, last.offset);
  const added = splice(text, tail.end, 0, `${layout.eol}${indent}${member(indent)}${tail.comma === undefined ? "" : ","}`);
  return tail.comma === undefined ? splice(added, end, 0, ",") : added;
}

/** Its lines, when it has lines of its own (and the comma that would be left trailing); else undefined. */
function removeLines(text: string, container: Node, child: Node): string | undefined {
  const children = container.children ?? [];
  const index = children.indexOf(child);
  const tail = lineTail(text, child.offset + child.length);
  if (index < 0 || !startsLine(text, child.offset) || tail === undefined) return undefined;
  const start = lineStart(text, child.offset);
  const end = tail.end + (text.startsWith("\r\n", tail.end) ? 2 : text[tail.end] === "\n" ? 1 : 0);
  let result = splice(text, start, end - start, "");
  const previous = children[index - 1];
  if (tail.comma === undefined && previous !== undefined) {
    // It was the last child, written without a trailing comma: the previous one's comma goes.
    const previousTail = lineTail(result, previous.offset + previous.length);
    if (previousTail?.comma !== undefined) result = splice(result, previousTail.comma, 1, "");
  }
  if (children.length === 1) {
    // Nothing left inside but blank lines: `{}`, `[]`.
    const close = container.offset + container.length - 1 - (end - start);
    if (result.slice(container.offset + 1, close).trim() === "") result = splice(result, container.offset + 1, close - container.offset - 1, "");
  }
  return result;
}

/**
 * A child sharing its line with others: from the end of the one before it (taking the comma
 * between them), or up to the next one when it is first. (jsonc-parser's own removal of a last
 * element leaves part of it behind in this layout.)
 */
function removeInline(text: string, container: Node, child: Node): string {
  const children = container.children ?? [];
  const index = children.indexOf(child);
  const previous = children[index - 1];
  const next = children[index + 1];
  if (previous !== undefined)
    return splice(text, previous.offset + previous.length, child.offset + child.length - previous.offset - previous.length, "");
  return splice(text, child.offset, (next === undefined ? child.offset + child.length : next.offset) - child.offset, "");
}

/** jsonc-parser's edit with its formatter, for appending where Hookbox does not lay out itself (several children on one line). */
function appendFormatted(text: string, path: JSONPath, value: unknown, layout: JsonLayout): string {
  const tabs = layout.indentUnit.startsWith("\t");
  return applyEdits(
    text,
    modify(text, path, value, { formattingOptions: { insertSpaces: !tabs, tabSize: tabs ? 1 : layout.indentUnit.length, eol: layout.eol } }),
  );
}

/** What follows a value on its line: an optional comma and comments, up to the line break. Undefined when more JSON follows on the line. */
function lineTail(text: string, from: number): { readonly end: number; readonly comma: number | undefined } | undefined {
  let at = from;
  let comma: number | undefined;
  for (;;) {
    while (text[at] === " " || text[at] === "\t") at++;
    if (text[at] === "," && comma === undefined) {
      comma = at++;
    } else if (text.startsWith("/*", at)) {
      const close = text.indexOf("*/", at + 2);
      if (close < 0 || /[\r\n]/.test(text.slice(at, close))) return undefined;
      at = close + 2;
    } else if (text.startsWith("//", at)) {
      const lineEnd = text.slice(at).search(/\r?\n/);
      return { end: lineEnd < 0 ? text.length : at + lineEnd, comma };
    } else if (at >= text.length || text.startsWith("\n", at) || text.startsWith("\r\n", at)) {
      return { end: at, comma };
    } else {
      return undefined;
    }
  }
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === "";
}

function indentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))?.[0] ?? "";
}

/** JSON laid out with the file's indent unit, continuation lines indented from `indent`. */
function render(value: unknown, indent: string, layout: JsonLayout): string {
  return JSON.stringify(value, null, layout.indentUnit).split("\n").join(`${layout.eol}${indent}`);
}

function splice(text: string, offset: number, length: number, content: string): string {
  return `${text.slice(0, offset)}${content}${text.slice(offset + length)}`;
}
