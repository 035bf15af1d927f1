import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(resolve(root, "README.md"), "utf8");

// STYLE.md: README examples are executed by a test, so they stay true.
describe("README", () => {
  it("the quick-start command's run step works as written", () => {
    const line = readme.split("\n").find((l) => l.startsWith("npm ci && npm run build && ./dist/hookbox run "));
    expect(line).toBeDefined();
    const args = (line as string).split(" && ")[2]?.split(" ").slice(1) ?? [];
    const stdout = execFileSync(resolve(root, "dist/hookbox"), args, { cwd: root, env: {} }).toString();
    expect(JSON.parse(stdout)).toMatchObject({ action: "deny" });
  });

  it("the handler shown is the example file", () => {
    const shown = /```ts\n\/\/ examples\/deny-env\.ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBe(readFileSync(resolve(root, "examples/deny-env.ts"), "utf8"));
  });

  it("the test command is what .ci/run runs", () => {
    expect(readme).toContain("npm ci && npm test");
    const ci = readFileSync(resolve(root, ".ci/run"), "utf8");
    expect(ci).toMatch(/npm ci/);
    expect(ci).toMatch(/npm test/);
  });
});
