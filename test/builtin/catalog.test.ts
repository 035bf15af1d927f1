import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG_FILE, PRECOMPILED_FILE, bundleModule, renderCatalog, renderPrecompiled } from "../../scripts/embed-handlers.ts";

describe("the embedded standard hooks", () => {
  it("src/hooks/builtin/catalog.generated.ts matches handlers/ (regenerate: bun scripts/embed-handlers.ts)", () => {
    expect(readFileSync(CATALOG_FILE, "utf8")).toBe(renderCatalog());
  });

  // No load runs in this file: compileHandler compiles for real here (test/builtin/precompiled.test.ts checks the loader finds them).
  it("src/hooks/builtin/precompiled.generated.ts holds each handler as compileHandler compiles it (regenerate: bun scripts/embed-handlers.ts)", async () => {
    expect(readFileSync(PRECOMPILED_FILE, "utf8")).toBe(await renderPrecompiled());
  });
});

describe("guest modules written as folders (handlers/lib/<name>/index.ts)", () => {
  it("become one module: files in import order, relative imports gone, only what index.ts re-exports exported", () => {
    const dir = mkdtempSync(join(tmpdir(), "hookbox-bundle-"));
    try {
      writeFileSync(join(dir, "a.ts"), `export const A = 1;\nexport function helper(): number {\n  return A + 1;\n}\n`);
      writeFileSync(
        join(dir, "b.ts"),
        `import { helper } from "./a.ts";\nexport interface B { n: number }\nexport function b(): B {\n  return { n: helper() };\n}\n`,
      );
      writeFileSync(join(dir, "index.ts"), `// hookbox:test — a test module.\nexport { type B, b } from "./b.ts";\n`);
      const source = bundleModule(dir);
      expect(source.indexOf("const A")).toBeLessThan(source.indexOf("function b"));
      expect(source).not.toMatch(/^import /m);
      expect(source).toMatch(/^export function b\(\)/m);
      expect(source).toMatch(/^export interface B/m);
      expect(source).toMatch(/^function helper\(\)/m);
      expect(source).toMatch(/^const A = 1;/m);
      writeFileSync(join(dir, "c.ts"), `export function helper(): number {\n  return 2;\n}\n`);
      writeFileSync(join(dir, "index.ts"), `export { b } from "./b.ts";\nexport { helper } from "./c.ts";\n`);
      expect(() => bundleModule(dir)).toThrow(/helper is declared in both/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
