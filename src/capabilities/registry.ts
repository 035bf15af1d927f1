import type { Capability } from "./capability.ts";
import { contextCapability } from "./context/index.ts";
import { envCapability } from "./env/index.ts";
import { llmCapability } from "./llm/index.ts";
import { modifyCapability } from "./modify/index.ts";
import { netCapability } from "./network/index.ts";
import { notifyCapability } from "./notify/index.ts";
import { readCapability } from "./read/index.ts";
import { runCapability } from "./run/index.ts";
import { storeCapability } from "./store/index.ts";

/** Every capability, by permission kind. Adding one = one module and one line here. */
export const CAPABILITIES = {
  read: readCapability,
  run: runCapability,
  env: envCapability,
  net: netCapability,
  inject_context: contextCapability,
  store: storeCapability,
  modify: modifyCapability,
  notify: notifyCapability,
  llm: llmCapability,
} as const;

type PolicyOf<C> = C extends Capability<infer P> ? P : never;

/** A hook's grants, parsed: one policy per capability. */
export type Policies = { readonly [K in keyof typeof CAPABILITIES]: PolicyOf<(typeof CAPABILITIES)[K]> };

export type CapabilityName = keyof typeof CAPABILITIES;

export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as CapabilityName[];
