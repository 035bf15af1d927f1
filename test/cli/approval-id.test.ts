import { describe, expect, it } from "vitest";
import type { PendingApproval } from "../../src/decide/approvals/store.ts";
import { resolveApprovalId } from "../../src/cli/approvals.ts";
import type { HookboxError } from "../../src/core/errors.ts";

const pending = (id: string): PendingApproval => ({
  id,
  hook_id: "asker",
  event_type: "PreToolUse",
  session_id: "s",
  tool_name: "Deploy",
  subject: "prod",
  prompt: "Deploy?",
  options: [],
  default: "deny",
  created_at: "",
  expires_at: "",
});
const WAITING = [
  pending("3f2a9c10-0000-4000-8000-000000000001"),
  pending("3f2b7d20-0000-4000-8000-000000000002"),
  pending("a1b2c3d4-0000-4000-8000-000000000003"),
];

function outcome(given: string, list = WAITING): string {
  try {
    return resolveApprovalId(given, list);
  } catch (error) {
    return `${(error as HookboxError).code}: ${(error as HookboxError).message}`;
  }
}

/** approve and deny take a unique prefix of an approval's id, as docker, git and gh do. */
describe("resolveApprovalId", () => {
  it.each([
    ["the whole id", "3f2a9c10-0000-4000-8000-000000000001", "3f2a9c10-0000-4000-8000-000000000001"],
    ["a unique prefix", "a1", "a1b2c3d4-0000-4000-8000-000000000003"],
    ["one character, unique", "a", "a1b2c3d4-0000-4000-8000-000000000003"],
    ["a prefix unique once longer", "3f2a", "3f2a9c10-0000-4000-8000-000000000001"],
  ])("%s", (_name, given, expected) => {
    expect(outcome(given)).toBe(expected);
  });

  it("an ambiguous prefix names the candidates; none names what is waiting; an empty one is refused", () => {
    expect(outcome("3f2")).toBe(
      "usage: 3f2 is the start of 2 pending approvals: 3f2a9c10-0000-4000-8000-000000000001 (asker: PreToolUse Deploy); 3f2b7d20-0000-4000-8000-000000000002 (asker: PreToolUse Deploy); give more of the id",
    );
    expect(outcome("ff")).toMatch(
      /^not_found: no pending approval is ff or starts with it: waiting: 3f2a9c10-.* \(asker: PreToolUse Deploy\); 3f2b7d20-.*; a1b2c3d4-/,
    );
    expect(outcome("ff", [])).toBe("not_found: no pending approval is ff or starts with it: none is waiting (answered, or timed out)");
    expect(outcome("")).toMatch(/^usage: give the approval's id/);
    // Not a substring, not a suffix.
    expect(outcome("0003")).toMatch(/^not_found: /);
  });
});
