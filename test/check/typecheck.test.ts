import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TS_LIB_FILE, renderTsLib } from "../../scripts/embed-ts-lib.ts";
import { handlerDeclarations, standardHooks } from "../../src/hooks/builtin/index.ts";
import { typeCheckHandlers } from "../../src/hooks/check/index.ts";

const check = (source: string): string[] =>
  typeCheckHandlers([{ file: "h.ts", source }], handlerDeclarations()).map((d) => `${d.line}:${d.column} ${d.message.split("\n")[0]}`);

describe("hookbox check: handlers against the handler API", () => {
  it("src/hooks/check/ts-lib.generated.ts matches the installed typescript (regenerate: bun scripts/embed-ts-lib.ts)", () => {
    expect(readFileSync(TS_LIB_FILE, "utf8")).toBe(renderTsLib());
  });

  it("every standard hook's handler type-checks", () => {
    // Prompt hooks (verify-completion, prompt-clarity) are YAML alone: no handler to check.
    const handlers = [...standardHooks().values()].flatMap((hook) =>
      hook.files["handler.ts"] === undefined ? [] : [{ file: `builtin:${hook.id}/handler.ts`, source: hook.files["handler.ts"] }],
    );
    expect(handlers.length).toBeGreaterThan(5);
    expect(typeCheckHandlers(handlers, handlerDeclarations())).toEqual([]);
  });

  it("a correct handler, typed or not, passes; ES2023 is there, the DOM and Node are not", () => {
    expect(
      check(
        `export default function handler(event: HookEvent, hook: Hook): HookResult {\n  return { action: [1, 2].findLast((n) => n > 1) ? "deny" : "continue" };\n}\n`,
      ),
    ).toEqual([]);
    expect(check(`export default async (event) => {\n  if (event.tool_name === "Bash") return { action: "deny", reason: "no" };\n};\n`)).toEqual([]);
    expect(
      check(
        `import type { Hook } from "hookbox";\nimport { shAnalyze } from "hookbox:shell";\nexport default (e: HookEvent, h: Hook) => void shAnalyze;\n`,
      ),
    ).toEqual([]);
    expect(check(`export default () => { document.title = "x"; };\n`)).toEqual([expect.stringMatching(/^1:24 TS2584: Cannot find name 'document'/)]);
    expect(check(`import fs from "node:fs";\nexport default () => void fs;\n`)).toEqual([
      expect.stringMatching(/^1:16 TS2307: Cannot find module 'node:fs'/),
    ]);
  });

  // The same mistake in every way a handler can be written: reported at the mistake, not at the export.
  const forms: [string, string, string][] = [
    [
      "annotated declaration",
      `export default function handler(event: HookEvent, hook: Hook): HookResult {\n  return { action: "dny" };\n}\n`,
      "2:12",
    ],
    ["declaration without types", `export default function (event, hook) {\n  void hook;\n  return { action: "dny" };\n}\n`, "3:12"],
    ["async declaration without types", `export default async function handler(event) {\n  return { action: "dny" };\n}\n`, "2:12"],
    ["arrow, expression body", `export default (event) => ({ action: "dny" });\n`, "1:30"],
    ["arrow, bare parameter", `export default event => event.tool_name ? { action: "dny" } : undefined;\n`, "1:45"],
    [
      "async arrow, block body",
      `export default async (event, hook) => {\n  await hook.log("info", "x");\n  return {\n    action: "dny",\n  };\n};\n`,
      "4:5",
    ],
    ["function expression", `export default (function (event) {\n  return { action: "dny" };\n});\n`, "2:12"],
    ["named function exported later", `function handler(event: HookEvent) {\n  return { action: "dny" };\n}\nexport default handler;\n`, "2:12"],
    ["const arrow exported later", `const handler = (event) => {\n  return { action: "dny" };\n};\nexport default handler;\n`, "2:12"],
  ];
  it.each(forms)('{action: "dny"} from %s: at its own line', (_form, source, at) => {
    expect(check(source)).toEqual([`${at} TS2820: Type '"dny"' is not assignable to type 'HookAction | undefined'. Did you mean '"deny"'?`]);
  });

  it("a misspelt key, a wrong parameter type, no default export", () => {
    expect(check(`export default () => ({ acton: "deny" });\n`)).toEqual([
      expect.stringMatching(/^1:25 TS2353: .*'acton' does not exist in type 'HookResult/),
    ]);
    expect(check(`export default (event: { tool_name: number }) => undefined;\n`)).toEqual([
      expect.stringMatching(/^1:16 TS1360: .*does not satisfy the expected type 'Handler'/),
    ]);
    expect(check(`export default function handler(event: { tool_name: number }) {\n  void event;\n}\n`)).toEqual([
      expect.stringMatching(/^1:25 TS1360: /),
    ]);
    expect(check(`export default function (event: { tool_name: number }) {\n  void event;\n}\n`)).toEqual([expect.stringMatching(/^1:16 TS1360: /)]);
    expect(check(`export const handler = () => undefined;\n`)).toEqual([
      "1:1 the handler has no default export: write `export default function handler(event: HookEvent, hook: Hook): HookResult { … }`",
    ]);
  });

  it("columns after a type added on the same line still point at the original text", () => {
    const source = `export default (event) => void event.session_id.toFixed();\n`;
    expect(check(source)).toEqual([
      expect.stringMatching(new RegExp(`^1:${source.indexOf("toFixed") + 1} TS2551: Property 'toFixed' does not exist on type 'string'`)),
    ]);
  });

  it("handlers are checked apart: two may declare the same top-level names", () => {
    const source = `const LIMIT = 1;\nexport default () => ({ action: LIMIT > 0 ? "continue" as const : "deny" as const });\n`;
    expect(
      typeCheckHandlers(
        [
          { file: "a.ts", source },
          { file: "b.ts", source },
        ],
        handlerDeclarations(),
      ),
    ).toEqual([]);
  });
});
