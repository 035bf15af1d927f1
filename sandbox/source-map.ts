import { decode, encode, type SourceMapSegment } from "@jridgewell/sourcemap-codec";
import { diffChars } from "diff";
import type { SandboxFailure, SourceLocation } from "./failure.ts";
import type { CompiledHandler } from "./transpile.ts";

/**
 * Where each column of the transpiled JavaScript comes from in the TypeScript, as the `mappings`
 * of a v3 source map. Sucrase keeps every line where it was and mostly removes text (types, `as
 * T`, `!`), so each changed line is aligned with its source by a character diff. (Sucrase's own
 * source maps lose their place after a template literal on an earlier line.)
 */
export function columnMap(typescript: string, javascript: string): string {
  const sourceLines = typescript.split("\n");
  const lines = javascript.split("\n").map((generated, line): SourceMapSegment[] => {
    const source = sourceLines[line];
    if (source === undefined || source === generated) return [];
    const segments: SourceMapSegment[] = [];
    let sourceColumn = 0;
    let generatedColumn = 0;
    for (const part of diffChars(source, generated)) {
      if (part.removed) sourceColumn += part.value.length;
      else if (part.added) generatedColumn += part.value.length;
      else {
        if (segments.at(-1)?.[0] === generatedColumn) segments.pop();
        segments.push([generatedColumn, 0, line, sourceColumn]);
        sourceColumn += part.value.length;
        generatedColumn += part.value.length;
      }
    }
    return segments;
  });
  return encode(lines);
}

/**
 * Guest stack traces point into the transpiled JavaScript, where removing types moved columns
 * (`const n: number = x.y` → `const n = x.y`): failures are reported in TypeScript coordinates
 * with the compiled handler's column map (`sourceMap`). Lines past the handler's own are the
 * linked guest library modules: they are left as they are.
 */
export function failureInSource(failure: SandboxFailure, handler: Pick<CompiledHandler, "filename" | "sourceMap">): SandboxFailure {
  if (!failure.guestStack) return failure;
  const lines = handler.sourceMap === undefined ? undefined : decode(handler.sourceMap);
  let location: SourceLocation | undefined;
  const frame = new RegExp(`${escapeRegExp(handler.filename)}:(\\d+):(\\d+)`, "g");
  const guestStack = failure.guestStack.replace(frame, (whole, lineText: string, columnText: string) => {
    const line = Number(lineText);
    const segments = lines?.[line - 1];
    if (!lines || !segments) return whole;
    const column = sourceColumn(segments, Number(columnText));
    location ??= { file: handler.filename, line, column };
    return `${handler.filename}:${line}:${column}`;
  });
  return { ...failure, guestStack, ...(location && !failure.location ? { location } : {}) };
}

type Segment = readonly number[];

/** The source column (1-based) of a generated one: the nearest mapped token at or before it, plus the distance to it. */
function sourceColumn(segments: readonly Segment[], column: number): number {
  let best: Segment | undefined;
  for (const segment of segments) {
    if ((segment[0] as number) > column - 1) break;
    best = segment;
  }
  if (!best || best.length < 4) return column;
  return (best[3] as number) + (column - 1 - (best[0] as number)) + 1;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
