// The protocols' view of the agent table (src/agents/table.ts): the dialects `hookbox emit` and
// POST /v1/agents/{agent} speak, detection, the fallback dialect and the agents' project variables.
// Each agent's protocol is src/agents/<agent>/protocol.ts (its stdin JSON → native event, a
// Decision → its answer); what they share is src/agents/shared/protocol. Pure: no runtime APIs.
import type { Decision, NativeEvent } from "../core/events/types.ts";
import { HookboxError, errorMessage } from "../core/errors.ts";
import { detector } from "./shared/protocol/detect.ts";
import { hookProcessOutput } from "./shared/protocol/output.ts";
import type { AgentOutput, AgentProtocol, FailureOptions } from "./shared/protocol/types.ts";
import type { AgentRow } from "./shared/row.ts";
import { AGENTS, type AgentName } from "./table.ts";

export { hookProcessOutput } from "./shared/protocol/output.ts";
export type { AgentName, AgentOutput, AgentProtocol, DecodeHint, FailureOptions, HookProcessOutput } from "./shared/protocol/types.ts";
export { nativeEventName } from "./shared/protocol/event-names.ts";
export { parseAgentStdin } from "./shared/protocol/stdin.ts";

/** The rows' protocols, by agent, in the table's order. */
export function protocolsOf(rows: readonly AgentRow[]): Readonly<Record<string, AgentProtocol>> {
  return Object.fromEntries(rows.flatMap((row) => (row.protocol ? [[row.name, row.protocol]] : [])));
}

/** The protocols in the order detection asks them (each row's `detection`, lowest first). */
export function detectionOrderOf(rows: readonly AgentRow[]): AgentProtocol[] {
  return rows
    .flatMap((row) => (row.protocol ? [{ protocol: row.protocol, rank: row.detection ?? Number.POSITIVE_INFINITY }] : []))
    .sort((a, b) => a.rank - b.rank)
    .map(({ protocol }) => protocol);
}

/** The fallback row's name: the one row that says it is. */
export function fallbackOf(rows: readonly AgentRow[]): string {
  const fallbacks = rows.filter((row) => row.fallback === true && row.protocol !== undefined);
  if (fallbacks.length !== 1) throw new HookboxError("internal", `the agent table needs exactly one fallback dialect, not ${fallbacks.length}`);
  return (fallbacks[0] as AgentRow).name;
}

/** Every variable any agent names its project in, most trusted first within each agent, each once, in the table's order. */
export function projectDirEnvOf(rows: readonly AgentRow[]): string[] {
  return [...new Set(rows.flatMap((row) => row.protocol?.projectDirEnv ?? []))];
}

/** The dialects `hookbox emit --agent` speaks (the table's rows with a protocol). "native" is Hookbox's own event and decision JSON. */
export const PROTOCOLS = protocolsOf(AGENTS) as Readonly<Record<AgentName, AgentProtocol>>;
export const AGENT_NAMES = Object.keys(PROTOCOLS) as readonly AgentName[];

/** Auto-detection's order (research §12; the table says why each row ranks where it does). */
export const DETECTION_ORDER: readonly AgentProtocol[] = detectionOrderOf(AGENTS);

/** The dialect of a payload, or undefined when it is in none Hookbox knows or is ambiguous (shared/protocol/detect.ts). */
export const detectAgent: (payload: unknown) => AgentName | undefined = detector(DETECTION_ORDER);

/** Claude's dialect is what most agents speak (research §0): the answer for a payload nothing recognises. */
export const FALLBACK_AGENT = fallbackOf(AGENTS) as AgentName;

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(PROTOCOLS, name);
}

/** Environment variables in which agents name the project (the hook's working directory moves with the agent's `cd`). */
export const PROJECT_DIR_ENV: readonly string[] = projectDirEnvOf(AGENTS);

/**
 * `encode`, with a failure answer should the decision not be encodable (data that is not JSON,
 * a cycle): emit and the HTTP route never crash mid-answer. The body is serialized here to find
 * out (a few microseconds for an answer of a few hundred bytes), by the one serializer emit uses.
 */
export function answerFor(protocol: AgentProtocol, decision: Decision, event: NativeEvent, options: FailureOptions): AgentOutput {
  try {
    const output = protocol.encode(decision, event);
    hookProcessOutput(output);
    return output;
  } catch (error) {
    return protocol.failure(`could not encode the decision for ${protocol.name}: ${errorMessage(error)}`, event, options);
  }
}
