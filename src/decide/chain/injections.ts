import { MAX_INJECTION_BYTES } from "../../core/bounds.ts";
import type { ContextInjection, InjectionRole } from "../../core/events/types.ts";

const TRUNCATION_MARK = "\n[truncated by Hookbox: one injection is at most 10 KiB]";

/** Collects the context hooks inject into one event: 10 KiB per injection, a budget per event. */
export class InjectionCollector {
  private used = 0;
  readonly collected: ContextInjection[] = [];

  constructor(private readonly budgetBytes: number) {}

  /** Add one injection; returns what was kept and a note when it was cut or dropped. */
  add(hookId: string, content: string, role: InjectionRole): { kept?: { content: string; truncated: boolean }; note?: string } {
    if (content.length === 0) return {};
    let text = content;
    let truncated = false;
    if (utf8Bytes(text) > MAX_INJECTION_BYTES) {
      text = cutToBytes(text, MAX_INJECTION_BYTES - utf8Bytes(TRUNCATION_MARK)) + TRUNCATION_MARK;
      truncated = true;
    }
    const bytes = utf8Bytes(text);
    if (this.used + bytes > this.budgetBytes) {
      return { note: `context injection of ${bytes} bytes dropped: the event's injection budget (${this.budgetBytes} bytes) is used up` };
    }
    this.used += bytes;
    this.collected.push({ hook_id: hookId, role, content: text });
    return { kept: { content: text, truncated }, ...(truncated ? { note: `context injection truncated to ${MAX_INJECTION_BYTES} bytes` } : {}) };
  }
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** The longest prefix within `max` UTF-8 bytes, never splitting a character. */
function cutToBytes(text: string, max: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength <= max) return text;
  let end = max;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.slice(0, end));
}
