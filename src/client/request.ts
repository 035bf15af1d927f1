import type { z } from "zod";
import { HttpProtocolError, HttpTimeoutError } from "../platform/http1.ts";
import type { ClientTransport } from "../platform/client.ts";
import type { HttpReply } from "../platform/http-types.ts";
import { errorOfBody } from "../core/wire/errors.ts";
import { HookboxClientError } from "./errors.ts";
import type { ResolvedOptions } from "./options.ts";

export interface Call<S extends z.ZodType> {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** What a 2xx answer must be. */
  readonly answer: S;
  /** Whether the call may be sent again when the connection broke after it went out (a read, an evaluation; not a verdict). */
  readonly repeatable: boolean;
  readonly timeoutMs?: number;
  /** Statuses other than 2xx whose body is an answer, not an error (GET /healthz's 503). */
  readonly answerStatuses?: readonly number[];
}

/** Nobody listens: the socket is missing, or refuses (a daemon restarting). The request never reached a daemon. */
function notListening(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    ["ENOENT", "ECONNREFUSED", "ENOTSOCK"].includes(String(code)) ||
    /ENOENT|ECONNREFUSED|no such file|connection refused/i.test((error as Error).message ?? "")
  );
}

/** The connection broke before a whole answer: the daemon went away while it had the request. */
function brokeOff(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code);
  return error instanceof HttpProtocolError || code === "ECONNRESET" || code === "EPIPE";
}

/** One call, with the one retry a restarting daemon gets, its answer read by the call's schema. */
export async function send<S extends z.ZodType>(transport: ClientTransport, options: ResolvedOptions, call: Call<S>): Promise<z.output<S>> {
  const timeoutMs = call.timeoutMs ?? options.timeoutMs;
  const init = {
    method: call.method,
    path: call.path,
    timeoutMs,
    headers: { ...options.headers, ...call.headers, "x-hookbox-timeout-ms": String(timeoutMs) },
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
  };
  let reply: HttpReply;
  try {
    reply = await attempt(transport, options, init, call.repeatable);
  } catch (error) {
    if (error instanceof HookboxClientError) throw error;
    throw transportError(error, options);
  }
  return read(reply, call, options);
}

async function attempt(
  transport: ClientTransport,
  options: ResolvedOptions,
  init: Parameters<ClientTransport>[1],
  repeatable: boolean,
): Promise<HttpReply> {
  try {
    const reply = await transport(options.target, init);
    // A daemon that is stopping refuses new work with sandbox_closed: the next one will take it.
    if (reply.status !== 503 || options.retryDelayMs === false || errorOfBody(parseJson(reply.body))?.code !== "sandbox_closed") return reply;
  } catch (error) {
    const retry = options.retryDelayMs !== false && (notListening(error) || (repeatable && brokeOff(error)));
    if (!retry) throw error;
  }
  await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs as number));
  return transport(options.target, init);
}

function transportError(error: unknown, options: ResolvedOptions): HookboxClientError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof HttpTimeoutError)
    return new HookboxClientError("timeout", `the Hookbox daemon on ${options.describe} gave no answer in time (${message})`);
  // Deno without --allow-net for the socket (NotCapable; PermissionDenied before Deno 2).
  if (error instanceof Error && (error.name === "NotCapable" || error.name === "PermissionDenied"))
    return new HookboxClientError("permission_denied", `this program may not connect to ${options.describe} (${message})`);
  if (notListening(error))
    return new HookboxClientError(
      "daemon_unavailable",
      `no Hookbox daemon answers on ${options.describe} (${message}); start one with \`hookbox serve\``,
    );
  if (brokeOff(error))
    return new HookboxClientError(
      "daemon_unavailable",
      `the Hookbox daemon on ${options.describe} closed the connection before answering (${message})`,
    );
  return new HookboxClientError("protocol", `talking to ${options.describe} failed: ${message}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function read<S extends z.ZodType>(reply: HttpReply, call: Call<S>, options: ResolvedOptions): z.output<S> {
  const body = parseJson(reply.body);
  const ok = (reply.status >= 200 && reply.status < 300) || call.answerStatuses?.includes(reply.status) === true;
  if (!ok) {
    const error = errorOfBody(body);
    if (error) throw new HookboxClientError(error.code, error.message, reply.status, error.details);
    throw new HookboxClientError(
      "protocol",
      `${options.describe} answered ${call.method} ${call.path} with ${reply.status} and no error body Hookbox knows: is it a Hookbox daemon?`,
      reply.status,
    );
  }
  const parsed = call.answer.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HookboxClientError(
      "protocol",
      `${options.describe} answered ${call.method} ${call.path} with something that is not the API's (${issue?.path.join(".") || "the body"}: ${issue?.message}): a daemon of another version?`,
      reply.status,
    );
  }
  return parsed.data;
}
