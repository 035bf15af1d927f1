// Small hooks the daemon suites load from a --hooks directory, written once.

/** Denies a Write or Edit of any .env, naming the file: `writing /proj/.env is not allowed`. */
export const ENV_GUARD_YAML = `id: guard
events: [PreToolUse]
priority: 10
match: { tool: "Write|Edit", paths: ["**/.env"] }
handler: { code: "export default (e) => ({ action: 'deny', reason: 'writing ' + e.tool_input.file_path + ' is not allowed' })" }
`;
