import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { formatDiagnostic } from "../../src/hooks/config/diagnostics.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { dispatchEnv } from "../helpers/dispatch-env.ts";
import { createEngine } from "../helpers/sandbox.ts";

/**
 * The repository hooks template's three example hooks (seeds/000 §3), written as the template
 * writes them — id, event_type, enabled, summary, effects — with TypeScript handlers in place of
 * its scripts, returning its result shapes. Each must load and do what the template describes.
 */
const SKILL_YAML = `id: skill_activation_prompt
event_type: UserPromptSubmit
enabled: true
summary: >
  Read the incoming user message, cross-check it against the ability
  pool, and suggest a small set of abilities that are likely useful.
handler: ./skill_activation_prompt.ts
effects:
  - suggest_abilities
  - optionally_emit_structured_intent
`;

const SKILL_TS = `
const POOL = [
  { id: "billing_regression", words: ["billing", "regression"], reason: "Matches 'billing regression tests' and regression workflow scope" },
  { id: "code_review_agent", words: ["review"], reason: "Asks for a review" },
];
export default (event: { user_message?: string; prompt?: string }) => {
  const text = String(event.user_message ?? event.prompt ?? "").toLowerCase();
  const hits = POOL.filter((a) => a.words.every((w) => text.includes(w)));
  if (hits.length === 0) return undefined;
  return {
    suggested_abilities: hits.map((a) => ({ id: a.id, reason: a.reason, confidence: 0.9 })),
    messages_to_user: ["You can run the billing regression workflow ability to execute the full suite."],
    new_intent: { intent: "run_tests", scope: "billing" },
  };
};
`;

const TRACKER_YAML = `id: post_tool_use_tracker
event_type: PostAbilityCall
enabled: true
summary: >
  After each ability call, append a concise record to a log file and
  update a lightweight usage cache for later analysis.
match:
  # Optional filters; omit if this hook should see all calls
  ability_scope: "*"
  min_duration_ms: 0
handler: ./post_tool_use_tracker.ts
effects:
  - append_to: .system/logs/tool_call.md
  - update_usage_cache: .system/cache/ability_usage.json
`;

const TRACKER_TS = `
export default (event: { ability_id?: string; tool_name?: string; status?: string; duration_ms?: number }) => {
  const ability = event.ability_id ?? event.tool_name ?? "unknown";
  return {
    logs: [{ level: "info", message: "Logged " + ability + " usage to tool_call.md" }],
    usage_recorded: true,
    update_matcher_suggestions: [{ ability_id: ability, signal: "frequent_usage", weight: 0.7 }],
  };
};
`;

const BUILD_YAML = `id: session_stop_build_check
event_type: SessionStop
enabled: true  # the template ships it off (opt-in); this repository opts in
summary: >
  On session stop, run lightweight build or test commands for changed
  services and summarize any blocking issues.
match:
  only_if_changed_paths:
    - "services/**"
    - "apps/**"
handler: ./session_stop_build_check.ts
config:
  only_if_changed_paths: ["services/", "apps/"]
effects:
  - run_local_build_checks
  - summarize_errors_to_user
`;

// The template's match.only_if_changed_paths selects the stop on its changed_files; the handler
// still needs to know which of them are a service's (its config) to pick the builds.
const BUILD_TS = `
export default (event: { changed_files?: string[] }, hook: { config: { only_if_changed_paths: string[] } }) => {
  const prefixes = hook.config.only_if_changed_paths;
  const changed = (event.changed_files ?? []).filter((f) => prefixes.some((p) => f.startsWith(p)));
  if (changed.length === 0) return undefined;
  if (changed.some((f) => f.includes("/forbidden/"))) return { error: "blocked_by_policy" };
  const broken = changed.find((f) => f.endsWith("invoice.ts"));
  if (!broken) return { logs: [{ level: "info", message: "build passed for " + changed.length + " changed files" }] };
  return {
    messages_to_user: [
      "I ran \`npm run build:billing\` for the modified billing service.",
      "The build failed: TypeScript error in " + broken + ":123.",
      "Recommend fixing the error before merging.",
    ],
    follow_up_actions: [{ kind: "open_file", path: broken }],
  };
};
`;

let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

async function templateHooks() {
  const env = await dispatchEnv(engine, {
    hooks: [SKILL_YAML, TRACKER_YAML, BUILD_YAML],
    files: {
      "skill_activation_prompt.ts": SKILL_TS,
      "post_tool_use_tracker.ts": TRACKER_TS,
      "session_stop_build_check.ts": BUILD_TS,
    },
  });
  expect(env.registry.current().diagnostics.map(formatDiagnostic)).toEqual([]);
  expect(
    env.registry
      .current()
      .hooks.map((h) => h.definition.id)
      .sort(),
  ).toEqual(["post_tool_use_tracker", "session_stop_build_check", "skill_activation_prompt"]);
  return env;
}

