import { z } from "zod";
import type { ErrorCode } from "../../core/errors.ts";
import { errorBodySchema } from "../../core/wire/error-body.ts";
import { statusOf } from "./error-response.ts";
import { CONSOLE_URL_ROUTE } from "./routes/console.ts";
import { DAEMON_ROUTE_SPECS } from "./routes/daemon.ts";
import { EVENT_ROUTES } from "./routes/events.ts";
import { HOOK_ROUTES } from "./routes/hooks.ts";
import { OPERATION_ROUTES } from "./routes/operations.ts";
import { COMMON_ERRORS, type RouteSpec } from "./routes/spec.ts";

/** GET /v1/openapi.json: this document. */
export const OPENAPI_ROUTE: RouteSpec = {
  method: "get",
  path: "/v1/openapi.json",
  operationId: "openapi",
  tag: "operations",
  summary: "This API, described (OpenAPI 3.1)",
  responses: { 200: { description: "The OpenAPI document.", schema: z.record(z.string(), z.unknown()) } },
  errors: [],
};

/** Every route the app serves, in the document's order. */
export const ROUTES: readonly RouteSpec[] = [
  ...EVENT_ROUTES,
  ...HOOK_ROUTES,
  ...OPERATION_ROUTES,
  ...DAEMON_ROUTE_SPECS,
  CONSOLE_URL_ROUTE,
  OPENAPI_ROUTE,
];

/** Errors the app answers outside any route: a body over the limit before a route reads it, a path no route serves. */
const APP_ERRORS: readonly ErrorCode[] = ["request_too_large", "not_found"];

const REF = (id: string): string => `#/components/schemas/${id}`;

type Json = Record<string, unknown>;

/** A schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), registered wire types referenced by name. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id === "string") return { $ref: REF(id) };
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json;
  return relink(rest) as Json;
}

/** The wire types a schema uses point at components.schemas, not at a copy in its own $defs. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value as Json)) {
    if (key === "$ref" && typeof child === "string" && child.startsWith("#/$defs/")) out[key] = REF(child.slice("#/$defs/".length));
    else if (key !== "$defs") out[key] = relink(child);
  }
  return out;
}

/** The named wire types, each once, under components.schemas. */
function components(): Json {
  const all = z.toJSONSchema(z.globalRegistry, { target: "draft-2020-12", io: "output", unrepresentable: "any", uri: REF }) as {
    schemas: Record<string, Json>;
  };
  return Object.fromEntries(Object.entries(all.schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
}

/** Hono's /v1/hooks/:id as OpenAPI's /v1/hooks/{id}. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

function parameters(spec: RouteSpec): Json[] {
  const list: Json[] = [];
  const fields = (object: z.ZodObject | undefined, where: "path" | "query"): void => {
    for (const [name, field] of Object.entries(object?.shape ?? {})) {
      const schema = jsonSchema(field as z.ZodType, "input");
      const { description, ...rest } = schema;
      list.push({
        name,
        in: where,
        required: where === "path" || !(field as z.ZodType).safeParse(undefined).success,
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  };
  fields(spec.params, "path");
  fields(spec.query, "query");
  for (const header of spec.headers ?? [])
    list.push({ name: header.name, in: "header", required: false, description: header.description, schema: jsonSchema(header.schema, "input") });
  return list;
}

/** One error answer per status, its `error.code` narrowed to the codes the route gives with that status. */
function errorResponses(spec: RouteSpec): Record<string, Json> {
  const codes = [...new Set([...spec.errors, ...COMMON_ERRORS])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.join(", "),
        content: {
          "application/json": {
            schema: {
              allOf: [
                { $ref: REF("ErrorBodyV1") },
                { type: "object", properties: { error: { type: "object", properties: { code: { enum: list } } } } },
              ],
            },
          },
        },
      },
    ]),
  );
}

function operation(spec: RouteSpec): Json {
  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    const content = response.contentType
      ? { [response.contentType]: { schema: { type: "string" } } }
      : response.schema
        ? { "application/json": { schema: jsonSchema(response.schema, "output") } }
        : undefined;
    responses[status] = { description: response.description, ...(content ? { content } : {}) };
  }
  Object.assign(responses, errorResponses(spec));
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    parameters: parameters(spec),
    ...(spec.body
      ? {
          requestBody: {
            description: spec.body.description,
            required: spec.body.required,
            content: { "application/json": { schema: jsonSchema(spec.body.schema, "input") } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the daemon's API, built from the route specs and the zod schemas
 * the server validates with (src/core/wire): served at GET /v1/openapi.json, printed by `hookbox openapi`.
 */
export function openApiDocument(version: string): Json {
  // The error body is referenced by every route, and must be in components even before any route's schema touches it.
  void errorBodySchema;
  const paths: Record<string, Json> = {};
  for (const spec of ROUTES) (paths[openApiPath(spec.path)] ??= {})[spec.method] = operation(spec);
  return {
    openapi: "3.1.0",
    info: {
      title: "Hookbox",
      version,
      description:
        "The local API of a Hookbox daemon (`hookbox serve`): on a unix socket ($XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock), without authentication, and optionally on a loopback TCP listener (`--listen`) with a bearer token. " +
        `Every error answer is an ErrorBodyV1 with a stable code; besides each route's own, any route may answer ${APP_ERRORS.join(" and ")}. The contract for orchestrators: docs/orchestrators.md.`,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [
      {
        url: "http://127.0.0.1:{port}",
        description: "The loopback TCP listener (hookbox serve --listen 127.0.0.1:PORT); the unix socket serves the same paths.",
        variables: { port: { default: "8787" } },
      },
    ],
    security: [{}, { bearerToken: [] }],
    tags: [
      { name: "events", description: "An event in, a decision out." },
      { name: "agents", description: "An agent's own hook call, answered in its protocol." },
      { name: "hooks", description: "The hook set." },
      { name: "approvals", description: "Asks held for a user's verdict." },
      { name: "operations", description: "The audit log, health, metrics, this document." },
      { name: "daemon", description: "The daemon's own lifecycle (the unix socket's owner only), and the console's login link." },
    ],
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        bearerToken: { type: "http", scheme: "bearer", description: "Required on the TCP listener only: the token in <data dir>/http-token." },
      },
    },
  };
}
