import { describe, expect, it } from "vitest";
import { operator, prepare, testHost } from "./helpers.ts";
import type { PermissionsConfig } from "../../src/capabilities/grants/schema.ts";
import type { OperatorFile } from "../../src/hooks/config/schema.ts";

const none: PermissionsConfig = { read: [], run: [], env: [], net: [], inject_context: false, store: false, modify: [], notify: false, llm: [] };

async function prepareErrors(permissions: Partial<PermissionsConfig>, op: OperatorFile = operator()): Promise<readonly string[]> {
  const result = await testHost().prepare({ hookId: "h", origin: "dir", file: "hooks/h/hook.yaml", permissions: { ...none, ...permissions } }, op);
  return result.ok ? [] : result.errors;
}

describe("prepare: grants parsed once, every problem reported with its file and field", () => {
  it("a summary line per grant, for hookbox list", async () => {
    const grants = await prepare(testHost(), {
      read: ["${workspace}/**"],
      run: [{ cmd: "git", args: ["diff", "--stat", "*"], env: [] }],
      env: ["HOME"],
      net: ["api.github.com"],
      inject_context: true,
      store: true,
    });
    expect(grants.hookId).toBe("test-hook");
    expect(grants.summary).toEqual([
      "read ${workspace}/**",
      expect.stringMatching(/^run \/.*\/git diff --stat \*$/),
      "env HOME",
      "net api.github.com",
      "inject_context",
      "store",
    ]);
    expect(Object.isFrozen(grants)).toBe(true);
  });

  it("all problems at once", async () => {
    const errors = await prepareErrors({
      read: ["${HOME}/x", "${workspace}/../**"],
      run: [
        { cmd: "./bin/tool", args: ["**"], env: [] },
        { cmd: "git", args: ["**", "x"], env: [] },
        { cmd: "git", args: ["**"], env: ["LD_PRELOAD"] },
      ],
      net: ["*.10.0.0.1"],
    });
    expect(errors).toEqual([
      'hooks/h/hook.yaml: permissions.read[0] "${HOME}/x": unknown variable ${HOME} (use ${workspace} or ${home})',
      'hooks/h/hook.yaml: permissions.read[1] "${workspace}/../**": ".." is not allowed in a path grant (it would reach outside its root)',
      'hooks/h/hook.yaml: permissions.run[0].cmd: "./bin/tool": use a command name (looked up on PATH) or an absolute path',
      'hooks/h/hook.yaml: permissions.run[1].args: "**" may only be the last argument pattern (it matches all remaining arguments)',
      "hooks/h/hook.yaml: permissions.run[2].env: LD_* variables change what a program loads or runs; it can never be passed to a command",
      'hooks/h/hook.yaml: permissions.net[0] "*.10.0.0.1": a wildcard applies to domain names, not addresses',
    ]);
  });

  it("the operator file's own mistakes fail closed, named", async () => {
    const errors = await prepareErrors({}, operator({ deny: { read: ["${nope}/**"] } }));
    expect(errors).toEqual(['hookbox.yaml deny.read[0] "${nope}/**": unknown variable ${nope} (use ${workspace} or ${home})']);
  });

  it("an operator command missing on this machine only narrows: no error", async () => {
    expect(
      await prepareErrors({}, operator({ deny: { run: ["no-such-tool-xyz"] }, ceilings: { run: [{ cmd: "also-missing", args: ["**"], env: [] }] } })),
    ).toEqual([]);
  });

  it("grants from another host are refused", async () => {
    const grants = await prepare(testHost(), {});
    expect(() => testHost().forInvocation(grants, { event_type: "x", session_id: "s", timestamp: "" })).toThrow(
      /not prepared by this capability host/,
    );
    expect(() => testHost().forInvocation({ hookId: "forged", summary: [] }, { event_type: "x", session_id: "s", timestamp: "" })).toThrow();
  });
});
