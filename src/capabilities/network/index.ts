// src/capabilities/network owns hook.http.get and its net grants; it must not import above src/capabilities (the network comes by CapabilityIO).
import type { Capability } from "../capability.ts";
import { httpGetMethod } from "./http-get.ts";
import { netLayers, parseNetPolicy, type NetPolicy } from "./policy.ts";

/** `net`: hook.http.get. Nothing is reachable unless the operator approves it: hooks are air-gapped by default. */
export const netCapability: Capability<NetPolicy> = {
  name: "net",
  parse: (sources, _deps, errors) => parseNetPolicy(sources, errors),
  summary: (policy) => policy.declared.map((rule) => `net ${rule.raw}`),
  contribute: (policy, scope) => ({ "http.get": httpGetMethod(netLayers(policy), scope) }),
};
