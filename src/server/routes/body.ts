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
