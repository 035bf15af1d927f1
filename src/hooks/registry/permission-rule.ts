import type { NativeEvent } from "../../core/events/types.ts";
import { PROTOCOLS } from "../../agents/protocols.ts";
import { CANONICAL_TOOL_NAMES, type ToolNameMap } from "../../agents/shared/protocol/tool-names.ts";
import { compileCommandRule } from "./rule-command.ts";
import { compilePathRule } from "./rule-paths.ts";

/**
 * `match.if`: permission rules in Claude Code's syntax — `Bash(git commit:*)`, `Edit(src/**)`,
 * `Read(~/.ssh/**)`, `WebFetch(domain:example.com)`, `mcp__github__*`, `Agent(Explore)` — as
 * the hook's `if` field takes them (Claude Code 2.1.85+). A list selects the event when any rule
 * does. Tool names may be written in any agent's dialect (`run_shell_command(git push:*)`,
 * `Shell(rm:*)`): they map to Claude's through the agents' tables, as the events' tool names do,
 * so one rule works for every agent. docs/matching.md has the truth table.
 */

/** Claude Code's rules cover a family: Edit rules every built-in tool that edits, Read rules every one that reads. */
const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  Edit: ["Edit", "Write", "MultiEdit", "NotebookEdit"],
  Write: ["Edit", "Write", "MultiEdit", "NotebookEdit"],
  Read: ["Read", "Grep", "Glob", "LS", "NotebookRead"],
  Agent: ["Agent", "Task"],
  Task: ["Agent", "Task"],
};

/** Every agent's tool-name table, in the agent table's order. */
const DIALECTS: readonly ToolNameMap[] = Object.values(PROTOCOLS).flatMap((protocol) => (protocol.tools ? [protocol.tools] : []));
const RULE = /^([A-Za-z_][A-Za-z0-9_.*-]*)(?:\((.*)\))?$/s;

export interface PermissionRule {
  readonly source: string;
  matches(event: NativeEvent): boolean;
}

export type RuleBuild = { readonly ok: true; readonly rule: PermissionRule } | { readonly ok: false; readonly message: string };

/** A tool name as Claude Code spells it: its own, or another agent's mapped through that agent's table. */
export function canonicalToolName(name: string): string {
  if (CANONICAL_TOOL_NAMES.has(name)) return name;
  for (const map of DIALECTS) if (Object.hasOwn(map, name)) return map[name] as string;
  return name;
}

export function compilePermissionRule(source: string): RuleBuild {
  const parsed = RULE.exec(source.trim());
  if (!parsed) {
    return {
      ok: false,
      message: `not a permission rule: ${JSON.stringify(source)} — write Tool or Tool(specifier), e.g. "Bash(git commit:*)", "Edit(src/**)", "mcp__github__*"`,
    };
  }
  const written = parsed[1] as string;
  const raw = parsed[2]?.trim();
  const specifier = raw === undefined || raw === "" || raw === "*" ? undefined : raw;
  if (written.startsWith("mcp__")) {
    if (specifier !== undefined)
      return { ok: false, message: `${source}: an MCP rule names a server or tools (mcp__server, mcp__server__*), without (…)` };
    return { ok: true, rule: mcpRule(source, written) };
  }
  if (written.includes("*")) return { ok: false, message: `${source}: only MCP rules may use * in the tool name (mcp__server__*)` };
  const tool = canonicalToolName(written);
  const family = new Set(FAMILIES[tool] ?? [tool]);
  const isTool = (event: NativeEvent): boolean =>
    (typeof event.tool_name === "string" && family.has(event.tool_name)) || event.agent_tool_name === written;
  if (specifier === undefined) return { ok: true, rule: { source, matches: isTool } };
  const input = (event: NativeEvent): Record<string, unknown> => event.tool_input ?? {};
  switch (tool) {
    case "Bash": {
      const command = compileCommandRule(specifier);
      const cwd = (event: NativeEvent) => (typeof event.agent_cwd === "string" ? event.agent_cwd : event.cwd);
      return { ok: true, rule: { source, matches: (event) => isTool(event) && command.test(input(event).command, cwd(event)) } };
    }
    case "Read":
    case "Edit":
    case "Write": {
      const paths = compilePathRule(specifier, tool !== "Read");
      if (!paths.ok) return { ok: false, message: `${source}: ${paths.message}` };
      return { ok: true, rule: { source, matches: (event) => isTool(event) && paths.rule.test(event) } };
    }
    case "WebFetch": {
      const domain = /^domain:(.+)$/.exec(specifier)?.[1]?.trim().toLowerCase();
      if (!domain) return { ok: false, message: `${source}: WebFetch takes domain:HOST, e.g. WebFetch(domain:example.com)` };
      return { ok: true, rule: { source, matches: (event) => isTool(event) && hostMatches(input(event).url, domain) } };
    }
    case "Agent": {
      return {
        ok: true,
        rule: {
          source,
          matches: (event) => {
            const type = input(event).subagent_type;
            return isTool(event) && (typeof type !== "string" || type === specifier);
          },
        },
      };
    }
    default:
      return {
        ok: false,
        message: `${source}: a specifier is read for Bash, Read, Edit (Write, MultiEdit, NotebookEdit), WebFetch and Agent; for ${tool}, give the tool name alone and narrow with match.fields`,
      };
  }
}

/** mcp__server (every tool of the server), mcp__server__tool, and * as any text (mcp__github__*, mcp__*__write*). */
function mcpRule(source: string, pattern: string): PermissionRule {
  const escaped = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const whole = pattern.slice(5).includes("__") || pattern.includes("*") ? escaped : `${escaped}(?:__.*)?`;
  const regex = new RegExp(`^${whole}$`, "s");
  return {
    source,
    matches: (event) => {
      const name = event.tool_name;
      if (typeof name !== "string") return false;
      if (regex.test(name)) return true;
      // Cursor's beforeMCPExecution names the tool but not its server: any MCP rule may be about it.
      return typeof event.agent_event_name === "string" && /MCPExecution$/.test(event.agent_event_name) && !name.startsWith("mcp__");
    },
  };
}

/** The URL's host is the domain or below it (api.example.com for example.com); a URL that cannot be read is selected. */
function hostMatches(url: unknown, domain: string): boolean {
  if (typeof url !== "string") return true;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return true;
  }
  if (host === "") return true;
  const bare = domain.replace(/^\*\./, "").replace(/\.$/, "");
  return host === bare || host.endsWith(`.${bare}`);
}
