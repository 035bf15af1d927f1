import type { FileHost } from "../../platform/index.ts";
import { parseEntry, wouldBlock } from "./read.ts";
import type { AuditDecisionV1, AuditRecordV1 } from "./record.ts";

/** A monitored hook's run that would have blocked, with the decision record of its event (the call it was about). */
export interface WouldBlockEntry {
  readonly run: AuditRecordV1;
  /** Absent when the decision record is not in the files read (rotated away, or a torn write). */
  readonly decision: AuditDecisionV1 | undefined;
}

/**
 * What monitored hooks would have blocked so far (shadow mode), oldest first, from the live log
 * and its rotated files: `hookbox promote` shows it before turning a hook on, the console lists
 * it. A decision record follows its runs in the log, so one pass in file order pairs them.
 */
export async function readWouldBlock(
  fs: Pick<FileHost, "size" | "readText">,
  path: string,
  options: { readonly hook?: string; readonly keepFiles?: number } = {},
): Promise<WouldBlockEntry[]> {
  const files = [path, ...Array.from({ length: options.keepFiles ?? 10 }, (_, i) => `${path}.${i + 1}`)].reverse();
  const runs: AuditRecordV1[] = [];
  const decisions = new Map<string, AuditDecisionV1 | undefined>();
  for (const file of files) {
    if ((await fs.size(file)) === undefined) continue;
    for (const line of (await fs.readText(file)).split("\n")) {
      if (!line) continue;
      const entry = parseEntry(line);
      if (!entry) continue;
      if (entry.kind === "decision") {
        if (decisions.has(entry.event_id)) decisions.set(entry.event_id, entry);
      } else if (wouldBlock(entry) && (options.hook === undefined || entry.hook_id === options.hook)) {
        runs.push(entry);
        decisions.set(entry.event_id, undefined);
      }
    }
  }
  return runs.map((run) => ({ run, decision: decisions.get(run.event_id) }));
}
