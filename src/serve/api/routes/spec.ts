import type { Context, Hono } from "hono";
import type { z } from "zod";
import { HookboxError, type ErrorCode } from "../../../core/errors.ts";

/** One answer a route gives: JSON of `schema`, or another content type (the metrics' text). */
export interface ResponseSpec {
  readonly description: string;
  readonly schema?: z.ZodType;
  readonly contentType?: string;
}

export interface HeaderSpec {
  readonly name: string;
  readonly description: string;
  readonly schema: z.ZodType;
}

/**
 * A route as the OpenAPI document describes it and the app registers it: the one place its path,
 * inputs, answers and error codes are written (src/serve/api/openapi.ts turns every spec into the
 * document; test/server/openapi.test.ts checks the app has no route without one, and no spec
 * without a route).
 */
export interface RouteSpec {
  readonly method: "get" | "post";
  /** Hono's form: /v1/hooks/:id. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly headers?: readonly HeaderSpec[];
  readonly body?: { readonly schema: z.ZodType; readonly description: string; readonly required: boolean };
  /** By HTTP status. */
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  /** The error codes this route answers beyond those every route may (COMMON_ERRORS). */
  readonly errors: readonly ErrorCode[];
}

/** Every route may answer these: a missing token on the TCP listener, a bug. */
export const COMMON_ERRORS: readonly ErrorCode[] = ["unauthorized", "internal"];

/** Register `handler` for `spec`'s method and path. */
export function route(app: Hono, spec: RouteSpec, handler: (c: Context) => Response | Promise<Response>): void {
  app.on(spec.method.toUpperCase(), spec.path, handler);
}

/**
 * `value` read by `schema`, or a 400 (event_invalid) naming the field and what is wrong with it:
 * the same schema the OpenAPI document shows.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join(".") ?? "";
  throw new HookboxError("event_invalid", `${where}${field ? ` ${field}` : ""}: ${issue?.message ?? "invalid"}`, field ? { field } : undefined);
}
