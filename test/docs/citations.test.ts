import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/daemon.ts";

// Comments and docs cite the research and design notes by section ("research §4.2",
// "real-clients.md §2", "DESIGN §5"): each citation must name a section of a file in this
// repository (docs/research/, docs/design.md), not of notes that live elsewhere.
const SOURCES: Readonly<Record<string, { file: string; heading: (section: string) => RegExp }>> = {
  research: { file: "docs/research/agent-hook-protocols.md", heading: (s) => new RegExp(`^#{2,3} §${s.replace(".", "\\.")} `, "m") },
  sandbox: { file: "docs/research/sandbox.md", heading: (s) => new RegExp(`^## §${s} `, "m") },
  "real-clients": { file: "docs/research/real-clients.md", heading: (s) => new RegExp(`\\*\\*§${s}\\*\\*`) },
  DESIGN: { file: "docs/design.md", heading: (s) => new RegExp(`^## §${s} `, "m") },
};
const SECTION = "(?:§|\\\\u00a7)(\\d+(?:\\.\\d+)?)";
const CITATION = new RegExp(
  `\\b(research\\/sandbox\\.md|research|agent-hook-protocols\\.md|real-clients(?:\\.md)?|DESIGN)((?:(?:,|;| and)? ?${SECTION})+)`,
  "g",
);

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.(ts|mts|js|mjs|md|json|yaml)$/.test(file) && !file.startsWith("node_modules/") && file !== "package-lock.json");

interface Citation {
  readonly where: string;
  readonly source: string;
  readonly section: string;
}

function citations(): Citation[] {
  const found: Citation[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const match of text.matchAll(CITATION)) {
      const name = match[1] as string;
      const source =
        name === "agent-hook-protocols.md"
          ? "research"
          : name === "research/sandbox.md"
            ? "sandbox"
            : name.startsWith("real-clients")
              ? "real-clients"
              : name;
      for (const section of (match[2] as string).matchAll(new RegExp(SECTION, "g")))
        found.push({ where: file, source, section: section[1] as string });
    }
  }
  return found;
}

describe("citations of research and design notes", () => {
  const all = citations();

  it("are found (the scan works)", () => {
    expect(all.length).toBeGreaterThan(40);
    expect(all).toContainEqual({ where: "src/hooks/registry/matcher.ts", source: "research", section: "1.2" });
    expect(all).toContainEqual({ where: "test/security/cases/sandbox.ts", source: "sandbox", section: "10" });
    expect(all).toContainEqual({ where: "src/agents/claude/protocol.ts", source: "real-clients", section: "2" });
    expect(all).toContainEqual({ where: "src/decide/evaluator.ts", source: "DESIGN", section: "8" });
  });

  it("each name a section of a file in the repository", () => {
    const unresolved = all.filter(({ source, section }) => {
      const target = SOURCES[source] as (typeof SOURCES)[string];
      return !target.heading(section).test(readFileSync(join(ROOT, target.file), "utf8"));
    });
    expect(unresolved).toEqual([]);
  });

  it("never point outside the repository", () => {
    const outside = files.filter((file) => /shared\/(research|fixtures|seeds|DESIGN)|\/work\/shared/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(outside).toEqual([]);
  });
});
