import type { Command } from "commander";
import { formatBytes } from "../../sandbox/index.ts";
import type { LoadedHook } from "../registry/load.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { openRegistry } from "../registry/open.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";

/** One hook as registered for an event: the shape of `hookbox list --json` (and GET /v1/hooks). */
export function registration(hook: LoadedHook): Record<string, unknown> {
  const d = hook.definition;
  return {
    id: d.id,
    summary: d.summary,
    enabled: d.enabled,
    priority: d.priority,
    events: d.events,
    match: d.match,
    on_error: d.onError,
    cooldown_seconds: d.cooldownMs / 1000,
    isolation: d.isolation,
    permissions: hook.grants.summary,
    limits: { cpu_ms: d.limits.cpuMs, memory_mb: d.limits.memoryBytes / 1024 / 1024, timeout_ms: d.limits.timeoutMs },
    effects: d.effects,
    source: d.source,
  };
}

/** Registration JSON grouped by event type, in run order (the seed's register-script shape). */
export function registrationByEvent(hooks: readonly LoadedHook[], eventTypes: readonly string[], registered: (event: string) => readonly LoadedHook[]): Record<string, unknown> {
  const byEvent: Record<string, unknown[]> = {};
  for (const event of eventTypes) byEvent[event] = registered(event).map(registration);
  const disabled = hooks.filter((h) => !h.definition.enabled).map((h) => h.definition.id);
  return { version: 1, hooks: byEvent, disabled };
}

export function registerList(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("list")
      .description("List the hooks that would run, grouped by event, in run order")
      .option("--json", "print the registration JSON")
      .option("--builtin", "list the standard hooks embedded in this binary instead"),
    { builtinOption: false },
  ).action(async (options: { hooks?: string[]; config?: string; json?: boolean; builtin?: boolean }) => {
    if (options.builtin) {
      const embedded = [...runtime.embedded().values()].sort((a, b) => a.id.localeCompare(b.id));
      if (options.json) await ctx.out(`${JSON.stringify(embedded.map((h) => ({ id: h.id, summary: /^summary:\s*(.*)$/m.exec(h.yaml)?.[1] ?? "" })), null, 2)}\n`);
      else await ctx.out(`${embedded.map((h) => `${h.id.padEnd(26)} ${/^summary:\s*(.*)$/m.exec(h.yaml)?.[1] ?? ""}`).join("\n")}\nEnable them by id in hookbox.yaml:  builtin: [${embedded.slice(0, 2).map((h) => h.id).join(", ")}]\n`);
      return;
    }
    const locations = locationsFrom(ctx, { ...options, builtin: undefined });
    const snapshot = (await openRegistry(ctx.host, locations, runtime.capabilities(locations), runtime.embedded())).current();
    const events = snapshot.eventTypes();
    if (options.json) {
      await ctx.out(`${JSON.stringify(registrationByEvent(snapshot.hooks, events, (e) => snapshot.registeredFor(e)), null, 2)}\n`);
    } else {
      const lines: string[] = [];
      for (const event of events) {
        lines.push(`${event}`);
        for (const hook of snapshot.registeredFor(event)) {
          const d = hook.definition;
          const match = [d.match.tool ? `tool ${d.match.tool}` : "", d.match.paths ? `paths ${d.match.paths.join(",")}` : "", d.match.fields ? `fields ${Object.keys(d.match.fields).join(",")}` : ""].filter(Boolean).join("; ");
          lines.push(`  ${String(d.priority).padStart(5)}  ${d.id}${match ? `  [${match}]` : ""}  cpu ${d.limits.cpuMs} ms, memory ${formatBytes(d.limits.memoryBytes)}${d.onError === "deny" ? ", fails closed" : ""}`);
          if (d.summary) lines.push(`         ${d.summary}`);
          for (const grant of hook.grants.summary) lines.push(`         may: ${grant}`);
        }
      }
      if (lines.length === 0) lines.push(`no hooks found (looked in ${locations.hookSources.map((s) => s.dir).join(", ")})`);
      await ctx.out(`${lines.join("\n")}\n`);
      if (snapshot.diagnostics.length > 0) ctx.err(`${snapshot.diagnostics.length} problem(s) — run hookbox validate\n`);
    }
    setExit(snapshot.diagnostics.every((d) => d.severity === "warning") ? EXIT.ok : EXIT.failed);
  });
}
