import { createHash, createPublicKey, verify } from "node:crypto";
import { gunzip, gzip } from "node:zlib";
import type { PackageIO } from "./package-io.ts";

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);
/** Byte 9 of a gzip header names the operating system; zlib writes its build's, so it is fixed here. */
const GZIP_OS_OFFSET = 9;
const GZIP_OS_UNIX = 3;

export const nodePackageIO: PackageIO = {
  blake2b512: async (data) => new Uint8Array(createHash("blake2b512").update(data).digest()),
  verifyEd25519: async (publicKey, message, signature) => {
    if (publicKey.length !== 32 || signature.length !== 64) return false;
    const spki = new Uint8Array(ED25519_SPKI_PREFIX.length + 32);
    spki.set(ED25519_SPKI_PREFIX);
    spki.set(publicKey, ED25519_SPKI_PREFIX.length);
    try {
      return verify(null, message, createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" }), signature);
    } catch {
      return false;
    }
  },
  gzip: (data) =>
    new Promise((resolve, reject) =>
      gzip(data, { level: 9 }, (error, result) => {
        if (error) return reject(error);
        const bytes = new Uint8Array(result);
        bytes[GZIP_OS_OFFSET] = GZIP_OS_UNIX;
        resolve(bytes);
      }),
    ),
  gunzip: (data, maxBytes) =>
    new Promise((resolve, reject) =>
      gunzip(data, { maxOutputLength: maxBytes }, (error, result) => {
        if (!error) return resolve(new Uint8Array(result));
        if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
          return reject(new RangeError(`more than ${maxBytes} bytes once decompressed`));
        reject(error);
      }),
    ),
};
