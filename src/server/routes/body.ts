import type { Context } from "hono";
import { HookboxError } from "../../errors.ts";

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

/**
 * The body as text, read up to `limitBytes`; past it, what was read is dropped and the body is
 * marked too large (the routes that must still answer, rather than refuse, decide what to do).
 */
export async function readText(c: Context, limitBytes: number): Promise<{ text: string; tooLarge: boolean }> {
  const declared = Number(c.req.header("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) {
    await c.req.raw.body?.cancel().catch(() => undefined);
    return { text: "", tooLarge: true };
  }
  const stream = c.req.raw.body;
  if (!stream) return { text: "", tooLarge: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => undefined);
      return { text: "", tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(bytes), tooLarge: false };
}
