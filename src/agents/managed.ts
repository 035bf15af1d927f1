// The agents' managed (system-level) settings: the managed-settings view of the agent table
// (src/agents/table.ts) — what `hookbox install --system` writes for each agent whose row has
// them, where, and what that tier guarantees there (doctor and SECURITY.md say it); and, for an
// agent with an installer but no managed settings, why. Loaded with a top-level await, as
// installers.ts is: off emit's path.
import type { ManagedSettings } from "./shared/install/managed.ts";
import type { AgentRow } from "./shared/row.ts";
import { AGENTS, type InstallAgent } from "./table.ts";

export type { ManagedOptions, ManagedPlan, ManagedSettings } from "./shared/install/managed.ts";

/** The rows' managed settings, loaded, by agent, in the table's order. */
export async function managedOf(rows: readonly AgentRow[]): Promise<Readonly<Record<string, ManagedSettings>>> {
  const loaded = await Promise.all(rows.map(async (row) => (row.managed ? [[row.name, (await row.managed()).managed] as const] : [])));
  return Object.fromEntries(loaded.flat());
}

export const MANAGED_SETTINGS = (await managedOf(AGENTS)) as Readonly<Partial<Record<InstallAgent, ManagedSettings>>>;

/** The agents without a system tier Hookbox writes, and why: their user-level install is all there is (doctor says "user" for them at best). */
export const NO_MANAGED_SETTINGS: Readonly<Partial<Record<InstallAgent, string>>> = Object.fromEntries(
  (AGENTS as readonly AgentRow[]).flatMap((row) => (row.noManaged ? [[row.name, row.noManaged]] : [])),
);
