import type { ResolvedAddress } from "../../platform/capability-io.ts";
import { arity, intOption, optionsArg, stringArg } from "../args.ts";
import type { HostMethod, InvocationScope } from "../capability.ts";
import { deniedByVerdict, refused, renderCall, yamlList } from "../denied.ts";
import { failed, invalidArgument, toGuestError } from "../errors.ts";
import { decide, type KindLayers } from "../grants/layers.ts";
import { decodeUtf8 } from "../text.ts";
import { canonicalIp, specialAddress } from "./ip.ts";
import { hostKey, type NetAccess } from "./policy.ts";

export const HTTP_MAX_BODY_BYTES = 1024 * 1024;
export const HTTP_DEFAULT_TIMEOUT_MS = 10_000;
export const HTTP_MAX_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const REQUEST_HEADERS = { "user-agent": "hookbox", accept: "*/*", "accept-encoding": "identity", connection: "close" };

/**
 * hook.http.get(url, {timeoutMs}) → {status, headers, body}. Only hosts granted in `net`; the
 * name is resolved here and every address checked (special-purpose addresses need a grant of
 * that address), then the connection goes to the checked address — a second DNS answer cannot
 * swap it (DNS rebinding). Redirects are followed on the same host only, each hop re-checked.
 * The body is capped at 1 MiB (a larger one is an error, not a silent cut) and the whole call,
 * redirects included, at timeoutMs (default 10 s, at most 30 s).
 */
export function httpGetMethod(layers: KindLayers<NetAccess>, scope: InvocationScope): HostMethod {
  return async (args, call) => {
    arity("http.get", args, 2);
    const text = stringArg("http.get", "url", args[0], 8192);
    call.target = text;
    const options = optionsArg("http.get", args[1], ["timeoutMs"]);
    const timeoutMs = intOption("http.get", options, "timeoutMs", { min: 1, max: HTTP_MAX_TIMEOUT_MS, fallback: HTTP_DEFAULT_TIMEOUT_MS });
    const deadline = performance.now() + timeoutMs;
    const shown = renderCall("http.get", [text]);
    let url = parseUrl(text);
    for (let hop = 0; ; hop++) {
      const address = await authorize(layers, scope, shown, url, deadline);
      const remaining = Math.max(1, Math.round(deadline - performance.now()));
      const response = await scope.deps.io
        .httpGet({ url: url.href, address, headers: REQUEST_HEADERS, timeoutMs: remaining, maxBodyBytes: HTTP_MAX_BODY_BYTES, signal: call.signal })
        .catch((error: unknown) => {
          const code = (error as { code?: unknown } | null)?.code;
          if (code === "ETIMEDOUT") throw failed("timeout", `${shown}: no complete answer within ${timeoutMs} ms`);
          throw failed("http_failed", toGuestError(error, shown).message);
        });
      if (response.truncated) throw failed("too_large", `${shown}: the response body is larger than ${HTTP_MAX_BODY_BYTES} bytes`);
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location !== undefined) {
        if (hop >= MAX_REDIRECTS) throw failed("http_failed", `${shown}: more than ${MAX_REDIRECTS} redirects`);
        const next = parseUrl(location, url);
        if (hostKey(next.hostname) !== hostKey(url.hostname)) {
          throw refused(
            scope.hookId,
            shown,
            `the server redirects to another host (${next.host}); hooks never follow a redirect to another host — request that URL directly if it is granted`,
          );
        }
        url = next;
        continue;
      }
      return { status: response.status, headers: response.headers, body: decodeUtf8(response.body) };
    }
  };
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw invalidArgument(`hook.http.get: ${JSON.stringify(text.slice(0, 200))} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidArgument(`hook.http.get: only http: and https: URLs, got ${url.protocol}`);
  return url;
}

function grantText(host: string, port: number, url: URL): string {
  const defaultPort = url.protocol === "https:" ? 443 : 80;
  if (port === defaultPort) return host;
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

async function authorize(layers: KindLayers<NetAccess>, scope: InvocationScope, shown: string, url: URL, deadline: number): Promise<ResolvedAddress> {
  if (url.username || url.password) throw refused(scope.hookId, shown, "URLs carrying credentials are refused");
  const host = hostKey(url.hostname);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const spelled = shown.includes(host) ? shown : `${shown} (host ${host})`;
  const verdict = decide(layers, { host, port });
  if (!verdict.ok) throw deniedByVerdict(scope.hookId, spelled, verdict, { kind: "net", yaml: yamlList([grantText(host, port, url)]) });
  const literal = canonicalIp(host);
  const addresses = literal ? [{ address: literal, family: literal.includes(":") ? 6 : 4 } as const] : await resolve(scope, shown, host, deadline);
  for (const { address } of addresses) {
    const ip = canonicalIp(address) ?? address;
    if (ip === literal) continue; // the address itself was just granted
    const special = specialAddress(ip);
    const denyRule = layers.deny.match({ host: ip, port });
    if (special === undefined && denyRule === undefined) continue;
    const check = decide(layers, { host: ip, port });
    if (!check.ok) {
      const why =
        special === undefined
          ? `${host} resolves to ${ip}`
          : `${host} resolves to ${ip}, ${special}, which a hook reaches only when granted by address`;
      throw deniedByVerdict(scope.hookId, `${spelled} (${why})`, check, { kind: "net", yaml: yamlList([grantText(ip, port, url)]) });
    }
  }
  const first = addresses[0];
  if (!first) throw failed("http_failed", `${shown}: ${host} has no address`);
  return { address: canonicalIp(first.address) ?? first.address, family: first.family };
}

async function resolve(scope: InvocationScope, shown: string, host: string, deadline: number): Promise<readonly ResolvedAddress[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(failed("timeout", `${shown}: resolving ${host} took too long`)), Math.max(1, deadline - performance.now()));
  });
  try {
    return await Promise.race([scope.deps.io.resolveHost(host), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
