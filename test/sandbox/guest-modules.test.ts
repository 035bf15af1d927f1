import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileHandler, createHandlerSpec, type GuestModules, type SandboxEngine } from "../../sandbox/index.ts";
import { guestModuleSources } from "../../src/hooks/builtin/index.ts";
import { createEngine, limits, noHost } from "../helpers/sandbox.ts";

const LIB: GuestModules = {
  "hookbox:greet": `let calls = 0;
export interface Greeting { text: string; n: number }
export function greet(name: string): Greeting { calls++; return { text: \`hi \${name}\`, n: calls }; }
export const LOUD = (s: string): string => s.toUpperCase();
export function explode(): never { throw new Error("from the library"); }`,
};

let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

async function run(source: string, modules: GuestModules, event: unknown = {}) {
  const compiled = await compileHandler(source, "/hooks/h/handler.ts", modules);
  if (!compiled.ok) throw new Error(compiled.failure.message);
  return engine.invoke(await createHandlerSpec({ id: "h", handler: compiled.handler }), event, limits(), noHost);
}

describe("guest library modules", () => {
  it("links named, renamed, namespace and type imports; the module's top level runs once", async () => {
    const outcome = await run(
      `import type { Greeting } from "hookbox:greet";
import {
  greet,
  LOUD as shout,
} from "hookbox:greet";
import * as g from "hookbox:greet";
export default (e: { name: string }) => {
  const a: Greeting = greet(e.name);
  const b = g.greet("again");
  return { a: shout(a.text), n: b.n };
};`,
      LIB,
      { name: "ada" },
    );
    expect(outcome).toMatchObject({ ok: true, value: { a: "HI ADA", n: 2 } });
  });

  it("keeps the handler's line numbers: a throw on line 6 is reported on line 6", async () => {
    const outcome = await run(
      `import {
  greet,
} from "hookbox:greet";
export default () => {
  greet("x");
  throw new Error("boom");
};`,
      LIB,
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failure.guestStack).toContain("handler.ts:6");
  });

  it("refuses unknown modules, relative files and default imports, naming the line and what is importable", async () => {
    const unknown = await compileHandler(`// x\nimport { a } from "hookbox:nope";\nexport default () => a;`, "h.ts", LIB);
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) {
      expect(unknown.failure.code).toBe("handler_invalid");
      expect(unknown.failure.message).toBe(
        `h.ts:2:1: handlers run in a sandbox: "hookbox:nope" cannot be imported (type-only imports are fine). Importable guest modules: hookbox:greet; for host access use the hook object`,
      );
    }
    const relative = await compileHandler(`import { a } from "./a.ts";\nexport default () => a;`, "h.ts", LIB);
    expect(!relative.ok && relative.failure.location?.line).toBe(1);
    const byDefault = await compileHandler(`\n\nimport greet from "hookbox:greet";\nexport default () => greet;`, "h.ts", LIB);
    expect(!byDefault.ok && byDefault.failure.message).toBe(
      'h.ts:3:1: hookbox:greet has no default export: write `import { name } from "hookbox:greet"`',
    );
    const sideEffect = await compileHandler(`import "hookbox:greet";\nexport default () => 1;`, "h.ts", LIB);
    expect(sideEffect.ok).toBe(false);
  });

  it("a module is part of the compiled identity: changing it changes the code hash", async () => {
    const source = `import { greet } from "hookbox:greet";\nexport default () => greet("a");`;
    const one = await compileHandler(source, "h.ts", LIB);
    const two = await compileHandler(source, "h.ts", { "hookbox:greet": `${LIB["hookbox:greet"]}\n// changed` });
    expect(one.ok && two.ok && one.handler.codeHash !== two.handler.codeHash).toBe(true);
  });

  it("hookbox:shell ships in the binary's catalog and reads a command line in the guest", async () => {
    const outcome = await run(
      `import { shAnalyze, shWriteTargets } from "hookbox:shell";
export default (e: { command: string }) => shAnalyze(e.command, "/w").flatMap((p) => p.commands.map((c) => [c.name, ...shWriteTargets(c)]));`,
      guestModuleSources,
      { command: `cd sub && sudo rm -rf "$HOME"/x; echo 'a' > out.txt | tee -a log` },
    );
    expect(outcome).toMatchObject({ ok: true, value: [["cd"], ["rm", "$HOME/x"], ["echo", "out.txt"], ["tee", "log"]] });
  });
});
