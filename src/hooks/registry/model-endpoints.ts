import { parseDocument } from "yaml";
import type { EmbeddedHook } from "./sources.ts";

/**
 * The model endpoints a standard hook asks (its `permissions.llm`, or `default` for a prompt
 * hook that names none, as resolve.ts gives it). `--builtin all` leaves out a hook whose
 * endpoint the operator file does not configure: it could only fail on every event. Read
 * leniently from the embedded YAML, and only when `all` is asked for.
 */
export function modelEndpointsOf(hook: EmbeddedHook): string[] {
  let raw: unknown;
  try {
    raw = parseDocument(hook.yaml, { uniqueKeys: false }).toJS({ maxAliasCount: 100 });
  } catch {
    return [];
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return [];
  const file = raw as { permissions?: { llm?: unknown }; prompt?: unknown; prompt_template?: unknown };
  const grants = Array.isArray(file.permissions?.llm) ? (file.permissions.llm as unknown[]) : [];
  const names = grants
    .map((grant) => (typeof grant === "string" ? grant : (grant as { endpoint?: unknown } | null)?.endpoint))
    .filter((name): name is string => typeof name === "string");
  if (names.length === 0 && (file.prompt !== undefined || file.prompt_template !== undefined)) return ["default"];
  return names;
}
