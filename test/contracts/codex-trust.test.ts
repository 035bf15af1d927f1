import { describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import { HookboxError } from "../../src/core/errors.ts";
import { codexTrustEntries, planCodexTrust, planCodexUntrust, recordedTrust, untrustedEntries } from "../../src/agents/codex/trust.ts";

const SOURCE = "/home/dev/.codex/hooks.json";
const HOOKS = JSON.stringify({
  hooks: {
    PreToolUse: [
      { matcher: "Bash", hooks: [{ type: "command", command: "python3 .codex/guard.py", timeout: 10 }] },
      { hooks: [{ type: "command", command: "/home/dev/bin/hookbox emit PreToolUse --agent codex", timeout: 120 }] },
    ],
    Stop: [{ matcher: "ignored for Stop", hooks: [{ type: "command", command: "./check.sh", statusMessage: "Running tests" }] }],
    SessionEnd: [{ hooks: [{ type: "command", command: "/home/dev/bin/hookbox emit SessionEnd --agent codex", timeout: 3 }] }],
  },
});

/**
 * The hashes the e2e harness recorded before this module existed, which real Codex 0.169.0
 * accepted (test/e2e/agents/codex-hookbox.test.ts): a matcher kept, a matcher Codex drops (Stop),
 * a statusMessage, SessionEnd's clamped timeout.
 */
const PROVEN: Readonly<Record<string, string>> = {
  [`${SOURCE}:pre_tool_use:0:0`]: "sha256:2aecb85c9f8c4125b32a460f6e922402399127b39add61d8207c550f3c494abf",
  [`${SOURCE}:pre_tool_use:1:0`]: "sha256:733731df6c1a505d61fb1cfa9f421c416e496340330d3ece64a6004fe74d87ac",
  [`${SOURCE}:stop:0:0`]: "sha256:724c00eec01efe009264bb610d26a2f6e0cf2dacd684261ac0b40f0f89e7ff49",
  [`${SOURCE}:session_end:0:0`]: "sha256:a65bb726d3a39de6f1e3cd1241971087ee412206ab759a47cde0bf4c4b570f8f",
};

describe("Codex's hook trust (what /hooks records in $CODEX_HOME/config.toml)", () => {
  it("computes the keys and hashes Codex accepts, for the handlers selected", async () => {
    const all = await codexTrustEntries(SOURCE, HOOKS, () => true);
    expect(Object.fromEntries(all.map((entry) => [entry.key, entry.hash]))).toEqual(PROVEN);
    const hookbox = await codexTrustEntries(SOURCE, HOOKS, (_event, handler) => String(handler.command).includes("hookbox emit"));
    expect(hookbox.map((entry) => entry.event)).toEqual(["PreToolUse", "SessionEnd"]);
  });

  it("a changed command line is another hash: trusted once is not trusted after", async () => {
    const [before] = await codexTrustEntries(SOURCE, HOOKS, (event) => event === "SessionEnd");
    const [after] = await codexTrustEntries(
      SOURCE,
      HOOKS.replace("emit SessionEnd --agent codex", "emit SessionEnd --agent codex; curl evil"),
      (event) => event === "SessionEnd",
    );
    expect(after?.key).toBe(before?.key);
    expect(after?.hash).not.toBe(before?.hash);
  });

  it("reads what config.toml records, and tells what is missing or stale", async () => {
    const entries = await codexTrustEntries(SOURCE, HOOKS, () => true);
    const config = `model = "gpt-5.5"\n\n[hooks.state."${SOURCE}:pre_tool_use:0:0"]\ntrusted_hash = "${PROVEN[`${SOURCE}:pre_tool_use:0:0`]}"\n\n[hooks.state."${SOURCE}:stop:0:0"]\ntrusted_hash = "sha256:old"\n`;
    const recorded = recordedTrust(config, "config.toml");
    expect(untrustedEntries(entries, recorded).map((entry) => entry.key)).toEqual([
      `${SOURCE}:pre_tool_use:1:0`,
      `${SOURCE}:stop:0:0`,
      `${SOURCE}:session_end:0:0`,
    ]);
    expect(recordedTrust(undefined, "config.toml").size).toBe(0);
    expect(() => recordedTrust("model = [", "/home/dev/.codex/config.toml")).toThrow(/config\.toml is not valid TOML/);
  });
});

describe("recording trust in config.toml (install-agent codex --trust)", () => {
  const entriesOf = () => codexTrustEntries(SOURCE, HOOKS, (_event, handler) => String(handler.command).includes("hookbox emit"));

  it("appends a table per entry to a config with the user's own settings and comments, which stay as they were", async () => {
    const existing = '# my codex\nmodel = "gpt-5.5" # fast\n\n[model_providers.mock]\nbase_url = "http://127.0.0.1:1/v1"\n';
    const plan = planCodexTrust(existing, await entriesOf(), "config.toml");
    expect(plan.changed).toBe(true);
    expect(plan.text.startsWith(existing)).toBe(true);
    const parsed = parse(plan.text) as { model: string; model_providers: unknown; hooks: { state: Record<string, { trusted_hash: string }> } };
    expect(parsed.model).toBe("gpt-5.5");
    expect(parsed.hooks.state[`${SOURCE}:session_end:0:0`]?.trusted_hash).toBe(PROVEN[`${SOURCE}:session_end:0:0`]);
    expect(plan.summary).toEqual([
      "+ trusted PreToolUse: `/home/dev/bin/hookbox emit PreToolUse --agent codex`",
      "+ trusted SessionEnd: `/home/dev/bin/hookbox emit SessionEnd --agent codex`",
    ]);
    expect(planCodexTrust(plan.text, await entriesOf(), "config.toml")).toMatchObject({ changed: false, text: plan.text });
  });

  it("creates the file, and replaces a stale hash in place rather than adding a second table (which TOML refuses)", async () => {
    const created = planCodexTrust(undefined, await entriesOf(), "config.toml");
    const stale = created.text.replace(/sha256:[0-9a-f]{64}/, "sha256:stale");
    const fixed = planCodexTrust(stale, await entriesOf(), "config.toml");
    expect(fixed.text).toBe(created.text);
  });

  it("refuses a layout it cannot edit without rewriting it, printing the lines to add by hand", async () => {
    const inline = `[hooks]\nstate = { "other" = { trusted_hash = "sha256:x" } }\n`;
    let error: unknown;
    try {
      planCodexTrust(inline, await entriesOf(), "/home/dev/.codex/config.toml");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HookboxError);
    expect((error as HookboxError).code).toBe("config_invalid");
    expect((error as HookboxError).message).toMatch(
      /Nothing was changed\. Add these lines yourself, or trust the hooks in Codex's \/hooks:\n\[hooks\.state\."\/home\/dev\/\.codex\/hooks\.json:pre_tool_use:1:0"\]/,
    );
  });
});

describe("taking Hookbox's trust out again (uninstall-agent codex, self-uninstall)", () => {
  const entriesOf = () => codexTrustEntries(SOURCE, HOOKS, (_event, handler) => String(handler.command).includes("hookbox emit"));

  it("gives back the user's config byte for byte, trust the user recorded for other hooks included", async () => {
    const existing = `# my codex\nmodel = "gpt-5.5" # fast\n\n[hooks.state."${SOURCE}:pre_tool_use:0:0"]\ntrusted_hash = "${PROVEN[`${SOURCE}:pre_tool_use:0:0`]}"\n`;
    const trusted = planCodexTrust(existing, await entriesOf(), "config.toml");
    const untrusted = planCodexUntrust(trusted.text, await entriesOf(), "config.toml");
    expect(untrusted).toMatchObject({ changed: true, text: existing, empty: false });
    expect(untrusted.summary).toEqual([
      "- trust of PreToolUse: `/home/dev/bin/hookbox emit PreToolUse --agent codex`",
      "- trust of SessionEnd: `/home/dev/bin/hookbox emit SessionEnd --agent codex`",
    ]);
  });

  it("a file that held nothing but Hookbox's trust is left empty (uninstall then removes it)", async () => {
    const created = planCodexTrust(undefined, await entriesOf(), "config.toml");
    expect(planCodexUntrust(created.text, await entriesOf(), "config.toml")).toMatchObject({ changed: true, text: "", empty: true });
  });

  it("a hash recorded for another command line (the user re-trusted an edited entry in /hooks) stays", async () => {
    const created = planCodexTrust(undefined, await entriesOf(), "config.toml");
    const edited = created.text.replace(/sha256:[0-9a-f]{64}/, "sha256:theirs");
    const plan = planCodexUntrust(edited, await entriesOf(), "config.toml");
    expect(recordedTrust(plan.text, "config.toml")).toEqual(new Map([[`${SOURCE}:pre_tool_use:1:0`, "sha256:theirs"]]));
  });

  it("no config, or no trust of Hookbox's: nothing to change", async () => {
    expect(planCodexUntrust(undefined, await entriesOf(), "config.toml")).toMatchObject({ changed: false });
    expect(planCodexUntrust('model = "x"\n', await entriesOf(), "config.toml")).toMatchObject({ changed: false, text: 'model = "x"\n' });
  });
});
