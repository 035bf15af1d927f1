// Doctor's view of the agent table (src/agents/table.ts): what `hookbox doctor` sends through each
// installed agent's entries, and the checks only some agents need (src/agents/<agent>/doctor.ts),
// given their I/O by doctor itself.
import type { AgentDoctor } from "./shared/doctor.ts";
import type { AgentRow } from "./shared/row.ts";
import { AGENTS, type DoctorAgent, type InstallAgent } from "./table.ts";

export type { AgentCheck, AgentDoctor, DoctorIO, DoctorTarget } from "./shared/doctor.ts";

/** The rows' doctor parts, loaded, by agent, in the table's order. */
export async function doctorsOf(rows: readonly AgentRow[]): Promise<Readonly<Record<string, AgentDoctor>>> {
  const loaded = await Promise.all(rows.map(async (row) => (row.doctor ? [[row.name, (await row.doctor()).doctor] as const] : [])));
  return Object.fromEntries(loaded.flat());
}

type Unprobed = Exclude<InstallAgent, DoctorAgent>;
/** Every agent install-agent configures has a doctor part: a compile-time proof (its type names the agents without one otherwise). */
export const EVERY_INSTALLED_AGENT_IS_PROBED: [Unprobed] extends [never] ? true : Unprobed = true;

/** What doctor knows of each agent it can find installed. */
export const DOCTORS = (await doctorsOf(AGENTS)) as Readonly<Record<DoctorAgent, AgentDoctor>>;
