import { runsHookboxEmit } from "./command.ts";
import { parseJsonDocument } from "./json-document.ts";

/** One of Hookbox's entries in an agent's hook settings. */
export interface InstalledEntry {
  /** The agent's event name it is under. */
  readonly event: string;
  /** The command it runs (command hooks), or the URL it posts to (Claude's http hooks). */
  readonly command?: string;
  readonly url?: string;
}

/**
 * Hookbox's entries in an agent's hook settings, whatever the agent's layout: grouped
 * (`hooks.<Event>[].hooks[]`: Claude, Gemini, Codex) or flat (`hooks.<event>[]`: Cursor).
 * A file that cannot be parsed has none (the caller reports the file).
 */
export function installedEntries(text: string, file: string): InstalledEntry[] {
  const root = parseJsonDocument(text, file).root;
  const hooks = root.hooks;
  if (hooks === null || typeof hooks !== "object" || Array.isArray(hooks)) return [];
  const found: InstalledEntry[] = [];
  for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const handlers = item !== null && typeof item === "object" && Array.isArray((item as { hooks?: unknown }).hooks) ? ((item as { hooks: unknown[] }).hooks) : [item];
      for (const handler of handlers) {
        if (handler === null || typeof handler !== "object") continue;
        const { command, url, type } = handler as { command?: unknown; url?: unknown; type?: unknown };
        if (runsHookboxEmit(command)) found.push({ event, command: command as string });
        else if (type === "http" && typeof url === "string" && /\/v1\/agents\/[a-z]+\/?$/.test(url)) found.push({ event, url });
      }
    }
  }
  return found;
}
