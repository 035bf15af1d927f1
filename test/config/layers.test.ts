import { describe, expect, it } from "vitest";
import { parseYaml } from "../../src/hooks/config/diagnostics.ts";
import type { LayeredOperator } from "../../src/hooks/config/layers.ts";
import { applySystemLayer } from "../../src/decide/system-layer.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";

/** The system policy and a user's operator file as written, merged (hooks/config/layers.ts; fail_closed by decide/rule.ts). */
function merge(systemYaml: string, userYaml: string, systemHookIds: readonly string[] = []): LayeredOperator {
  const parse = (text: string, file: string) => {
    const parsed = parseYaml(text, file, operatorFileSchema);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
    return { file, baseDir: file.slice(0, file.lastIndexOf("/")), operator: parsed.value, written: parsed.input };
  };
  const system = parse(systemYaml || "{}", "/etc/hookbox/hookbox.yaml");
  const { operator, layers } = applySystemLayer(
    { kind: "ok", layer: system, hookIds: new Set(systemHookIds) },
    parse(userYaml || "{}", "/home/u/.config/hookbox/hookbox.yaml"),
  );
  return { operator, origins: layers.origins, ignored: layers.ignored };
}

const ignored = (merged: LayeredOperator): string[] => merged.ignored.map((line) => line.setting);

