import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { DigestHost } from "./types.ts";

/**
 * SHA-256 and HMAC-SHA-256 through node:crypto (native in Node, Bun and Deno): synchronous under
 * the hood, and without crypto.subtle's start-up cost (1-6 ms at its first use in Bun).
 */
export const nodeDigestHost: DigestHost = {
  sha256Hex: async (data) => createHash("sha256").update(data).digest("hex"),
  hmacSha256Hex: async (key, data) => createHmac("sha256", key).update(data).digest("hex"),
  equalHex: async (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")),
  randomHex: async (bytes) => randomBytes(bytes).toString("hex"),
};
