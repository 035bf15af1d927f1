// src/agents owns each agent's dialect, one folder per agent; it must not import src/capabilities, src/hooks or anything above them.
// Each folder holds its hook protocol (protocol.ts: payload in, answer out, for `hookbox emit` and POST /v1/agents/{agent})
// and its installer (install.ts: where its hook settings live and Hookbox's entries in them). Pure like the tables that hold
// them (src/agents/shared/protocol, src/agents/shared/install), whose shared parts they import; no runtime APIs.
export { PROTOCOLS } from "./protocols.ts";
export { INSTALLERS } from "./installers.ts";
