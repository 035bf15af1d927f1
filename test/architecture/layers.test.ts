import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LAYER_ORDER, LIBRARIES } from "../../scripts/layer-order.js";
import { counts } from "../../scripts/layers.ts";

// The layer order (scripts/layer-order.js, README "Layout") is a lint rule, hookbox/layers: these
// tests lint deliberate violations through ESLint's own API, as `npm run lint` would find them in
// a file on disk, and hold the whole tree to it (no import up the order, no cycle between the top
// folders). Every folder's index.ts opens with what it owns and what it must not import.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const eslint = new ESLint({ cwd: ROOT });

/** The hookbox/layers messages of `code` as if it were the file at `path` (it need not exist). */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result!.messages.filter((message) => message.ruleId === "hookbox/layers").map((message) => message.message);
}

describe("the lint rule hookbox/layers", () => {
  const violations: readonly { what: string; path: string; code: string; says: RegExp }[] = [
    {
      what: "core importing hooks",
      path: "src/core/text/upward.ts",
      code: 'import { operatorFileSchema } from "../../hooks/config/schema.ts";\nexport const schema = operatorFileSchema;\n',
      says: /src\/core may not import src\/hooks: src\/hooks is above it/,
    },
    {
      what: "a capability importing the evaluator's audit, type only",
      path: "src/capabilities/llm/upward.ts",
      code: 'import type { AuditRecord } from "../../decide/audit/record.ts";\nexport type Record = AuditRecord;\n',
      says: /src\/capabilities may not import src\/decide/,
    },
    {
      what: "agents importing capabilities (the same layer)",
      path: "src/agents/claude/sideways.ts",
      code: 'export { createCapabilityHost } from "../../capabilities/index.ts";\n',
      says: /src\/agents may not import src\/capabilities: they are on the same layer/,
    },
    {
      what: "the evaluator importing the daemon with import()",
      path: "src/decide/upward.ts",
      code: 'export const load = () => import("../serve/daemon/daemon.ts");\n',
      says: /src\/decide may not import src\/serve/,
    },
    {
      what: "a type from the command line through typeof import()",
      path: "src/hooks/registry/upward.ts",
      code: 'export type Cli = typeof import("../../cli/index.ts");\n',
      says: /src\/hooks may not import src\/cli/,
    },
    {
      what: "hookbox/client importing the operator's locations",
      path: "src/client/upward.ts",
      code: 'export { resolveLocations } from "../hooks/config/locations.ts";\n',
      says: /src\/client is a library: it may import only src\/core, src\/platform/,
    },
    {
      what: "the command line reaching into the sandbox's pool",
      path: "src/cli/internal.ts",
      code: 'import { SandboxPool } from "../../sandbox/pool/pool.ts";\nexport const Pool = SandboxPool;\n',
      says: /sandbox\/pool\/pool\.ts is inside sandbox\/: import its entry points/,
    },
    {
      what: "sandbox/ importing src/",
      path: "sandbox/engine/upward.ts",
      code: 'export { HookboxError } from "../../src/core/errors.ts";\n',
      says: /sandbox\/ may not import src\/core/,
    },
  ];

  for (const { what, path, code, says } of violations) {
    it(`fails on ${what}`, async () => {
      const errors = await layerErrors(path, code);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(says);
    });
  }

  it("lets imports go down the order and through the sandbox's entry points", async () => {
    const code = [
      'import { HookboxError } from "../core/errors.ts";',
      'import { createCapabilityHost } from "../capabilities/index.ts";',
      'import { holdMessages } from "../../sandbox/start.ts";',
      'import { SandboxPool } from "../../sandbox/index.ts";',
      'import { evaluate } from "./evaluator.ts";',
      "export const all = [HookboxError, createCapabilityHost, holdMessages, SandboxPool, evaluate];",
      "",
    ].join("\n");
    expect(await layerErrors("src/decide/fine.ts", code)).toEqual([]);
  });

  it("is on in the lint configuration of every file of src/ and sandbox/", async () => {
    for (const file of ["src/core/errors.ts", "src/main.ts", "src/platform/node.ts", "sandbox/index.ts"]) {
      const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as { rules: Record<string, unknown> };
      expect(config.rules["hookbox/layers"], file).toEqual([2]);
    }
  });
});

describe("the tree", () => {
  const found = counts(ROOT);

  it("imports nothing up the layer order and nothing inside sandbox/", () => {
    expect(found.upward.map((v) => `${v.from}:${v.line} → ${v.to}: ${v.why}`)).toEqual([]);
    expect(found.sandboxInternals.map((v) => `${v.from}:${v.line} → ${v.to}`)).toEqual([]);
  });

  it("has no import cycle between its top folders", () => {
    expect(found.cycles).toEqual([]);
    expect(found.mutual).toEqual([]);
  });

  it("places every top folder of src/ in the order", () => {
    const placed = new Set([...LAYER_ORDER.flat(), ...Object.keys(LIBRARIES)]);
    const folders = readdirSync(join(ROOT, "src")).filter((name) => statSync(join(ROOT, "src", name)).isDirectory());
    expect(folders.filter((folder) => !placed.has(folder))).toEqual([]);
  });
});

describe("every folder's index.ts", () => {
  const indexes: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "index.ts") indexes.push(relative(ROOT, full).split("\\").join("/"));
    }
  };
  walk(join(ROOT, "src"));
  walk(join(ROOT, "sandbox"));

  it("exists for every wing", () => {
    const wings = [...LAYER_ORDER.flat(), ...Object.keys(LIBRARIES)].filter((wing) => existsSync(join(ROOT, "src", wing)));
    expect(wings.filter((wing) => !indexes.includes(`src/${wing}/index.ts`))).toEqual([]);
    expect(indexes).toContain("sandbox/index.ts");
  });

  it("opens with one line saying what its folder owns and what it must not import (STYLE.md principle 1)", () => {
    const wrong = indexes.flatMap((file) => {
      const folder = file === "sandbox/index.ts" ? "sandbox/" : file.slice(0, -"/index.ts".length);
      const first = readFileSync(join(ROOT, file), "utf8").split("\n")[0]!;
      const ok = first.startsWith(`// ${folder} owns `) && /must not import|imports nothing/.test(first) && first.length <= 150;
      return ok ? [] : [`${file}: ${first}`];
    });
    expect(wrong, "expected `// <folder> owns …; it must not import …` in at most 150 characters").toEqual([]);
  });
});
