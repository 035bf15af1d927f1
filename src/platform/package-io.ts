/**
 * The primitives packages need that web standards do not give every runtime: BLAKE2b-512 (the
 * prehash of minisign's `ED` signatures), Ed25519 verification, and gzip with a fixed header (a
 * bundle packed twice from the same tree is the same bytes). SHA-256 is `crypto.subtle`, a web
 * standard available everywhere. Implemented once for Node, Bun and Deno (node-package-io.ts).
 */
export interface PackageIO {
  blake2b512(data: Uint8Array): Promise<Uint8Array>;
  /** Ed25519 over `message` with a raw 32-byte public key and a 64-byte signature; false on any mismatch. */
  verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean>;
  /** gzip at level 9 with a header that names no file and no time, OS byte 3 (Unix): the same input gives the same bytes. */
  gzip(data: Uint8Array): Promise<Uint8Array>;
  /** gunzip; more than `maxBytes` of output rejects with a RangeError (a gzip bomb is refused, never inflated). */
  gunzip(data: Uint8Array, maxBytes: number): Promise<Uint8Array>;
}
