import { hex, sha256 } from "../packages/tree.ts";

/**
 * Project trust (direnv's `allow`, VS Code's workspace trust): hooks that arrive with a
 * repository (`<project>/.hookbox/hooks`) run without grants until the user runs `hookbox trust`
 * there. The record, in the user's data directory, holds each trusted hook's digest (its YAML and
 * handler) and the grants it then had: a hook whose files change is untrusted again (its grants
 * withheld) until trusted anew; the others keep theirs.
 */
export const TRUST_VERSION = 1;

export interface TrustedHook {
  readonly file: string;
  /** hookDigest of the hook when it was trusted. */
  readonly digest: string;
  /** Its effective grants then (review lines granted or capped), as grant keys: what the user saw. */
  readonly grants: readonly string[];
}

export interface TrustRecord {
  readonly v: typeof TRUST_VERSION;
  readonly project: string;
  readonly trusted_at: string;
  /** SHA-256 over the trusted hooks' ids and digests, in id order: the hook set as a whole. */
  readonly set_digest: string;
  readonly hooks: Readonly<Record<string, TrustedHook>>;
}

/** What the loader needs to know of a project's trust. */
export interface ProjectTrust {
  readonly project: string;
  /** Undefined: never trusted (or the record cannot be read: then nothing is trusted). */
  readonly record: TrustRecord | undefined;
}

/** One file per project, named by a hash of its root: `<dataDir>/trust/<32 hex>.json`. */
export async function trustRecordPath(dataDir: string, project: string): Promise<string> {
  return `${dataDir}/trust/${hex(await sha256(project)).slice(0, 32)}.json`;
}

/** A hook's digest: its YAML text and its handler's source (an inline handler is in the YAML). */
export async function hookDigest(yamlText: string, handlerSource: string): Promise<string> {
  return hex(await sha256(`${yamlText}\0${handlerSource}`));
}

export async function setDigest(hooks: Readonly<Record<string, { readonly digest: string }>>): Promise<string> {
  const lines = Object.keys(hooks)
    .sort()
    .map((id) => `${id} ${hooks[id]?.digest}\n`);
  return hex(await sha256(lines.join("")));
}

/** A record read back; undefined when it is not a valid record for this project (nothing is then trusted). */
export function parseTrustRecord(text: string | undefined, project: string): TrustRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<TrustRecord>;
    const valid =
      value.v === TRUST_VERSION &&
      value.project === project &&
      typeof value.hooks === "object" &&
      value.hooks !== null &&
      Object.values(value.hooks).every((hook) => typeof hook?.digest === "string" && Array.isArray(hook.grants));
    return valid ? (value as TrustRecord) : undefined;
  } catch {
    return undefined;
  }
}

export function isTrusted(trust: ProjectTrust, id: string, digest: string): boolean {
  const hooks = trust.record?.hooks;
  return hooks !== undefined && Object.hasOwn(hooks, id) && hooks[id]?.digest === digest;
}
