import { describe, expect, it } from "vitest";
import { ChangeSet, mergeChanges, type Operation } from "../../src/serve/triggers/changes.ts";

/**
 * The seed engine's de-duplication of one path's changes within a debounce window, case by case:
 * the sequence seen, and what the hook is told (none: nothing to report).
 */
const TABLE: readonly [readonly Operation[], Operation | "none"][] = [
  [["created"], "created"],
  [["modified"], "modified"],
  [["deleted"], "deleted"],
  [["created", "modified"], "created"],
  [["created", "modified", "modified"], "created"],
  [["created", "deleted"], "none"],
  [["created", "modified", "deleted"], "none"],
  [["modified", "deleted"], "deleted"],
  [["modified", "modified"], "modified"],
  [["modified", "created"], "modified"],
  [["deleted", "created"], "modified"],
  [["deleted", "modified"], "modified"],
  [["deleted", "deleted"], "deleted"],
  [["created", "deleted", "created"], "created"],
  [["modified", "deleted", "created"], "modified"],
  [["deleted", "created", "deleted"], "deleted"],
];

describe("watch de-duplication (the seed engine's rules)", () => {
  for (const [sequence, expected] of TABLE) {
    it(`${sequence.join(" then ")} is ${expected === "none" ? "nothing" : expected}`, () => {
      const set = new ChangeSet();
      for (const operation of sequence) set.add("/p/a.md", operation);
      expect(set.drain()).toEqual(expected === "none" ? [] : [{ path: "/p/a.md", operation: expected }]);
    });
  }

  it("the pairwise rule agrees with the table's two-step rows", () => {
    expect(mergeChanges("created", "modified")).toBe("created");
    expect(mergeChanges("created", "deleted")).toBeUndefined();
    expect(mergeChanges("modified", "deleted")).toBe("deleted");
  });

  it("paths are merged each on its own, drained in path order, and the set is empty after", () => {
    const set = new ChangeSet();
    set.add("/p/b", "created");
    set.add("/p/a", "modified");
    set.add("/p/b", "deleted");
    set.add("/p/c", "created");
    set.add("/p/a", "deleted");
    expect(set.drain()).toEqual([
      { path: "/p/a", operation: "deleted" },
      { path: "/p/c", operation: "created" },
    ]);
    expect(set.size).toBe(0);
    expect(set.drain()).toEqual([]);
  });
});
