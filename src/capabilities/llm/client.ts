import type { LlmApi } from "./schema.ts";
import type { CapabilityIO } from "../../platform/capability-io.ts";
import { canonicalIp } from "../network/ip.ts";
import { decodeUtf8 } from "../text.ts";
import { WIRE_FORMATS, type CompletionReply, type CompletionRequest } from "./wire.ts";

/** An endpoint as a call uses it: the operator's settings, with the key read from where they said. */
export interface ResolvedEndpoint {
  readonly name: string;
  readonly api: LlmApi;
  readonly url: string;
  readonly apiKey: string | undefined;
}

/** Why a call produced no reply: no answer in time, the server said no, it answered something unreadable, or could not be reached. */
export class LlmCallError extends Error {
  constructor(
    readonly kind: "timeout" | "http" | "malformed" | "unreachable",
    message: string,
  ) {
    super(message);
  }
}

/** Sends one request to a model endpoint. Hookbox's own speaks HTTP; `hookbox test` pins the replies. */
export interface LlmClient {
  complete(
    endpoint: ResolvedEndpoint,
    request: CompletionRequest,
    options: { readonly timeoutMs: number; readonly signal: AbortSignal },
  ): Promise<CompletionReply>;
}

/** A model's reply is text: a few MiB is far beyond any max_tokens Hookbox asks for. */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/**
 * The endpoints' HTTP APIs, one POST each, stream off. The operator named the endpoint, so any
 * address is allowed (a GPU box on the LAN, with allow_remote); redirects are not followed.
 */
export function httpLlmClient(io: CapabilityIO): LlmClient {
  return {
    async complete(endpoint, request, options) {
      const wire = WIRE_FORMATS[endpoint.api];
      const url = new URL(wire.url(endpoint.url));
      const host = url.hostname.replace(/^\[|\]$/g, "");
      const literal = canonicalIp(host);
      let address;
      try {
        const addresses = literal ? [{ address: literal, family: (literal.includes(":") ? 6 : 4) as 4 | 6 }] : await io.resolveHost(host);
        address = addresses.find((a) => a.family === 4) ?? addresses[0];
      } catch (error) {
        throw new LlmCallError("unreachable", `${endpoint.name} (${url.origin}): ${host} does not resolve (${(error as Error).message})`);
      }
      if (!address) throw new LlmCallError("unreachable", `${endpoint.name} (${url.origin}): ${host} does not resolve`);
      const response = await io
        .httpPost({
          url: url.href,
          address,
          headers: wire.headers(endpoint.apiKey),
          body: JSON.stringify(wire.body(request)),
          timeoutMs: options.timeoutMs,
          maxBodyBytes: MAX_REPLY_BYTES,
          signal: options.signal,
        })
        .catch((error: unknown) => {
          const code = (error as { code?: unknown } | null)?.code;
          if (code === "ETIMEDOUT")
            throw new LlmCallError("timeout", `${endpoint.name} (${url.origin}) gave no complete answer within ${options.timeoutMs} ms`);
          throw new LlmCallError("unreachable", `${endpoint.name} (${url.origin}): ${(error as Error).message}`);
        });
      if (response.truncated) throw new LlmCallError("malformed", `${endpoint.name}: the reply is larger than ${MAX_REPLY_BYTES} bytes`);
      const text = decodeUtf8(response.body);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (response.status < 200 || response.status >= 300) {
        const said = wire.errorText(body) ?? text.slice(0, 300);
        throw new LlmCallError("http", `${endpoint.name} (${url.href}) answered HTTP ${response.status}${said ? `: ${said}` : ""}`);
      }
      if (body === undefined) throw new LlmCallError("malformed", `${endpoint.name}: the reply is not JSON (${JSON.stringify(text.slice(0, 120))})`);
      const reply = wire.reply(body);
      if (typeof reply === "string")
        throw new LlmCallError("malformed", `${endpoint.name}: ${reply} (is api: ${endpoint.api} right for ${url.origin}?)`);
      return reply;
    },
  };
}
