/** What happened to one path between two looks. */
export type Operation = "created" | "modified" | "deleted";

/**
 * Two changes of one path within a debounce window, as one (the seed engine's rules, and the
 * cases it leaves open): created then modified is created; created then deleted cancels out
 * (undefined: nothing to report); modified then deleted is deleted; deleted then created is
 * modified (the path was there before and is there after); otherwise the later change stands.
 */
export function mergeChanges(first: Operation, then: Operation): Operation | undefined {
  if (first === "created") return then === "deleted" ? undefined : "created";
  if (first === "deleted") return then === "created" || then === "modified" ? "modified" : "deleted";
  return then === "deleted" ? "deleted" : "modified";
}

/** Changes gathered over a window, merged per path; drained when the window closes. */
export class ChangeSet {
  private readonly pending = new Map<string, Operation>();

  add(path: string, operation: Operation): void {
    const before = this.pending.get(path);
    const merged = before === undefined ? operation : mergeChanges(before, operation);
    if (merged === undefined) this.pending.delete(path);
    else this.pending.set(path, merged);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Every change left, by path, and an empty set. */
  drain(): { path: string; operation: Operation }[] {
    const changes = [...this.pending.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, operation]) => ({ path, operation }));
    this.pending.clear();
    return changes;
  }
}
