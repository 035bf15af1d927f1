import type { ToolNameMap } from "../shared/protocol/tool-names.ts";

/** Codex sends Claude's names except for its patch tool, which Codex itself matches as Edit and Write (research §4.3). */
export const CODEX_TOOLS: ToolNameMap = {};
