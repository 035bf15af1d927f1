import type { PackageIO } from "../../platform/index.ts";

/**
 * minisign signatures (https://jedisct1.github.io/minisign/), verified offline:
 * - a public key is base64 of "Ed" + key id (8 bytes) + Ed25519 key (32 bytes), on the second
 *   line of a `.pub` file (or alone, as `minisign -P` takes it);
 * - a `.minisig` is four lines: an untrusted comment; base64 of the algorithm ("Ed": the file
 *   itself is signed, "ED": its BLAKE2b-512 hash is) + key id + signature (64 bytes); the
 *   trusted comment; base64 of the signature of (signature ‖ trusted comment).
 * Both signatures must verify with the key whose id the signature names: a tampered file, a
 * tampered trusted comment, or a key that is not trusted is refused, each with its own message.
 */

export interface PublicKey {
  /** As minisign prints it: upper-case hex of the id's bytes read little-endian, without leading zeros. */
  readonly keyId: string;
  readonly key: Uint8Array;
  /** The base64 line, as written in trusted_keys. */
  readonly text: string;
}

export interface Signature {
  readonly algorithm: "Ed" | "ED";
  readonly keyId: string;
  readonly signature: Uint8Array;
  readonly trustedComment: string;
  readonly globalSignature: Uint8Array;
}

const MAX_SIGNATURE_CHARS = 4096;

function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function keyIdOf(bytes: Uint8Array): string {
  const digits = [...bytes]
    .reverse()
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
  return digits.replace(/^0+(?=.)/, "");
}

/** A public key from its base64 line or a whole `.pub` file; a message when it is not one. */
export function parsePublicKey(text: string): PublicKey | string {
  const lines = text
    .trim()
    .split(/\r?\n/)
    .map((line) => line.trim());
  const line = lines.length === 2 && lines[0]?.startsWith("untrusted comment:") ? lines[1] : lines.length === 1 ? lines[0] : undefined;
  const bytes = line === undefined ? undefined : decodeBase64(line);
  if (!bytes || bytes.length !== 42) return "not a minisign public key (expected the base64 line of a .pub file, e.g. RWQ…)";
  if (bytes[0] !== 0x45 || bytes[1] !== 0x64) return "not an Ed25519 minisign public key";
  return { keyId: keyIdOf(bytes.subarray(2, 10)), key: bytes.slice(10), text: line as string };
}

export function parseSignature(text: string): Signature | string {
  if (text.length > MAX_SIGNATURE_CHARS) return "not a minisign signature (too long)";
  const lines = text.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  if (lines.length !== 4 || !lines[0]?.startsWith("untrusted comment:") || !lines[2]?.startsWith("trusted comment: "))
    return "not a minisign signature (expected 4 lines: untrusted comment, signature, trusted comment, global signature)";
  const signature = decodeBase64((lines[1] as string).trim());
  const global = decodeBase64((lines[3] as string).trim());
  if (!signature || signature.length !== 74 || !global || global.length !== 64) return "not a minisign signature (malformed signature lines)";
  const algorithm = String.fromCharCode(signature[0] as number, signature[1] as number);
  if (algorithm !== "Ed" && algorithm !== "ED") return `unknown minisign signature algorithm ${JSON.stringify(algorithm)}`;
  return {
    algorithm,
    keyId: keyIdOf(signature.subarray(2, 10)),
    signature: signature.slice(10),
    trustedComment: (lines[2] as string).slice("trusted comment: ".length),
    globalSignature: global,
  };
}

export type Verified =
  { readonly ok: true; readonly keyId: string; readonly trustedComment: string } | { readonly ok: false; readonly reason: string };

/** Verify `data` against a `.minisig` text with one of `keys`. */
export async function verifyMinisign(
  data: Uint8Array,
  signatureText: string,
  keys: readonly PublicKey[],
  io: Pick<PackageIO, "blake2b512" | "verifyEd25519">,
): Promise<Verified> {
  const signature = parseSignature(signatureText);
  if (typeof signature === "string") return { ok: false, reason: signature };
  const key = keys.find((candidate) => candidate.keyId === signature.keyId);
  if (!key) {
    const trusted =
      keys.length === 0 ? "no key is trusted (packages.trusted_keys in hookbox.yaml)" : `the trusted keys are ${keys.map((k) => k.keyId).join(", ")}`;
    return { ok: false, reason: `signed by key ${signature.keyId}, which is not trusted: ${trusted}` };
  }
  const message = signature.algorithm === "ED" ? await io.blake2b512(data) : data;
  if (!(await io.verifyEd25519(key.key, message, signature.signature))) {
    return { ok: false, reason: `the signature by key ${key.keyId} does not match the file: it was changed after it was signed` };
  }
  const comment = new TextEncoder().encode(signature.trustedComment);
  const signed = new Uint8Array(signature.signature.length + comment.length);
  signed.set(signature.signature);
  signed.set(comment, signature.signature.length);
  if (!(await io.verifyEd25519(key.key, signed, signature.globalSignature))) {
    return { ok: false, reason: `the trusted comment of the signature by key ${key.keyId} was changed after it was signed` };
  }
  return { ok: true, keyId: key.keyId, trustedComment: signature.trustedComment };
}
