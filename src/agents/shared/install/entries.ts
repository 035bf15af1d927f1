import { runsHookboxEmit } from "./command.ts";
import { parseJsonDocument } from "./json-document.ts";

/** One of Hookbox's entries in an agent's hook settings. */
export interface InstalledEntry {
  /** The agent's event name it is under. */
  readonly event: string;
  /** The command it runs (command hooks), or the URL it posts to (Claude's http hooks). */
  readonly command?: string;
  readonly url?: string;
  /** An http entry's headers (the Authorization it sends). */
  readonly headers?: Readonly<Record<string, unknown>>;
}

/**
 * Hookbox's entries in an agent's JSON hook settings, whatever the agent's layout: grouped
 * (`hooks.<Event>[].hooks[]`: Claude, Gemini, Codex, Qwen) or flat (`hooks.<event>[]`: Cursor,
 * Copilot, whose command is under `bash`). An agent whose entries are something else says so in
 * its planner (InstallPlanner.entries). A file that cannot be parsed throws (the caller reports the file).
 */
export function settingsEntries(text: string, file: string): InstalledEntry[] {
  const root = parseJsonDocument(text, file).root;
  const hooks = root.hooks;
  if (hooks === null || typeof hooks !== "object" || Array.isArray(hooks)) return [];
  const found: InstalledEntry[] = [];
  for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const handlers =
        item !== null && typeof item === "object" && Array.isArray((item as { hooks?: unknown }).hooks)
          ? (item as { hooks: unknown[] }).hooks
          : [item];
      for (const handler of handlers) {
        if (handler === null || typeof handler !== "object") continue;
        const { url, type } = handler as { url?: unknown; type?: unknown };
        const command = (handler as { command?: unknown; bash?: unknown }).command ?? (handler as { bash?: unknown }).bash;
        if (runsHookboxEmit(command)) found.push({ event, command: command as string });
        else if (type === "http" && typeof url === "string" && /\/v1\/agents\/[a-z]+\/?$/.test(url)) {
          const headers = (handler as { headers?: unknown }).headers;
          found.push({ event, url, ...(headers !== null && typeof headers === "object" && { headers: headers as Record<string, unknown> }) });
        }
      }
    }
  }
  return found;
}
