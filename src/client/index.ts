// src/client owns hookbox/client, a typed client of a Hookbox daemon; it must not import beyond src/core and src/platform.
// For any program on the machine (orchestrators, scripts), on Node, Bun and Deno. It speaks the wire types of src/core/wire
// and takes its transport from src/platform/client.ts, its peer check from src/platform/peer-trust.ts.
import { clientRuntime } from "../platform/client.ts";
import { HookboxClient } from "./client.ts";
import { resolveOptions, type ClientOptions } from "./options.ts";
import { guardedTransport } from "./verify.ts";

export { HookboxClient, type EvaluateEvent, type EvaluateOptions } from "./client.ts";
export { HookboxClientError, type ClientErrorCode } from "./errors.ts";
export type { ClientOptions, ExpectedDaemon } from "./options.ts";
export type { ClientTransport } from "../platform/client.ts";
export type {
  ApprovalResolvedV1,
  DecisionV1,
  ErrorBodyV1,
  FiredRunV1,
  HealthV1,
  HooksV1,
  NativeEventV1,
  PendingApprovalV1,
  RunQueryV1,
  RunsV1,
} from "../core/wire/index.ts";

/**
 * A client of the daemon on `options.socket` (default: where `hookbox emit` looks) or on its
 * loopback TCP listener (`url` + `token`). Options are checked here: a bad combination throws a
 * TypeError before any request. On a unix socket, who is there is checked before each answer is
 * used (`verifyPeer`, `expect`; src/client/verify.ts).
 */
export async function createClient(options: ClientOptions = {}): Promise<HookboxClient> {
  const runtime = await clientRuntime();
  const resolved = resolveOptions(options, runtime);
  return new HookboxClient(guardedTransport(options.transport ?? runtime.transport, resolved, runtime.peer, runtime.env), resolved);
}
