import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { formatDiagnostic } from "../../src/hooks/config/diagnostics.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { removeDir, tempDir, testHost } from "../capabilities/helpers.ts";
import { dispatchEnv } from "../helpers/dispatch-env.ts";
import { createEngine } from "../helpers/sandbox.ts";

/**
 * Hooks written in YAML alone (the seed engine's context steps, skip conditions and templates),
 * run through the dispatcher with the real capabilities: each step is a host call made with the
 * hook's own grants.
 */
let engine: SandboxEngine;
let ws: string;
let bin: string;

beforeAll(async () => {
  engine = await createEngine();
  ws = tempDir("hookbox-steps-");
  bin = `${ws}/bin`;
  mkdirSync(bin);
  // A stand-in test runner that prints pytest's output; it fails when the file FAIL exists.
  writeFileSync(
    `${bin}/pytest`,
    `#!/bin/sh
if [ -f "${ws}/FAIL" ]; then
  echo "FAILED tests/test_billing.py::test_invoice_total - assert 3 == 4"
  echo "FAILED tests/test_billing.py::test_line_items"
  echo "========== 2 failed, 5 passed in 0.12s =========="
  exit 1
fi
echo "========== 7 passed in 0.10s =========="
`,
  );
  chmodSync(`${bin}/pytest`, 0o755);
  writeFileSync(`${bin}/echo-args`, `#!/bin/sh\nfor a in "$@"; do echo "[$a]"; done\n`);
  chmodSync(`${bin}/echo-args`, 0o755);
  mkdirSync(`${ws}/docs`);
  writeFileSync(`${ws}/docs/a.md`, "# A\nline two\nline three\n");
  writeFileSync(`${ws}/docs/.draft.md`, "hidden");
});
afterAll(() => {
  engine.dispose();
  removeDir(ws);
});

async function env(hooks: Record<string, unknown>[]) {
  const built = await dispatchEnv(engine, { hooks }, testHost({ env: { PATH: `${bin}:/usr/bin:/bin` } }));
  expect(built.registry.current().diagnostics.map(formatDiagnostic)).toEqual([]);
  return built;
}

const testsHook = {
  id: "tests-on-stop",
  events: ["Stop"],
  permissions: { run: [{ cmd: "pytest", args: ["**"] }], inject_context: true },
  limits: { timeout_ms: 20_000 },
  steps: [{ type: "run_tests", command: "pytest -q", skip_if: "exit_zero" }],
  then: {
    context_injection: "The tests fail ({{step_0.test_count}} run): {{step_0.failures}}",
    user_message: "tests failed: exit {{step_0.exit_code}}",
  },
};

