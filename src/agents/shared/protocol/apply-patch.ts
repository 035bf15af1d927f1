import type { EventParts } from "./native-event.ts";

/** `*** Add File: a`, `*** Update File: b`, `*** Delete File: c`, `*** Move to: d` (research §4.3). */
const PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

/**
 * Codex and Copilot CLI (with GPT models) edit files with `apply_patch`, its path list inside a
 * patch envelope. Codex itself matches the tool as Edit and Write (openai/codex#18391): it becomes
 * Write when it only adds files, Edit otherwise, and the files it touches are listed in
 * `patch_files` so path guards see them. tool_input stays the agent's, so a rewrite goes back as
 * the agent expects.
 */
export function refineApplyPatch(parts: EventParts, patch: unknown): EventParts {
  if (parts.tool === undefined) return parts;
  if (typeof patch !== "string") return { ...parts, tool: { ...parts.tool, tool_name: "Edit" } };
  const actions: string[] = [];
  const files: string[] = [];
  for (const match of patch.matchAll(PATCH_FILE)) {
    actions.push(match[1] ?? "Move");
    files.push(((match[2] ?? match[3]) as string).trim());
  }
  const onlyAdds = actions.length > 0 && actions.every((action) => action === "Add");
  return { ...parts, tool: { ...parts.tool, tool_name: onlyAdds ? "Write" : "Edit" }, extra: { ...parts.extra, patch_files: files } };
}
