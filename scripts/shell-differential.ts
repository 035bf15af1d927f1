// Runs the shell differential test (test/shell/differential.ts) and writes its table to
// docs/shell-reader.md. Exit 1 when a protected file was missed, 2 when it cannot run here.
// Usage: node --import tsx scripts/shell-differential.ts
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { protectedMisses, runDifferential } from "../test/shell/differential.ts";
import { renderTable } from "../test/shell/table.ts";

const ROOT = resolve(import.meta.dirname, "..");
const run = await runDifferential();
if (run.unavailable) {
  console.error(`cannot run: ${run.unavailable}`);
  process.exit(2);
}
const version = (program: string, args: string[]): string => spawnSync(program, args, { encoding: "utf8" }).stdout.split("\n")[0]?.trim() ?? "?";
const environment = [
  version("bash", ["--version"]),
  version("python3", ["--version"]),
  `node ${process.version}`,
  `perl ${version("perl", ["-e", "print $^V"])}`,
  version("git", ["--version"]),
].join("; ");
writeFileSync(join(ROOT, "docs/shell-reader.md"), renderTable(run.results, environment));
const misses = protectedMisses(run.results);
console.log(`${run.results.length} cases, ${misses.length} protected misses; wrote docs/shell-reader.md`);
for (const miss of misses) console.log(`MISS ${miss.form}: ${miss.command} → ${miss.path} (${miss.why})`);
process.exit(misses.length > 0 ? 1 : 0);
