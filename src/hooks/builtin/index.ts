// src/hooks/builtin owns the standard hook library as it ships inside the binary (generated from handlers/); it must not import src/decide or above.
import { HOOK_API_DTS } from "../../capabilities/index.ts";
import type { EmbeddedHook } from "../registry/sources.ts";
import { GUEST_MODULES, STANDARD_HOOKS } from "./catalog.generated.ts";

export function standardHooks(): ReadonlyMap<string, EmbeddedHook> {
  return new Map(Object.entries(STANDARD_HOOKS));
}

/** The guest library modules handlers may import ("hookbox:shell" …), as TypeScript source. */
export const guestModuleSources: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(GUEST_MODULES).map(([specifier, m]) => [specifier, m.source]),
);

/** What `hookbox types` prints: the handler API and a `declare module "hookbox:…"` per guest module. */
export function handlerDeclarations(): string {
  return `${HOOK_API_DTS}\n${guestModuleDeclarations()}`;
}

function guestModuleDeclarations(): string {
  return Object.entries(GUEST_MODULES)
    .map(
      ([specifier, m]) =>
        `declare module ${JSON.stringify(specifier)} {\n${m.dts.replace(/^export declare /gm, "export ").replace(/^(?=.)/gm, "  ")}}\n`,
    )
    .join("\n");
}
