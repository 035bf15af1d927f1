import type { Context } from "hono";
import { HookboxError } from "../../../core/errors.ts";

/** The request body as JSON; a body that is not JSON is a 400 naming the problem. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") throw new HookboxError("event_invalid", "the request body is empty: expected a JSON object");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HookboxError("event_invalid", `the request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Beyond this a body is not even read to its end (emit sends at most 16 MiB). */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * The body as text, read up to `limitBytes`; past it, what was read is dropped and the body is
 * marked too large (the routes that must still answer, rather than refuse, decide what to do).
 */
export interface BodyText {
  /** The whole body; "" when it was too large or not UTF-8. */
  readonly text: string;
  readonly tooLarge: boolean;
  readonly notUtf8?: boolean;
  /** When too large: its first bytes, as text (what can still be read of it). */
  readonly head?: string;
}

/** What is kept of a body too large to read: enough for the fields agents send first (cwd, event name). */
const HEAD_BYTES = 64 * 1024;

export async function readText(c: Context, limitBytes: number): Promise<BodyText> {
  const declared = Number(c.req.header("content-length"));
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
    await c.req.raw.body?.cancel().catch(() => undefined);
    return { text: "", tooLarge: true };
  }
  const head: Uint8Array[] = [];
  let headSize = 0;
  const stream = c.req.raw.body;
  if (!stream) return { text: "", tooLarge: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT_BYTES) {
      await reader.cancel().catch(() => undefined);
      return { text: "", tooLarge: true };
    }
    // Past the limit the rest is read and dropped, not cut off: a client still sending would
    // see its connection reset instead of the answer that says why.
    if (size <= limitBytes) chunks.push(value);
    if (headSize < HEAD_BYTES) {
      head.push(value.subarray(0, HEAD_BYTES - headSize));
      headSize += Math.min(value.byteLength, HEAD_BYTES - headSize);
    }
  }
  if (size > limitBytes) return { text: "", tooLarge: true, head: new TextDecoder().decode(concat(head, headSize)) };
  const bytes = concat(chunks, size);
  // Bytes that are not UTF-8 are not replaced: a path with a replaced byte is another path.
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), tooLarge: false };
  } catch {
    return { text: "", tooLarge: false, notUtf8: true };
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