describe("the repository hooks template's example hooks", () => {
  it("skill activation prompt: suggests abilities (objects, with the hook's id), a message to the user and a structured intent", async () => {
    const { dispatcher } = await templateHooks();
    const outcome = await dispatcher.handle(
      parseEvent({
        event_type: "UserPromptSubmit",
        session_id: "sess-789",
        user_message: "I need to run the full billing regression tests",
        files_touched: [],
        stage: "understand",
      }),
    );
    expect(outcome.decision).toMatchObject({
      decision: "allow",
      suggested_abilities: [
        {
          id: "billing_regression",
          reason: "Matches 'billing regression tests' and regression workflow scope",
          confidence: 0.9,
          hook_id: "skill_activation_prompt",
        },
      ],
      new_intent: { intent: "run_tests", scope: "billing", hook_id: "skill_activation_prompt" },
      user_messages: [
        {
          hook_id: "skill_activation_prompt",
          level: "info",
          message: "You can run the billing regression workflow ability to execute the full suite.",
        },
      ],
    });
    const quiet = await dispatcher.handle(parseEvent({ event_type: "UserPromptSubmit", session_id: "s", user_message: "hello" }));
    expect(quiet.decision.suggested_abilities).toBeUndefined();
  });

  it("post-tool-use tracker: runs on PostAbilityCall, its object logs reach the audit with their level, its usage and matcher signals are recorded", async () => {
    const { dispatcher } = await templateHooks();
    const outcome = await dispatcher.handle(
      parseEvent({
        event_type: "PostAbilityCall",
        session_id: "sess-123",
        ability_id: "code_review_agent",
        operation_key: "agent.code_review",
        status: "success",
        duration_ms: 124000,
      }),
    );
    expect(outcome.decision.decision).toBe("allow");
    const record = outcome.records.find((r) => r.hook_id === "post_tool_use_tracker");
    expect(record?.status).toBe("completed");
    expect(record?.logs).toContainEqual(expect.objectContaining({ level: "info", message: "Logged code_review_agent usage to tool_call.md" }));
    expect(record?.notes).toEqual(["matcher suggestion: code_review_agent frequent_usage (weight 0.7)", "usage_recorded: true"]);
  });

  it("session stop build check: on changed services, messages and follow-up actions; nothing for other paths; error blocks as a deny", async () => {
    const { dispatcher } = await templateHooks();
    const stop = (files: string[]) => dispatcher.handle(parseEvent({ event_type: "SessionStop", session_id: "sess-456", changed_files: files }));

    const failed = await stop(["services/billing/src/invoice.ts", "services/billing/src/line_item.ts"]);
    expect(failed.records.map((r) => [r.hook_id, r.status, r.reason])).toEqual([["session_stop_build_check", "completed", undefined]]);
    expect(failed.decision).toMatchObject({
      decision: "allow",
      follow_up_actions: [{ kind: "open_file", payload: { path: "services/billing/src/invoice.ts" }, hook_id: "session_stop_build_check" }],
    });
    expect(failed.decision.user_messages.map((m) => m.message)).toEqual([
      "I ran `npm run build:billing` for the modified billing service.",
      "The build failed: TypeScript error in services/billing/src/invoice.ts:123.",
      "Recommend fixing the error before merging.",
    ]);

    const elsewhere = await stop(["docs/readme.md"]);
    expect(elsewhere.decision.user_messages).toEqual([]);
    expect(elsewhere.decision.follow_up_actions).toBeUndefined();
    // match.only_if_changed_paths: the hook did not run at all.
    expect(elsewhere.decision.runs).toEqual([]);

    const blocked = await stop(["services/forbidden/x.ts"]);
    expect(blocked.decision).toMatchObject({ decision: "deny", decided_by: "session_stop_build_check" });
    expect(blocked.decision.reason).toContain("blocked_by_policy");
  });

  it("enabled: false (as the template ships the build check) keeps a hook from running", async () => {
    const env = await dispatchEnv(engine, {
      hooks: [BUILD_YAML.replace("enabled: true", "enabled: false")],
      files: { "session_stop_build_check.ts": BUILD_TS },
    });
    const outcome = await env.dispatcher.handle(
      parseEvent({ event_type: "SessionStop", session_id: "s", changed_files: ["services/billing/src/invoice.ts"] }),
    );
    expect(outcome.decision.runs).toEqual([]);
    expect(outcome.decision.user_messages).toEqual([]);
  });
});
