import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(resolve(root, "package-lock.json"), "utf8")) as { packages: Record<string, { engines?: { node?: string } }> };

// The Node versions the project states are the ones every installed package accepts: a dependency
// upgrade that narrows them fails here instead of on a contributor's machine.
describe("the Node versions package.json states", () => {
  const ours = manifest.engines.node;

  it("are accepted by every package in package-lock.json", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && entry.engines?.node !== undefined && !semver.subset(ours, entry.engines.node))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, "")} wants ${entry.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it("include the Node this runs on, and the README says the same", () => {
    expect(semver.satisfies(process.versions.node, ours)).toBe(true);
    const lowest = ours.split("||").map((range) => semver.minVersion(range.trim())?.version.replace(/\.0$/, ""));
    const readme = readFileSync(resolve(root, "README.md"), "utf8");
    expect(readme).toContain(`Node ${lowest[0]}+`);
  });
});