describe("declarative hooks: steps, conditions, result template", () => {
  it("run_tests with skip_if: exit_zero is skipped (with its reason, no result) when the tests pass, and injects the failures when they fail", async () => {
    const { dispatcher } = await env([testsHook]);
    const stop = parseEvent({ event_type: "Stop", session_id: "s", cwd: ws });

    const passing = await dispatcher.handle(stop);
    expect(passing.decision.runs).toEqual([
      expect.objectContaining({ hook_id: "tests-on-stop", status: "skipped", reason: "step_0: exit code 0 (skip_if: exit_zero)" }),
    ]);
    expect(passing.decision.context_injections).toEqual([]);
    const skipped = passing.records[0];
    expect(skipped?.steps).toEqual([expect.objectContaining({ exit_code: 0, passed: true, test_count: 7, failures: [], _step_index: 0 })]);

    writeFileSync(`${ws}/FAIL`, "");
    try {
      const failing = await dispatcher.handle(stop);
      expect(failing.decision.runs[0]).toMatchObject({ status: "completed" });
      expect(failing.decision.context_injections).toEqual([
        {
          hook_id: "tests-on-stop",
          role: "system",
          content: 'The tests fail (7 run): ["tests/test_billing.py::test_invoice_total","tests/test_billing.py::test_line_items"]',
        },
      ]);
      expect(failing.decision.user_messages).toEqual([{ hook_id: "tests-on-stop", level: "info", message: "tests failed: exit 1" }]);
    } finally {
      removeDir(`${ws}/FAIL`);
    }
  });

  it("the seed's spelling skip_llm_if_exit_zero means the same", async () => {
    const { dispatcher } = await env([{ ...testsHook, steps: [{ type: "run_tests", command: "pytest", skip_llm_if_exit_zero: true }] }]);
    const outcome = await dispatcher.handle(parseEvent({ event_type: "Stop", session_id: "s", cwd: ws }));
    expect(outcome.decision.runs[0]).toMatchObject({ status: "skipped", reason: "step_0: exit code 0 (skip_if: exit_zero)" });
  });

  it("then: a deny whose reason comes from a step; placeholders of the event and the steps before it", async () => {
    const { dispatcher } = await env([
      {
        id: "read-and-deny",
        events: ["PreToolUse"],
        permissions: { read: ["${workspace}/**"] },
        steps: [
          { type: "read_file", path: "docs/{{event.tool_input.name}}", max_lines: 2 },
          { type: "list_files", path: "docs" },
        ],
        then: { action: "deny", reason: "{{step_0}} | {{step_1.count}} file(s): {{step_1.content}} | {{unknown.thing}}" },
      },
    ]);
    const outcome = await dispatcher.handle(
      parseEvent({ event_type: "PreToolUse", session_id: "s", cwd: ws, tool_name: "Write", tool_input: { name: "a.md" } }),
    );
    expect(outcome.decision).toMatchObject({
      decision: "deny",
      reason: "# A\nline two | 1 file(s): docs/a.md | {{unknown.thing}}",
      decided_by: "read-and-deny",
    });
    const listed = (outcome.records[0]?.steps as { files?: { path: string; size: number; mtime: number }[] }[])[1]?.files;
    expect(listed).toEqual([{ path: "docs/a.md", size: 24, mtime: expect.any(Number) }]);
  });

  it("a shell step's placeholder is one argument, whatever it holds", async () => {
    const { dispatcher } = await env([
      {
        id: "args",
        events: ["UserPromptSubmit"],
        permissions: { run: [{ cmd: "echo-args", args: ["**"] }] },
        steps: [{ type: "shell", command: "echo-args one '{{event.prompt}}' {{event.prompt}}" }],
        then: { reason: "{{step_0.stdout}}" },
      },
    ]);
    const outcome = await dispatcher.handle(parseEvent({ event_type: "UserPromptSubmit", session_id: "s", cwd: ws, prompt: "two words --flag" }));
    expect(outcome.decision.runs[0], JSON.stringify(outcome.records[0])).toMatchObject({ reason: "[one]\n[two words --flag]\n[two words --flag]\n" });
  });

  it("when and skip_if judge the steps' results; each skip says which condition", async () => {
    const conditions = (when: unknown[], skipIf: unknown[]) => ({
      id: "gate",
      events: ["UserPromptSubmit"],
      permissions: { read: ["${workspace}/**"] },
      steps: [{ type: "list_files", path: "docs", hidden: true }],
      when,
      skip_if: skipIf,
      then: { reason: "{{step_0.count}}" },
    });
    const prompt = parseEvent({ event_type: "UserPromptSubmit", session_id: "s", cwd: ws, prompt: "go" });
    const ran = await (await env([conditions([{ value: "{{step_0.count}}", equals: 2 }], [])])).dispatcher.handle(prompt);
    expect(ran.decision.runs[0]).toMatchObject({ status: "completed", reason: "2" });
    const notWhen = await (await env([conditions([{ value: "{{event.prompt}}", matches: "^deploy" }], [])])).dispatcher.handle(prompt);
    expect(notWhen.decision.runs[0]).toMatchObject({
      status: "skipped",
      reason: 'when[0] does not hold: {{event.prompt}} is "go", matches "^deploy"',
    });
    const skipIf = await (await env([conditions([], [{ value: "{{step_0.content}}", empty: false }])])).dispatcher.handle(prompt);
    expect(skipIf.decision.runs[0]).toMatchObject({ status: "skipped" });
    expect(skipIf.decision.runs[0]?.reason).toMatch(
      /^skip_if\[0\] holds: \{\{step_0\.content\}\} is "docs\/\.draft\.md\\ndocs\/a\.md", empty: false$/,
    );
  });

  it("a step the hook may not make fails the hook (its on_error applies), never an empty result", async () => {
    const { dispatcher } = await env([
      {
        id: "ungranted",
        events: ["PreToolUse"],
        on_error: "deny",
        steps: [{ type: "read_file", path: "docs/a.md" }],
        then: { reason: "{{step_0}}" },
      },
    ]);
    const outcome = await dispatcher.handle(parseEvent({ event_type: "PreToolUse", session_id: "s", cwd: ws, tool_name: "Bash", tool_input: {} }));
    expect(outcome.decision.decision).toBe("deny");
    expect(outcome.decision.runs[0]).toMatchObject({ status: "failed", error_code: "capability_denied" });
    expect(outcome.decision.runs[0]?.reason).toMatch(/^step_0 \(read_file\): hook ungranted: hook\.readFile\("docs\/a\.md"\) is not granted/);
  });

  it("a step that fails otherwise is a result with its error, as in the seed", async () => {
    const { dispatcher } = await env([
      {
        id: "missing",
        events: ["PreToolUse"],
        permissions: { read: ["${workspace}/**"] },
        steps: [{ type: "read_file", path: "nope.txt" }],
        then: { reason: "[{{step_0.error}}]" },
      },
    ]);
    const outcome = await dispatcher.handle(parseEvent({ event_type: "PreToolUse", session_id: "s", cwd: ws, tool_name: "Bash", tool_input: {} }));
    expect(outcome.decision.runs[0]).toMatchObject({ status: "completed" });
    expect(outcome.decision.runs[0]?.reason).toBe("[hook.readFile failed: no such file or directory (ENOENT)]");
  });

  it("steps and a TypeScript handler together: the handler finds the results in event.steps", async () => {
    const { dispatcher } = await env([
      {
        id: "combined",
        events: ["Stop"],
        permissions: { run: [{ cmd: "pytest", args: ["**"] }] },
        limits: { timeout_ms: 20_000 },
        steps: [{ type: "run_tests", command: "pytest" }],
        handler: {
          code: "export default (e) => ({ reason: `${e.steps.length} step, passed=${e.steps[0].passed}, ${e.steps[0].test_count} tests`, messages_to_user: ['from the handler'] })",
        },
      },
    ]);
    const outcome = await dispatcher.handle(parseEvent({ event_type: "Stop", session_id: "s", cwd: ws }));
    expect(outcome.decision.runs[0]).toMatchObject({ status: "completed", reason: "1 step, passed=true, 7 tests" });
    expect(outcome.decision.user_messages).toEqual([{ hook_id: "combined", level: "info", message: "from the handler" }]);
  });

  it("the schema: then without a handler only, unsupported seed steps named, skip tests that cannot apply refused", async () => {
    const { registry } = await dispatchEnv(engine, {
      hooks: [
        { id: "both", events: ["Stop"], handler: { code: "export default () => ({})" }, then: { reason: "x" } },
        { id: "db", events: ["Stop"], steps: [{ type: "db_query", query: "recent_events" }] },
        { id: "wrong-skip", events: ["Stop"], steps: [{ type: "read_file", path: "a", skip_if: "exit_zero" }] },
        { id: "nothing", events: ["Stop"] },
      ],
    });
    const problems = registry.current().diagnostics.map(formatDiagnostic).join("\n");
    expect(problems).toContain("then is the result of a hook without a handler");
    expect(problems).toContain("step type db_query is not supported: Hookbox has no application database");
    expect(problems).toContain("exit_zero does not apply to a read_file step (it can skip on: empty)");
    expect(problems).toContain("missing: a handler (./handler.ts), or steps and then for a hook written in YAML alone");
  });
});
