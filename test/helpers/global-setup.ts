import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/** Build the binary once; e2e suites copy dist/hookbox into empty directories and drive it. */
export default function setup(): void {
  const root = resolve(import.meta.dirname, "../..");
  if (process.env.HOOKBOX_SKIP_BUILD === "1") return;
  execFileSync(resolve(root, "node_modules/.bin/bun"), ["build.ts"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
}
