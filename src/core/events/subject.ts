import type { NativeEvent } from "./types.ts";

/**
 * What an event is about, in a line: the command, the file path, the URL or the prompt (else the
 * tool input as JSON), cut at `maxChars`. Shown to the person answering an approval and kept in
 * the decision's audit record.
 */
export function subjectOf(event: Pick<NativeEvent, "tool_input" | "prompt">, maxChars = 300): string {
  const input = event.tool_input ?? {};
  const candidate = input.command ?? input.file_path ?? input.path ?? input.url ?? event.prompt;
  const text = typeof candidate === "string" ? candidate : JSON.stringify(input);
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
