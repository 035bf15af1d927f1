// src/agents owns the agent table and each agent's folder; it must not import src/capabilities, src/hooks or anything above.
// table.ts is the only list of agents: a row per agent, naming the code in its folder (src/agents/<name>/: protocol.ts,
// install.ts, import.ts, doctor.ts …). protocols.ts, installers.ts, config-dirs.ts, importers.ts and doctor.ts are the
// table's views; what the agents share is src/agents/shared. Pure: no runtime APIs.
export { PROTOCOLS } from "./protocols.ts";
export { INSTALLERS } from "./installers.ts";
export { AGENTS } from "./table.ts";
