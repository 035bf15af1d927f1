import type { CapabilityIO } from "../../platform/capability-io.ts";
import type { GrantSources } from "../grants/sources.ts";
import { allowAllReason } from "./allow-all.ts";
import { checkArgsPattern } from "./argv.ts";
import { neverPassedPattern } from "./child-env.ts";
import { commandNames, resolveCommand, type CommandRef } from "./command.ts";

export interface RunRule {
  readonly command: CommandRef;
  /** argv pattern: literals, `*`, `**` (last). */
  readonly args: readonly string[];
  /** Host variables passed to the command (names or PREFIX_*), subject to the env policy. */
  readonly env: readonly string[];
}

export interface RunPolicy {
  readonly declared: readonly RunRule[];
  readonly approval: readonly RunRule[] | undefined;
  readonly ceiling: readonly RunRule[] | undefined;
  readonly deny: readonly CommandRef[];
}

interface RunGrantInput {
  readonly cmd: string;
  readonly args?: readonly string[];
  readonly env?: readonly string[];
}

/**
 * Parse and resolve run grants. A hook's command that is not on this machine (a standard hook
 * declaring python3 where there is none) makes that one grant inert — a warning naming its file,
 * the hook still loads, and calling it fails without running anything; a malformed one (a
 * relative path) is an error. The operator's may not exist either — they then match by name
 * only, which can only narrow.
 */
export async function parseRunPolicy(
  sources: GrantSources,
  io: CapabilityIO,
  pathEnv: string | undefined,
  errors: string[],
  warnings: string[] = [],
): Promise<RunPolicy> {
  const parseList = async (list: readonly RunGrantInput[], where: string, strict: boolean): Promise<RunRule[]> => {
    const rules: RunRule[] = [];
    // Grants of a command that is not on this machine: one warning per command, however many grants name it.
    const missing = new Map<string, { at: string[]; error: string }>();
    for (const [index, grant] of list.entries()) {
      const at = `${where}[${index}]`;
      const args = grant.args ?? ["**"];
      const env = grant.env ?? [];
      const argsError = checkArgsPattern(args);
      if (argsError) errors.push(`${at}.args: ${argsError}`);
      for (const name of env) {
        const never = neverPassedPattern(name);
        if (never) errors.push(`${at}.env: ${never}; it can never be passed to a command`);
      }
      const resolved = await resolveCommand(grant.cmd, pathEnv, io);
      if (!resolved.ok && strict) {
        if (resolved.missing) {
          const known = missing.get(grant.cmd) ?? { at: [], error: resolved.error };
          known.at.push(at);
          missing.set(grant.cmd, known);
        } else errors.push(`${at}.cmd: ${resolved.error}`);
      }
      const command = resolved.ok ? resolved.ref : { name: grant.cmd, path: undefined, realPath: undefined };
      if (!argsError) rules.push({ command, args, env });
    }
    for (const { at, error } of missing.values()) {
      warnings.push(
        at.length === 1
          ? `${at[0]}.cmd: ${error}; this grant is inert on this machine (calling it fails, nothing runs) — the hook still loads`
          : `${where}[${at.map((a) => a.slice(a.lastIndexOf("[") + 1, -1)).join(", ")}].cmd: ${error}; these ${at.length} grants are inert on this machine (calling them fails, nothing runs) — the hook still loads`,
      );
    }
    return rules;
  };
  const denyRefs: CommandRef[] = [];
  for (const name of sources.deny.run) {
    const resolved = await resolveCommand(name, pathEnv, io);
    denyRefs.push(resolved.ok ? resolved.ref : { name, path: undefined, realPath: undefined });
  }
  const approval = sources.approval?.run;
  const ceiling = sources.ceiling?.run;
  return {
    declared: await parseList(sources.declared.run, `${sources.file}: permissions.run`, true),
    approval: approval && (await parseList(approval, `hookbox.yaml hooks.${sources.hookId}.permissions.run`, false)),
    ceiling: ceiling && (await parseList(ceiling, "hookbox.yaml ceilings.permissions.run", false)),
    deny: denyRefs,
  };
}

export function runSummary(policy: RunPolicy): string[] {
  return policy.declared.map((rule) => {
    const line = `run ${[rule.command.path ?? rule.command.name, ...rule.args].join(" ")}${rule.command.path === undefined ? " (inert: not found on PATH when the hook loaded)" : ""}`;
    const allowAll = allowAllReason(commandNames(rule.command));
    return allowAll && !policy.ceiling && !policy.approval ? `${line} (refused unless the operator approves it: ${allowAll})` : line;
  });
}
