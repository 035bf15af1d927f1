import { decode } from "@jridgewell/sourcemap-codec";
import type { SandboxFailure, SourceLocation } from "./failure.ts";
import type { CompiledHandler } from "./transpile.ts";

/**
 * Guest stack traces point into the transpiled JavaScript. Sucrase and the linker keep every
 * line where it was, but removing types moves columns (`const n: number = x.y` → `const n = x.y`):
 * the compiled handler carries sucrase's source map (`sourceMap`, the `mappings` of a v3 map)
 * and failures are reported in TypeScript coordinates with it. Lines past the handler's own are
 * the linked guest library modules: they are left as they are.
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
