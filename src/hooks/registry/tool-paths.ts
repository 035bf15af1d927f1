/**
 * The paths a tool call touches, for `match.paths`: the same code hookbox:paths links into
 * handlers (handlers/lib/paths/tool-paths.ts), so a YAML matcher and a guard reading the event
 * never disagree on which files a call names — every agent's keys, Codex patches however padded,
 * MCP servers' keys, file:// URIs, and the real targets of symbolic links (`link_targets`).
 */
export { eventPaths, toolPaths } from "../../../handlers/lib/paths/tool-paths.ts";
