// hookbox:paths — a guest library for handlers that judge file paths: the paths a tool call
// touches (under every agent's keys, in patches, through symbolic links) and case-insensitive
// globs over them. `import { eventPaths, firstMatch } from "hookbox:paths";` It runs inside the
// sandbox with the handler; tool-paths.ts is also what the host's `match.paths` uses.
export { MAX_TOOL_PATHS, PATCH_KEYS, PATH_KEYS, PATH_LIST_KEYS, eventPaths, patchPaths, toolPaths, uriPath } from "./tool-paths.ts";
export { type Labelled, type PathForms, compileGlobs, firstMatch, globSource, within } from "./globs.ts";
