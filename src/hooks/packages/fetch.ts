import { canonicalIp } from "../../capabilities/network/ip.ts";
import { HookboxError } from "../../core/errors.ts";
import type { CapabilityIO } from "../../platform/index.ts";

export interface Fetched {
  /** 200, or 304 when `etag` still matches (then `body` is empty). */
  readonly status: 200 | 304 | 404;
  readonly body: Uint8Array;
  readonly etag: string | undefined;
}

const MAX_REDIRECTS = 5;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * GET for packages: https only (http for a loopback address: a local mirror), redirects followed
 * under the same rule, the body capped, and a conditional request when an ETag is known. The
 * operator named the URL, so private addresses are allowed; what arrives is trusted only once its
 * signature verifies.
 */
export async function fetchUrl(
  io: CapabilityIO,
  url: string,
  options: { readonly maxBytes: number; readonly etag?: string; readonly timeoutMs?: number },
): Promise<Fetched> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const parsed = new URL(current);
    const host = parsed.hostname.replace(/^\[|\]$/g, "");
    if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && LOOPBACK.has(host)))
      throw new HookboxError("usage", `${current}: packages are fetched over https only (http only from a loopback address)`);
    if (parsed.username || parsed.password) throw new HookboxError("usage", `${current}: no credentials in package URLs`);
    const literal = canonicalIp(host);
    const addresses = literal ? [{ address: literal, family: (literal.includes(":") ? 6 : 4) as 4 | 6 }] : await io.resolveHost(host);
    const address = addresses.find((a) => a.family === 4) ?? addresses[0];
    if (!address) throw new HookboxError("not_found", `${current}: ${host} does not resolve`);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new HookboxError("not_found", `${url}: no answer in time`);
    const response = await io.httpGet({
      url: parsed.href,
      address,
      headers: { "user-agent": "hookbox", accept: "*/*", ...(options.etag ? { "if-none-match": options.etag } : {}) },
      timeoutMs: remaining,
      maxBodyBytes: options.maxBytes,
      signal: new AbortController().signal,
    });
    if ([301, 302, 303, 307, 308].includes(response.status) && response.headers.location) {
      current = new URL(response.headers.location, parsed).href;
      continue;
    }
    if (response.truncated) throw new HookboxError("request_too_large", `${current}: more than ${options.maxBytes} bytes`);
    if (response.status === 304 || response.status === 404) return { status: response.status, body: new Uint8Array(0), etag: response.headers.etag };
    if (response.status !== 200) throw new HookboxError("not_found", `${current}: HTTP ${response.status}`);
    return { status: 200, body: response.body, etag: response.headers.etag };
  }
  throw new HookboxError("not_found", `${url}: more than ${MAX_REDIRECTS} redirects`);
}
