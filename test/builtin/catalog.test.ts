import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATALOG_FILE, renderCatalog } from "../../scripts/embed-handlers.ts";

describe("the embedded standard hooks", () => {
  it("src/builtin/catalog.generated.ts matches handlers/ (regenerate: bun scripts/embed-handlers.ts)", () => {
    expect(readFileSync(CATALOG_FILE, "utf8")).toBe(renderCatalog());
  });
});
