import type { OperatorFile } from "../config/schema.ts";
import { HookboxError } from "../../core/errors.ts";
import type { PackageIO } from "../../platform/index.ts";
import type { Acquired } from "./acquire.ts";
import type { LockSigner } from "./lock.ts";
import { parsePublicKey, verifyMinisign, type PublicKey } from "./minisign.ts";

/** The operator's trusted keys (and any more given), parsed (the schema checked them already). */
export function trustedKeys(operator: OperatorFile, extra: readonly string[] = []): PublicKey[] {
  return [...operator.packages.trusted_keys, ...extra].flatMap((text) => {
    const key = parsePublicKey(text);
    return typeof key === "string" ? [] : [key];
  });
}

/**
 * Who signed a package, or null for an unsigned one where unsigned packages are allowed. A
 * signature that is there is always checked: a bad one refuses the package whatever the policy.
 */
export async function checkSignature(
  acquired: Acquired,
  keys: readonly PublicKey[],
  required: boolean,
  io: Pick<PackageIO, "blake2b512" | "verifyEd25519">,
): Promise<LockSigner | null> {
  const bundle = acquired.bundle;
  if (bundle?.signature !== undefined) {
    const verified = await verifyMinisign(bundle.bytes, bundle.signature, keys, io);
    if (!verified.ok)
      throw new HookboxError("signature_invalid", `${bundle.where} is refused: ${verified.reason} (signature ${bundle.where}.minisig)`);
    return { key_id: verified.keyId, trusted_comment: verified.trustedComment };
  }
  if (required) {
    const why = bundle
      ? `it has no signature (${bundle.where}.minisig)`
      : "a folder or repository carries no signature; add a signed bundle (hookbox pack, then minisign -S)";
    throw new HookboxError(
      "signature_invalid",
      `${acquired.source.replace(/^[a-z]+:/, "")} is refused: packages.require_signatures is on in hookbox.yaml and ${why}`,
    );
  }
  return null;
}
