import { describe, expect, it } from "vitest";
import { standardHooks } from "../../src/hooks/builtin/index.ts";
import { parseYaml } from "../../src/hooks/config/diagnostics.ts";
import { resolveHook } from "../../src/hooks/config/resolve.ts";
import { hookFileSchema, operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { operatorFileSource } from "../../src/decide/operator-source.ts";
import { modelEndpointsOf } from "../../src/hooks/registry/model-endpoints.ts";
import type { EmbeddedHook } from "../../src/hooks/registry/sources.ts";

const hook = (id: string, yaml: string): [string, EmbeddedHook] => [id, { id, yaml: `id: ${id}\nevents: [Stop]\n${yaml}`, files: {} }];
const EMBEDDED = new Map<string, EmbeddedHook>([
  hook("plain", "handler: ./handler.ts\n"),
  hook("asks-model", "prompt: 'Done?'\n"),
  hook("names-endpoint", "handler: ./handler.ts\npermissions: { llm: [{ endpoint: big, max_tokens: 10 }] }\n"),
]);

/** The standard hooks `builtin` ends up with, for an operator file's text and the --builtin flags. */
async function enabled(
  text: string | undefined,
  flags: readonly string[],
  embedded: ReadonlyMap<string, EmbeddedHook> | null = EMBEDDED,
): Promise<string[]> {
  const fs = { readText: async () => text ?? "", stamp: async () => (text === undefined ? "missing" : "1") };
  const view = await operatorFileSource({
    fs,
    path: "/op/hookbox.yaml",
    explicit: false,
    builtinFlags: flags,
    embeddedIds: [...EMBEDDED.keys()],
    keepLastGood: false,
    ...(embedded ? { embedded } : {}),
  }).read();
  expect(view.status.state).toBe("ok");
  return [...view.operator.builtin].sort();
}

describe("--builtin all: every standard hook that works here", () => {
  it.each<[string, string | undefined, string[], string[]]>([
    ["no operator file: the hooks that need a model endpoint are left out", undefined, ["all"], ["plain"]],
    [
      "the default endpoint configured: the prompt hook joins",
      "llm: { endpoint: 'http://127.0.0.1:8080/v1', model: m }\n",
      ["all"],
      ["asks-model", "plain"],
    ],
    [
      "both endpoints configured: all of them",
      "llm: { default: { endpoint: 'http://127.0.0.1:8080/v1', model: m }, big: { endpoint: 'http://127.0.0.1:8081/v1', model: n } }\n",
      ["all"],
      ["asks-model", "names-endpoint", "plain"],
    ],
    ["named, a hook is enabled whatever it needs", undefined, ["all", "asks-model"], ["asks-model", "plain"]],
    ["named alone", undefined, ["names-endpoint"], ["names-endpoint"]],
    ["the file's own builtin stays", "builtin: [asks-model]\n", ["all"], ["asks-model", "plain"]],
  ])("%s", async (_name, text, flags, expected) => {
    expect(await enabled(text, flags)).toEqual(expected);
  });

  it("without the hooks themselves (a caller that has only their ids), all is every id", async () => {
    expect(await enabled(undefined, ["all"], null)).toEqual(["asks-model", "names-endpoint", "plain"]);
  });

  it("modelEndpointsOf agrees with the hook as it resolves, for every standard hook", () => {
    const operator = operatorFileSchema.parse({});
    for (const [id, embedded] of standardHooks()) {
      const parsed = parseYaml(embedded.yaml, `builtin:${id}/hook.yaml`, hookFileSchema);
      if (!parsed.ok) throw new Error(`${id} does not parse`);
      const resolved = resolveHook(parsed.value, { file: `builtin:${id}/hook.yaml`, origin: "builtin" }, operator);
      if (!resolved.ok) throw new Error(`${id} does not resolve`);
      const endpoints = resolved.hook.permissions.llm.map((grant) => (typeof grant === "string" ? grant : grant.endpoint));
      expect(modelEndpointsOf(embedded), id).toEqual(endpoints);
    }
    expect(modelEndpointsOf(standardHooks().get("prompt-clarity") as EmbeddedHook)).toEqual(["default"]);
    expect(modelEndpointsOf(standardHooks().get("verify-completion") as EmbeddedHook)).toEqual(["default"]);
  });
});
