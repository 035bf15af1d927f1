import { errorMessage } from "../../../core/errors.ts";
import { invalid } from "./payload.ts";

/**
 * The agent's stdin as JSON. Cursor's Windows CLI prefixes a UTF-8 byte-order mark, which made
 * hooks fail open (research §3.4, forum 168407): it is dropped, not treated as an error.
 */
export function parseAgentStdin(text: string): unknown {
  const body = text.replace(/^\uFEFF/, "").trim();
  if (body === "") throw invalid("stdin is empty: the agent sent no hook payload (run `hookbox emit` from an agent's hook, or pipe an event to it)");
  try {
    return JSON.parse(body);
  } catch (error) {
    throw invalid(`stdin is not JSON: ${errorMessage(error)}`);
  }
}
