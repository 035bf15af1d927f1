import type { PermissionsConfig } from "./schema.ts";

/**
 * A declared grant as one line of text: how the review names it, what `--allow` takes, what a
 * lock file and a trust record store. Stable across machines (a command as written, not as
 * found on PATH), so a consent given on one machine reads the same on another.
 */

function word(text: string): string {
  return /^[^\s"'\\]+$/.test(text) ? text : JSON.stringify(text);
}

export const readKey = (raw: string): string => `read ${raw}`;
export const runKey = (cmd: string, args: readonly string[], env: readonly string[]): string =>
  `run ${[cmd, ...args].map(word).join(" ")}${env.length > 0 ? ` env:${env.join(",")}` : ""}`;
export const envKey = (name: string): string => `env ${name}`;
export const netKey = (raw: string): string => `net ${raw}`;
export const modifyKey = (field: string): string => `modify ${field}`;
export const llmKey = (endpoint: string): string => `llm ${endpoint}`;

/** Every grant a hook's YAML declares, as keys, in the order the review lists them. */
export function grantKeys(permissions: PermissionsConfig): string[] {
  return [
    ...permissions.read.map(readKey),
    ...permissions.run.map((rule) => runKey(rule.cmd, rule.args, rule.env)),
    ...permissions.env.map(envKey),
    ...permissions.net.map(netKey),
    ...(permissions.inject_context ? ["inject_context"] : []),
    ...(permissions.store ? ["store"] : []),
    ...permissions.modify.map(modifyKey),
    ...(permissions.notify ? ["notify"] : []),
    ...permissions.llm.map((grant) => llmKey(typeof grant === "string" ? grant : grant.endpoint)),
  ];
}
