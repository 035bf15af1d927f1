import { stringify } from "yaml";
import { MAX_LIMITS } from "../../../../sandbox/index.ts";
import type { PackageTree } from "../tree.ts";
import { IMPORTED_HANDLER } from "./handler-source.ts";
import type { ImportedHook } from "../../../agents/importers.ts";

/** What every imported hook.yaml starts with, in this order (the generated YAML reads the same for both kinds). */
function headOf(hook: ImportedHook): Record<string, unknown> {
  return {
    id: hook.id,
    version: "imported",
    summary: hook.summary,
    events: [hook.event],
    enabled: hook.enabled,
    ...(Object.keys(hook.match).length > 0 ? { match: hook.match } : {}),
    on_error: hook.onError,
  };
}

/** A Claude Code prompt hook as a Hookbox prompt hook: hook.yaml alone, asking the operator's default model for {ok, reason}. */
function promptPackage(hook: ImportedHook, file: string): PackageTree {
  const definition = {
    ...headOf(hook),
    limits: { timeout_ms: Math.min(hook.timeoutMs, MAX_LIMITS.timeoutMs) },
    permissions: { llm: ["default"] },
    answer: { format: "ok" },
    prompt: hook.prompt ?? hook.command,
  };
  const header = `# Imported by \`hookbox import\` from ${file} (${hook.where}).\n# Claude Code's prompt hook, asked of the model at hookbox.yaml's llm default endpoint (never a cloud default).\n`;
  return new Map([["hook.yaml", new TextEncoder().encode(header + stringify(definition, { lineWidth: 0 }))]]);
}

/** The sandbox's own margin on top of the command's timeout: the hook must outlive the command it waits for. */
const HOOK_MARGIN_MS = 2000;

/** An imported command hook as a Hookbox package: hook.yaml (its one run grant is the command) and the shared handler. */
export function importedPackage(hook: ImportedHook, file: string): PackageTree {
  if (hook.prompt !== undefined || !hook.run) return promptPackage(hook, file);
  const timeout = Math.min(hook.timeoutMs, MAX_LIMITS.timeoutMs - HOOK_MARGIN_MS);
  const definition = {
    ...headOf(hook),
    limits: { timeout_ms: timeout + HOOK_MARGIN_MS },
    permissions: { run: [{ cmd: hook.run.cmd, args: [...hook.run.args] }], ...(hook.injectContext ? { inject_context: true } : {}) },
    config: { dialect: hook.dialect, event: hook.agentEvent, cmd: hook.run.cmd, args: [...hook.run.args], timeout_ms: timeout },
    ...(hook.effects.length > 0 ? { effects: [...hook.effects] } : {}),
    handler: "handler.ts",
  };
  const header = `# Imported by \`hookbox import\` from ${file} (${hook.where}).\n# It runs the original command with your rights, through hook.run: its one run grant is that command line.\n`;
  const encoder = new TextEncoder();
  return new Map([
    ["handler.ts", encoder.encode(IMPORTED_HANDLER)],
    ["hook.yaml", encoder.encode(header + stringify(definition, { lineWidth: 0 }))],
  ]);
}
