import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** README.md, whose examples tests run as written (STYLE.md). */
export const README = readFileSync(resolve(import.meta.dirname, "../../README.md"), "utf8");

/** The ```sh blocks under the `## <heading>` section, one command per line: comments dropped, `\` continuations joined. */
export function readmeCommands(heading: string): string[] {
  const section = README.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? "";
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  if (blocks.length === 0) throw new Error(`README.md has no sh block under "## ${heading}"`);
  return blocks
    .join("\n")
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => line !== "");
}

/** The curl a reader sends to the served standard hooks. */
export function readmeCurl(): string {
  const curl = readmeCommands("Quick start").find((line) => line.startsWith("curl "));
  if (!curl) throw new Error("README.md's quick start shows no curl");
  return curl;
}