describe("the system policy and a user's operator file: the user may add, never weaken", () => {
  it("a guard the system enables stays on, whatever the user's file says of it", () => {
    const merged = merge(
      "builtin: [guard-secrets]",
      "hooks:\n  guard-secrets: { enabled: false, cooldown_seconds: 60, config: { exceptions: ['.env'] } }\n  self-protect: { enabled: false }",
    );
    expect(merged.operator.builtin).toEqual(["guard-secrets"]);
    expect(merged.operator.hooks["guard-secrets"]).toBeUndefined();
    expect(merged.operator.hooks["self-protect"]).toBeUndefined();
    expect(ignored(merged)).toEqual([
      "hooks.guard-secrets.enabled",
      "hooks.guard-secrets.cooldown_seconds",
      "hooks.guard-secrets.config",
      "hooks.self-protect.enabled",
    ]);
  });

  it("a system guard cannot be put in shadow mode by the user's file (hooks.<id>.mode: monitor); the user's own hooks can", () => {
    const merged = merge("builtin: [guard-secrets]", "hooks:\n  guard-secrets: { mode: monitor }\n  my-hook: { mode: monitor }");
    expect(merged.operator.hooks["guard-secrets"]).toBeUndefined();
    expect(merged.operator.hooks["my-hook"]).toEqual({ mode: "monitor" });
    expect(ignored(merged)).toEqual(["hooks.guard-secrets.mode"]);
  });

  it("escalation: the system's when it sets one, else the user's", () => {
    const system = "escalation: { after_denials: 3, answer: deny }";
    const user = "escalation: { after_denials: 50, answer: slow }";
    expect(merge(system, user).operator.escalation).toMatchObject({ after_denials: 3, answer: "deny" });
    expect(ignored(merge(system, user))).toEqual(["escalation"]);
    expect(merge("", user).operator.escalation).toMatchObject({ after_denials: 50, answer: "slow" });
  });

  it("the user may make a system hook stricter (on_error: deny), not looser", () => {
    expect(merge("builtin: [tool-ledger]", "hooks: { tool-ledger: { on_error: deny } }").operator.hooks["tool-ledger"]).toEqual({ on_error: "deny" });
    const looser = merge("builtin: [tool-ledger]\nhooks: { tool-ledger: { on_error: deny } }", "hooks: { tool-ledger: { on_error: continue } }");
    expect(looser.operator.hooks["tool-ledger"]).toEqual({ on_error: "deny" });
    expect(ignored(looser)).toEqual(["hooks.tool-ledger.on_error"]);
  });

  it("a hook of the system's hook directories is the system's too; the user's own hooks are the user's", () => {
    const merged = merge("hooks_dirs: [hooks]", "hooks:\n  corp-guard: { enabled: false }\n  my-hook: { priority: 5, enabled: false }", [
      "corp-guard",
    ]);
    expect(merged.operator.hooks["corp-guard"]).toBeUndefined();
    expect(merged.operator.hooks["my-hook"]).toEqual({ priority: 5, enabled: false });
    expect(merged.operator.hooks_dirs).toEqual(["/etc/hookbox/hooks"]);
  });

  it("builtin, hooks_dirs and deny: both files, the system's first; fail_closed from either", () => {
    const merged = merge(
      "builtin: [guard-secrets]\nhooks_dirs: [hooks]\ndeny: { read: ['/etc/shadow'] }\nfail_closed: true",
      "builtin: [bash-guard, guard-secrets]\nhooks_dirs: [mine]\ndeny: { read: ['${home}/.ssh/**'], net: [evil.example] }\nfail_closed: false",
    );
    expect(merged.operator.builtin).toEqual(["guard-secrets", "bash-guard"]);
    expect(merged.operator.hooks_dirs).toEqual(["/etc/hookbox/hooks", "/home/u/.config/hookbox/mine"]);
    expect(merged.operator.deny.read).toEqual(["/etc/shadow", "${home}/.ssh/**"]);
    expect(merged.operator.deny.net).toEqual(["evil.example"]);
    expect(merged.operator.fail_closed).toBe(true);
    expect(ignored(merged)).toEqual(["fail_closed"]);
    expect(merge("", "fail_closed: true").operator.fail_closed).toBe(true);
  });

  it("ceilings: the lower of each limit either file wrote; a default the user did not write lowers nothing", () => {
    const merged = merge(
      "ceilings: { limits: { cpu_ms: 400, timeout_ms: 3000 }, community_limits: { cpu_ms: 3000, timeout_ms: 9000 } }",
      "ceilings: { limits: { cpu_ms: 800, memory_mb: 16 } }",
    );
    expect(merged.operator.ceilings.limits).toEqual({ cpu_ms: 400, timeout_ms: 3000, memory_mb: 16 });
    expect(merged.operator.ceilings.community_limits).toEqual({ cpu_ms: 3000, timeout_ms: 9000 });
    expect(
      merge("ceilings: { community_limits: { cpu_ms: 3000 } }", "ceilings: { community_limits: { cpu_ms: 200 } }").operator.ceilings.community_limits,
    ).toMatchObject({ cpu_ms: 200 });
  });

  it("ceilings.permissions: a kind one file bounds is bounded; booleans and modify must be allowed by both; two grant lists keep the system's", () => {
    const merged = merge(
      "ceilings: { permissions: { read: ['${workspace}/**'], store: true, modify: [tool_input.command, prompt] } }",
      "ceilings: { permissions: { read: ['${workspace}/src/**'], net: [], store: false, modify: [prompt] } }",
    );
    expect(merged.operator.ceilings.permissions).toEqual({ read: ["${workspace}/**"], net: [], store: false, modify: ["prompt"] });
    expect(ignored(merged)).toEqual(["ceilings.permissions.read"]);
  });

  it("dispatch and the audit anchor are the system's; history is the larger; a daemon needs both to allow it", () => {
    const merged = merge(
      "audit: { keep_files: 10, system_log: { address: 'unix:/dev/log' } }\ndaemon: { auto_start: true }",
      "dispatch: { event_deadline_ms: 10 }\naudit: { keep_files: 2, max_file_mb: 128, system_log: { address: 'udp://127.0.0.1:9' } }\ndaemon: { auto_start: false }",
    );
    expect(merged.operator.dispatch.event_deadline_ms).toBe(60_000);
    expect(merged.operator.audit).toMatchObject({ keep_files: 10, max_file_mb: 128, system_log: { address: "unix:/dev/log" } });
    expect(merged.operator.daemon.auto_start).toBe(false);
    expect(ignored(merged)).toEqual(["dispatch", "audit.system_log"]);
  });

  it("llm: the system's endpoints keep their names; the user adds others", () => {
    const merged = merge(
      "llm: { default: { endpoint: 'http://127.0.0.1:8080/v1', api: openai, model: corp } }",
      "llm:\n  default: { endpoint: 'http://127.0.0.1:9999/v1', api: openai, model: mine }\n  extra: { endpoint: 'http://127.0.0.1:7777/v1', api: openai, model: x }",
    );
    expect(merged.operator.llm.default?.endpoint).toBe("http://127.0.0.1:8080/v1");
    expect(merged.operator.llm.extra?.endpoint).toBe("http://127.0.0.1:7777/v1");
    expect(ignored(merged)).toEqual(["llm.default"]);
  });

  it("says where each line comes from", () => {
    const merged = merge("builtin: [guard-secrets]\nfail_closed: true", "builtin: [tool-ledger]\ndeny: { env: [AWS_*] }");
    expect(merged.origins).toEqual(
      expect.arrayContaining([
        { setting: "builtin: guard-secrets", value: "guard-secrets", from: "system" },
        { setting: "builtin: tool-ledger", value: "tool-ledger", from: "user" },
        { setting: "deny.env: AWS_*", value: "AWS_*", from: "user" },
        { setting: "fail_closed", value: "true", from: "system" },
      ]),
    );
  });
});
