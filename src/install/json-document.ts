import { HookboxError, errorMessage } from "../errors.ts";

/** A JSON config file as an object, plus what it takes to write it back the way it was laid out. */
export interface JsonDocument {
  readonly root: Record<string, unknown>;
  readonly indent: string;
  readonly finalNewline: boolean;
}

function configError(file: string, message: string): HookboxError {
  return new HookboxError("config_invalid", `${file}: ${message}`);
}

/** Line and column of a JSON.parse error, when the engine reports a position. */
function where(text: string, message: string): string {
  const position = /position (\d+)/.exec(message);
  if (!position) return "";
  const before = text.slice(0, Number(position[1]));
  const line = before.split("\n").length;
  return ` (line ${line}, column ${before.length - before.lastIndexOf("\n")})`;
}

/** JSONC's comments and trailing commas removed, strings left alone: only to tell "has comments" from "broken". */
function withoutComments(text: string): string {
  return text
    .replace(/"(?:[^"\\]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match) => (match.startsWith('"') ? match : ""))
    .replace(/,(\s*[}\]])/g, "$1");
}

/**
 * The existing file, refusing anything Hookbox could not write back intact: not JSON, not an
 * object at the top, or JSON with comments (Gemini's settings may have them; rewriting would
 * drop them, and a config file is not Hookbox's to lose).
 */
export function parseJsonDocument(text: string | undefined, file: string): JsonDocument {
  if (text === undefined || text.trim() === "") return { root: {}, indent: "  ", finalNewline: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const message = errorMessage(error);
    let lenient = false;
    try {
      JSON.parse(withoutComments(text.replace(/^\uFEFF/, "")));
      lenient = true;
    } catch {
      // Not JSONC either: report the original error.
    }
    if (lenient) {
      throw configError(file, "has comments or trailing commas; Hookbox writes plain JSON and would lose them. Remove them and run again, or add the Hookbox entries by hand. Nothing was changed.");
    }
    throw configError(file, `is not valid JSON${where(text, message)}: ${message}. Fix or move the file, then run again. Nothing was changed.`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw configError(file, `must hold a JSON object at the top level, found ${Array.isArray(parsed) ? "an array" : String(parsed === null ? "null" : typeof parsed)}. Nothing was changed.`);
  }
  const indentMatch = /^[ \t]+(?=")/m.exec(text);
  return { root: parsed as Record<string, unknown>, indent: indentMatch ? indentMatch[0] : "  ", finalNewline: text.endsWith("\n") || !text.includes("\n") };
}

export function serializeJsonDocument(document: JsonDocument): string {
  return `${JSON.stringify(document.root, null, document.indent)}${document.finalNewline ? "\n" : ""}`;
}
