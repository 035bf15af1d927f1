import { handlerDeclarations } from "../../hooks/builtin/index.ts";
import { TOOL_EVENTS } from "../../core/events/names.ts";
import { LIMITS, type LimitsTable } from "../../core/limits.ts";

/** The limits a new hook starts with, as YAML flow: the rows of the limits table that set `scaffold`. */
export function scaffoldLimits(table: LimitsTable = LIMITS): string {
  const written = table.flatMap((d) => (d.scaffold === undefined ? [] : [`${d.yaml}: ${d.scaffold}`]));
  return `{ ${written.join(", ")} }`;
}

/** The files of a new hook, chosen so its fixtures pass at once (`hookbox new`). */
export function scaffold(id: string, event: string): Record<string, string> {
  const tool = TOOL_EVENTS.has(event);
  const hookYaml = `# Editor completion: run \`hookbox schema > hook.schema.json\` and add the line
# "# yaml-language-server: $schema=./hook.schema.json" at the top of this file.
id: ${id}
events: [${event}]
summary: ${tool ? "Refuse tool calls that touch a forbidden path" : "Add a line of context for the model"}
${tool ? `match:\n  tool: "Write|Edit|MultiEdit"\n` : ""}handler: ./handler.ts
${tool ? "" : "permissions:\n  inject_context: true      # needed to add context for the model\n"}limits: ${scaffoldLimits()}
on_error: continue           # deny: fail closed when the handler throws or breaks a limit
config:
  ${tool ? 'forbidden: ["secrets/"]' : 'note: "Remember to run the tests before you stop."'}
`;
  const handler = tool
    ? `// ${id}: refuse writes under the paths in config.forbidden.
// The types (HookEvent, Hook, HookResult) come from hookbox.d.ts (\`hookbox types\`); no import is needed.

export default function handler(event: HookEvent, hook: Hook): HookResult {
  const forbidden = (hook.config.forbidden as string[] | undefined) ?? [];
  const path = String(event.tool_input?.file_path ?? "");
  const hit = forbidden.find((prefix) => path.includes(prefix));
  if (hit) return { action: "deny", reason: \`\${path} is under \${hit}, which ${id} protects\` };
  return { action: "continue" };
}
`
    : `// ${id}: add a line of context for the model on ${event}.
// The types (HookEvent, Hook, HookResult) come from hookbox.d.ts (\`hookbox types\`); no import is needed.

export default function handler(event: HookEvent, hook: Hook): HookResult {
  const note = String(hook.config.note ?? "");
  return note ? { action: "inject_context", context_injection: note } : { action: "continue" };
}
`;
  const fixture = tool
    ? `- name: denies a write under a forbidden path
  event: { event_type: ${event}, tool_name: Write, tool_input: { file_path: secrets/api.key, content: "k" } }
  expect: { decision: deny, status: denied, reason_contains: "secrets/" }

- name: allows a write elsewhere (near miss)
  event: { event_type: ${event}, tool_name: Write, tool_input: { file_path: src/secrets-helper.ts, content: "" } }
  expect: { decision: allow, status: completed }
`
    : `- name: adds the note as context
  event: { event_type: ${event}${event === "UserPromptSubmit" ? ", prompt: hello" : ""} }
  expect: { decision: allow, status: completed, context_contains: "Remember to run the tests" }
`;
  const readme = `# ${id}

${tool ? "Refuses writes under the paths listed in `config.forbidden`." : "Adds `config.note` as context for the model."}

Permissions: ${tool ? "none (it only looks at the event)." : "`inject_context` — to add the note for the model."}

Try it: \`hookbox test .\` (runs fixtures/), \`hookbox validate --hooks ..\`.
`;
  return { "hook.yaml": hookYaml, "handler.ts": handler, "fixtures/basic.yaml": fixture, "README.md": readme, "hookbox.d.ts": handlerDeclarations() };
}
