import type { EmbeddedHook } from "../registry/sources.ts";

export interface StandardCatalog {
  readonly STANDARD_HOOKS: Readonly<Record<string, EmbeddedHook>>;
  readonly GUEST_MODULES: Readonly<Record<string, { readonly source: string; readonly dts: string }>>;
}

/**
 * SHA-256 (hex) of the standard hooks and guest library modules as embedded: build.ts stamps it,
 * a run from sources computes it, and the two agree for the same handlers/ directory.
 */
export async function standardHooksDigest(catalog: StandardCatalog): Promise<string> {
  const text = JSON.stringify({ hooks: catalog.STANDARD_HOOKS, modules: catalog.GUEST_MODULES });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The digest of the catalog in these sources (a binary has build.ts's stamp instead): loaded only when asked. */
export async function catalogDigest(): Promise<string> {
  return standardHooksDigest(await import("./catalog.generated.ts"));
}
