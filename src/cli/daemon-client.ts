import type { Locations } from "../config/locations.ts";
import { HookboxError } from "../errors.ts";
import type { RuntimeHost } from "../runtime/index.ts";
import { errorOfBody } from "../wire/errors.ts";

/** One JSON request to the daemon on its unix socket; errors say how to get a daemon. */
export async function daemonRequest<T>(host: RuntimeHost, locations: Locations, method: string, path: string, body?: unknown, timeoutMs = 5000): Promise<T> {
  let reply;
  try {
    reply = await host.net.request({ unix: locations.socketPath }, { method, path, timeoutMs, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch (error) {
    throw new HookboxError("daemon_unavailable", `no Hookbox daemon answers on ${locations.socketPath} (${(error as Error).message}); start one with \`hookbox serve\``);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    throw new HookboxError("internal", `the daemon answered ${reply.status} with a body that is not JSON`);
  }
  const error = reply.status >= 400 ? errorOfBody(parsed) : undefined;
  if (error) throw new HookboxError(error.code, error.message, error.details);
  if (reply.status >= 400) throw new HookboxError("internal", `the daemon answered ${reply.status} without an error body this build knows`);
  return parsed as T;
}
