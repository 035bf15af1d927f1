import { parse, printParseErrorCode, stripComments, type ParseError } from "jsonc-parser";
import { HookboxError } from "../../../core/errors.ts";
import type { JsonLayout } from "./json-edit.ts";

/** A config file as the agents write it: JSON, or JSONC (comments, trailing commas) where an agent or an editor allows it. */
export interface JsonDocument {
  /** The parsed value: a fresh object the planner may change. */
  readonly root: Record<string, unknown>;
  /** The text without its byte-order mark; undefined when there is no file (or it is blank). */
  readonly body: string | undefined;
  readonly bom: string;
  readonly layout: JsonLayout;
  /** What the file uses beyond JSON: an agent that reads strict JSON refuses it (see JsonDialect). */
  readonly syntax: { readonly comments: boolean; readonly trailingCommas: boolean };
}

const LENIENT = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false } as const;

function configError(file: string, message: string): HookboxError {
  return new HookboxError("config_invalid", `${file}: ${message}`);
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split("\n").length}, column ${before.length - before.lastIndexOf("\n")}`;
}

function layoutOf(text: string): JsonLayout {
  // The first indented line opening a key or a value: its indentation is one level.
  const indent = /^[ \t]+(?=["{[\]}/])/m.exec(text)?.[0];
  return { indentUnit: indent ?? "  ", eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

/**
 * The existing file, parsed as JSONC so that comments and trailing commas are kept (the edits
 * are made in the text, json-edit.ts), refusing what Hookbox could not edit safely: text that
 * is not JSON(C), or not an object at the top.
 */
export function parseJsonDocument(text: string | undefined, file: string): JsonDocument {
  const none = { comments: false, trailingCommas: false };
  if (text === undefined || text.trim() === "") return { root: {}, body: undefined, bom: "", layout: { indentUnit: "  ", eol: "\n" }, syntax: none };
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = text.slice(bom.length);
  const errors: ParseError[] = [];
  const parsed: unknown = parse(body, errors, LENIENT);
  const [first] = errors;
  if (first !== undefined) {
    throw configError(
      file,
      `is not valid JSON (${lineAndColumn(body, first.offset)}: ${printParseErrorCode(first.error)}). Fix or move the file, then run again. Nothing was changed.`,
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw configError(
      file,
      `must hold a JSON object at the top level, found ${Array.isArray(parsed) ? "an array" : String(parsed === null ? "null" : typeof parsed)}. Nothing was changed.`,
    );
  }
  const strictErrors: ParseError[] = [];
  parse(body, strictErrors, { ...LENIENT, allowTrailingComma: false });
  return {
    root: parsed as Record<string, unknown>,
    body,
    bom,
    layout: layoutOf(body),
    syntax: { comments: stripComments(body) !== body, trailingCommas: strictErrors.length > 0 },
  };
}

/** A new file: plain JSON, two-space indent, final newline. */
export function serializeNewDocument(root: Record<string, unknown>): string {
  return `${JSON.stringify(root, null, 2)}\n`;
}
