import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/core/wire/errors.ts";
import { createApp } from "../../src/serve/api/app.ts";
import type { AppDeps } from "../../src/serve/api/deps.ts";
import { openApiDocument, openApiPath } from "../../src/serve/api/openapi.ts";

/** The app with nothing behind it: enough to list its routes and serve the document (no route that evaluates is called). */
function bareApp() {
  const unused = new Proxy(
    {},
    {
      get: (_target, name) => {
        throw new Error(`deps.${String(name)} used`);
      },
    },
  );
  const deps = {
    version: "0.1.0-test",
    bodyLimitBytes: 1024,
    metrics: { recordHttpError: () => undefined },
    evaluator: unused,
    identity: unused,
    approvals: unused,
    runs: unused,
    health: unused,
  } as unknown as AppDeps;
  return createApp(deps);
}

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
};

describe("the OpenAPI document (GET /v1/openapi.json, hookbox openapi)", () => {
  const document = openApiDocument("0.1.0-test") as unknown as Document;

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("describes every route the app serves, and no other", () => {
    const served = bareApp()
      .routes.filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(served).size).toBe(served.length);
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it("types every answer: a JSON schema (or the metrics' text) for each success, ErrorBodyV1 narrowed to the route's codes for each error", () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(response.content, `${method} ${path} ${status}`).toBeDefined();
          // /healthz's 503 is a health report (degraded), not an error.
          if (Number(status) >= 400 && `${path} ${status}` !== "/healthz 503")
            expect(JSON.stringify(response.content), `${method} ${path} ${status}`).toContain("#/components/schemas/ErrorBodyV1");
        }
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["401", "500"]));
      }
    }
  });

  it("lists every stable error code, and the versioned wire types by name", () => {
    const errorBody = document.components.schemas.ErrorBodyV1 as { properties: { error: { properties: { code: { enum: string[] } } } } };
    expect(errorBody.properties.error.properties.code.enum).toEqual([...ERROR_CODES]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        "DecisionV1",
        "NativeEventV1",
        "AgentCallReplyV1",
        "HooksV1",
        "HookRegistrationV1",
        "RunsV1",
        "AuditRecordV1",
        "ApprovalsV1",
        "PendingApprovalV1",
        "ApprovalVerdictV1",
        "HealthV1",
        "HookSetIdentityV1",
        "ErrorBodyV1",
      ]),
    );
  });

  it("is what the app serves at GET /v1/openapi.json", async () => {
    const reply = await bareApp().request("/v1/openapi.json");
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument("0.1.0-test"))));
  });
});
