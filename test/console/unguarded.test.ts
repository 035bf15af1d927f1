import { describe, expect, it } from "vitest";
import { unguardedWarnings } from "../../src/serve/console/unguarded.ts";
import type { HookSets, ProjectHookSet } from "../../src/decide/hook-sets.ts";
import { decisionRecord } from "../audit/fixtures.ts";
import { consoleUnderTest } from "./helpers.ts";

type Hook = { id: string; events?: string[]; enabled?: boolean; mode?: "monitor" };

/** A hook set as the daemon holds one: only what the warning reads (each hook's id, events, switch and source). */
function set(project: string | undefined, hooks: Hook[], { selfProtect = true, operator = "ok" } = {}): ProjectHookSet {
  return {
    project,
    snapshot: {
      hooks: hooks.map((h) => ({
        file: `/hooks/${h.id}.yaml`,
        definition: {
          id: h.id,
          events: h.events ?? ["PreToolUse"],
          enabled: h.enabled ?? true,
          mode: h.mode ?? "enforce",
          source: { origin: "user" },
        },
      })),
      operator: { builtin: selfProtect ? ["self-protect"] : [], hooks: {} },
      operatorStatus: { state: operator },
    },
  } as unknown as ProjectHookSet;
}

function sets(loaded: ProjectHookSet[], fallback = set(undefined, [])): Pick<HookSets, "projects" | "ifLoaded" | "forProject"> {
  return {
    projects: () => loaded.map((s) => s.project),
    ifLoaded: async (project) => loaded.find((s) => s.project === project),
    forProject: async () => fallback,
  };
}

describe("the console's no-guard warning", () => {
  it("names each served project with no guard but self-protect, and the agents whose events came from it", async () => {
    const warnings = await unguardedWarnings(
      sets([
        set("/w/a", [{ id: "self-protect" }]),
        set("/w/b", [{ id: "self-protect" }, { id: "guard-secrets" }]),
        set("/w/c", [{ id: "self-protect" }, { id: "lint", events: ["PostToolUse"] }, { id: "off", enabled: false }]),
      ]),
      [
        decisionRecord({ project: "/w/a", agent: "claude" }),
        decisionRecord({ project: "/w/a", agent: "gemini" }),
        decisionRecord({ project: "/w/b", agent: "codex" }),
      ],
      "/h/.config/hookbox/hookbox.yaml",
    );
    expect(warnings).toEqual([
      "Project /w/a (claude, gemini) is protected by nothing but self-protect: no guard checks its tool calls (a write to .env, rm -rf ~, curl … | sh all go through). Enable the standard guards in /h/.config/hookbox/hookbox.yaml: builtin: [guard-secrets, bash-guard] (hookbox list --builtin shows every one)",
      expect.stringMatching(/^Project \/w\/c is protected by nothing but self-protect/),
    ]);
  });

  it("a guard in shadow mode (mode: monitor) guards nothing: its project is warned about", async () => {
    const warnings = await unguardedWarnings(sets([set("/w/m", [{ id: "self-protect" }, { id: "guard-secrets", mode: "monitor" }])]), [], "/op.yaml");
    expect(warnings).toEqual([expect.stringMatching(/^Project \/w\/m is protected by nothing but self-protect/)]);
  });

  it("with nothing loaded yet, judges the set every project starts from; self-protect off is said; an unusable operator file is not this warning", async () => {
    expect(await unguardedWarnings(sets([], set(undefined, [], { selfProtect: false })), [], "/op.yaml")).toEqual([
      expect.stringMatching(/^Every project is protected by nothing at all \(self-protect is off too\)/),
    ]);
    expect(await unguardedWarnings(sets([], set(undefined, [{ id: "bash-guard" }])), [], "/op.yaml")).toEqual([]);
    expect(await unguardedWarnings(sets([set("/w/a", [], { operator: "unusable" })]), [], "/op.yaml")).toEqual([]);
  });

  it("is shown atop every page, as text", async () => {
    const { request, signIn } = consoleUnderTest([], undefined, ["Project /w/<a> is protected by nothing but self-protect"]);
    const { cookie } = await signIn();
    for (const path of ["/", "/approvals", "/hooks", "/health"]) {
      const page = await (await request(path, { headers: { cookie } })).text();
      expect(page, path).toContain(
        '<div class="alert" role="alert"><strong>No guard.</strong><p>Project /w/&lt;a&gt; is protected by nothing but self-protect</p></div>',
      );
    }
    const quiet = consoleUnderTest();
    const session = await quiet.signIn();
    expect(await (await quiet.request("/", { headers: { cookie: session.cookie } })).text()).not.toContain('role="alert"');
  });
});
