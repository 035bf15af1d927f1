// src/builtin owns the standard hook library as it ships inside the binary (generated from handlers/).
import type { EmbeddedHook } from "../registry/sources.ts";
import { STANDARD_HOOKS } from "./catalog.generated.ts";

export function standardHooks(): ReadonlyMap<string, EmbeddedHook> {
  return new Map(Object.entries(STANDARD_HOOKS));
}
