import { describe, expect, it } from "vitest";
import { redactText } from "../../src/core/text/excerpt.ts";
import { answerCheck } from "../../src/capabilities/llm/answer-schema.ts";
import { budgetFor, llmVerdict, parseLlmPolicy } from "../../src/capabilities/llm/policy.ts";
import type { GrantSources } from "../../src/capabilities/grants/sources.ts";
import { permissionsSchema } from "../../src/capabilities/grants/schema.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";

const ENDPOINTS = operatorFileSchema.parse({
  llm: {
    local: { endpoint: "http://127.0.0.1:8080/v1", model: "m", max_tokens: 500 },
    other: { endpoint: "http://localhost:11434", api: "ollama", model: "o" },
  },
}).llm;

function policy(declared: unknown[], options: { approval?: unknown[]; ceiling?: unknown[]; own?: boolean } = {}) {
  const sources = {
    declared: permissionsSchema.parse({ llm: declared }),
    approval: options.approval ? permissionsSchema.partial().parse({ llm: options.approval }) : undefined,
    ceiling: options.ceiling ? permissionsSchema.partial().parse({ llm: options.ceiling }) : undefined,
    operatorOwn: options.own ?? true,
  } as unknown as GrantSources;
  return parseLlmPolicy(sources, ENDPOINTS);
}

describe("llm grants: the endpoint named, the operator deciding", () => {
  it.each([
    ["the operator's own hook, declared", policy(["local"]), "local", true],
    ["not declared", policy(["local"]), "other", false],
    ["a near miss of the name", policy(["local"]), "local2", false],
    ["a project's hook, no approval", policy(["local"], { own: false }), "local", false],
    ["a project's hook, approved", policy(["local"], { own: false, approval: ["local"] }), "local", true],
    ["a project's hook, approved another", policy(["local"], { own: false, approval: ["other"] }), "local", false],
    ["a ceiling without it", policy(["local"], { ceiling: ["other"] }), "local", false],
    ["a ceiling with it", policy(["local"], { own: false, ceiling: ["local"] }), "local", true],
  ])("%s", (_name, p, endpoint, allowed) => {
    expect(llmVerdict(p, endpoint).ok).toBe(allowed);
  });

  it("each budget is the lowest of the endpoint's (or the default), the grant's, the approval's and the ceiling's", () => {
    const p = policy([{ endpoint: "local", max_tokens: 800, tokens_per_day: 1000 }], {
      approval: [{ endpoint: "local", tokens_per_day: 700 }],
      ceiling: [{ endpoint: "local", timeout_ms: 5000 }],
    });
    expect(budgetFor(p, "local")).toEqual({ max_tokens: 500, timeout_ms: 5000, tokens_per_run: 20_000, tokens_per_day: 700 });
    expect(budgetFor(policy(["other"]), "other")).toEqual({ max_tokens: 1024, timeout_ms: 60_000, tokens_per_run: 20_000, tokens_per_day: 200_000 });
  });
});

describe("the operator's llm section", () => {
  it("one endpoint is named default; several by name", () => {
    expect(Object.keys(operatorFileSchema.parse({ llm: { endpoint: "http://127.0.0.1:1/v1", model: "m" } }).llm)).toEqual(["default"]);
    expect(Object.keys(ENDPOINTS)).toEqual(["local", "other"]);
    expect(operatorFileSchema.parse({}).llm).toEqual({});
  });

  it.each([
    [{ endpoint: "http://10.0.0.7:8000/v1", model: "m" }, "is not this machine"],
    [{ endpoint: "https://api.anthropic.com", api: "anthropic", model: "m" }, "allow_remote: true"],
    [{ endpoint: "http://user:pw@127.0.0.1/v1", model: "m" }, "no credentials in the URL"],
    [{ endpoint: "file:///tmp/x", model: "m" }, "http: or https:"],
    [{ endpoint: "http://127.0.0.1/v1", model: "m", api_key: "k", api_key_env: "K" }, "not both"],
    [{ endpoint: "http://127.0.0.1/v1", model: "m", api: "gemini" }, ""],
  ])("refuses %j", (endpoint, message) => {
    const parsed = operatorFileSchema.safeParse({ llm: endpoint });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(message);
  });

  it("accepts a remote endpoint the operator marks allow_remote, and [::1]", () => {
    expect(
      operatorFileSchema.safeParse({
        llm: { endpoint: "https://api.anthropic.com", api: "anthropic", model: "m", allow_remote: true, api_key_env: "ANTHROPIC_API_KEY" },
      }).success,
    ).toBe(true);
    expect(operatorFileSchema.safeParse({ llm: { endpoint: "http://[::1]:8080/v1", model: "m" } }).success).toBe(true);
  });
});

describe("json_schema answers", () => {
  const schema = {
    type: "object",
    properties: { decision: { type: "string", enum: ["allow", "deny"] }, pattern: { type: "string" } },
    required: ["decision"],
  };

  it("parses the answer (a code fence taken off) and checks it", () => {
    const check = answerCheck(schema);
    if (typeof check === "string") throw new Error(check);
    expect(check('{"decision":"deny"}')).toEqual({ ok: true, value: { decision: "deny" } });
    expect(check('```json\n{"decision":"allow","pattern":"x"}\n```')).toEqual({ ok: true, value: { decision: "allow", pattern: "x" } });
    expect(check("Sure, deny.")).toMatchObject({ ok: false, problem: expect.stringContaining("not JSON") });
    expect(check('{"decision":"maybe"}')).toMatchObject({ ok: false, problem: expect.stringContaining("decision:") });
  });

  it("refuses regular expressions from a hook, remote refs and oversized schemas", () => {
    expect(answerCheck({ type: "string", pattern: "(a+)+$" })).toContain("pattern is not supported");
    expect(answerCheck({ type: "object", patternProperties: { "^x": {} } })).toContain("patternProperties is not supported");
    expect(answerCheck({ type: "object", properties: { a: { $ref: "http://evil/x" } } })).toContain("cannot be used");
    expect(answerCheck({ enum: ["x".repeat(70_000)] })).toContain("larger than");
    expect(answerCheck([1])).toContain("must be an object");
  });
});

describe("what the audit keeps of a prompt", () => {
  it.each([
    ["the endpoint's key", "key sk-local-0123456789abcdef here", ["sk-local-0123456789abcdef"], "key [redacted] here"],
    ["NAME=value of a secret-looking name", "GITHUB_TOKEN=abc123 make", [], "GITHUB_TOKEN=[redacted] make"],
    ["a harmless NAME=value", "NODE_ENV=production make", [], "NODE_ENV=production make"],
    ["an OpenAI-style key", "use sk-proj-ABCDEFGHIJKLMNOPQRSTUV", [], "use [redacted]"],
    ["a GitHub token", "ghp_abcdefghijklmnopqrstuvwxyz0123", [], "[redacted]"],
    ["an AWS key id", "AKIAABCDEFGHIJKLMNOP", [], "[redacted]"],
    ["a bearer header", "Authorization: Bearer abcdefghijklmnop.qrs", [], "Authorization: Bearer [redacted]"],
    ["a private key block", "x -----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY----- y", [], "x [redacted] y"],
    ["a short value is not hunted everywhere", "abc abc", ["abc"], "abc abc"],
  ])("%s", (_name, text, secrets, expected) => {
    expect(redactText(text, secrets)).toBe(expected);
  });
});
