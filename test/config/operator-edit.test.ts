import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { withHookMode } from "../../src/hooks/config/operator-edit.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";

/** `add --monitor` and `promote` edit the operator file's text: the mode only, the rest as it was. */
describe("withHookMode", () => {
  it("marks a hook in shadow mode beside its other settings, comments kept", () => {
    const text = "# mine\nbuiltin: [guard-secrets] # the guards\nhooks:\n  guard-secrets:\n    config: { exceptions: [a] }\n";
    const edited = withHookMode(text, "guard-secrets", "monitor");
    expect(edited).toContain("# mine");
    expect(edited).toContain("# the guards");
    expect(operatorFileSchema.parse(parse(edited)).hooks["guard-secrets"]).toEqual({ config: { exceptions: ["a"] }, mode: "monitor" });
  });

  it("into no file at all, and into a file without hooks", () => {
    expect(parse(withHookMode(undefined, "deny-env", "monitor"))).toEqual({ hooks: { "deny-env": { mode: "monitor" } } });
    expect(parse(withHookMode("builtin: [bash-guard]\n", "deny-env", "monitor"))).toEqual({
      builtin: ["bash-guard"],
      hooks: { "deny-env": { mode: "monitor" } },
    });
  });

  it("takes the mode out, and an entry (and hooks) left empty with it; other settings stay", () => {
    const only = withHookMode("builtin: [guard-secrets]\nhooks:\n  guard-secrets: { mode: monitor }\n", "guard-secrets", undefined);
    expect(parse(only)).toEqual({ builtin: ["guard-secrets"] });
    const more = withHookMode(
      "hooks:\n  guard-secrets: { mode: monitor, on_error: deny }\n  other: { enabled: false }\n",
      "guard-secrets",
      undefined,
    );
    expect(parse(more)).toEqual({ hooks: { "guard-secrets": { on_error: "deny" }, other: { enabled: false } } });
  });

  it("mode is checked like every other key: a typo is an error, not a silent enforce", () => {
    expect(operatorFileSchema.safeParse({ hooks: { g: { mode: "monitr" } } }).success).toBe(false);
    expect(operatorFileSchema.safeParse({ hooks: { g: { mode: "enforce" } } }).success).toBe(true);
  });
});
