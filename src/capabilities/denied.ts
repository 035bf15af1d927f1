import { denied, type CapabilityError } from "./errors.ts";
import type { Verdict } from "./grants/layers.ts";
import type { PermissionKind } from "./grants/sources.ts";

/**
 * Denial messages. Each names the hook, the API and its target, and says exactly what would
 * allow the call: the YAML to add to the hook, or which operator rule blocked it (Deno's
 * "Requires read access to …, run again with --allow-read" — but naming the file to edit).
 */

const MAX_SHOWN_CHARS = 200;

/** `hook.readFile("/etc/hosts")`: the call as the handler wrote it, each argument JSON, capped. */
export function renderCall(api: string, args: readonly unknown[]): string {
  const shown = args.map((arg) => {
    const text = JSON.stringify(arg) ?? "undefined";
    return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text;
  });
  return `hook.${api}(${shown.join(", ")})`;
}

/** A YAML flow scalar: plain when unambiguous, else JSON (valid YAML). */
export function yamlScalar(text: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(text) && !/^[-.]/.test(text) ? text : JSON.stringify(text);
}

export function yamlList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
}

export interface GrantHint {
  readonly kind: PermissionKind;
  /** The YAML value under `permissions.<kind>` that would allow this call, e.g. `["/etc/hosts"]`. */
  readonly yaml: string;
}

export function deniedByVerdict(hookId: string, call: string, verdict: Exclude<Verdict, { ok: true }>, hint: GrantHint): CapabilityError {
  return denied(`hook ${hookId}: ${verdictText(hookId, call, verdict, hint)}`);
}

/** A refusal no grant can lift (a shell escape, /proc, a FIFO …). */
export function refused(hookId: string, call: string, why: string): CapabilityError {
  return denied(`hook ${hookId}: ${call} is refused: ${why}`);
}

function verdictText(hookId: string, call: string, verdict: Exclude<Verdict, { ok: true }>, hint: GrantHint): string {
  const approve = `hooks: { ${hookId}: { permissions: { ${hint.kind}: ${hint.yaml} } } }`;
  switch (verdict.by) {
    case "deny":
      return `${call} is refused by the operator: hookbox.yaml deny.${hint.kind} lists ${JSON.stringify(verdict.rule)} (deny always wins)`;
    case "declared": {
      const add = `${call} is not granted; to allow it add to its YAML:  permissions: { ${hint.kind}: ${hint.yaml} }`;
      if (!verdict.operator) return add;
      return `${add}  — and the operator must allow it too: ${verdictText(hookId, "it", { ok: false, ...verdict.operator }, hint)}`;
    }
    case "approval":
      return `${call} is not approved by the operator for this hook (hookbox.yaml hooks.${hookId}.permissions.${hint.kind}); to allow it add to hookbox.yaml:  ${approve}`;
    case "ceiling":
      return `${call} is outside the operator's ceiling (hookbox.yaml ceilings.permissions.${hint.kind}); only the operator can widen it there`;
    case "default":
      return `${call} is outside the default ${hint.kind} ceiling: ${verdict.reason}; the operator can approve it for this hook in hookbox.yaml:  ${approve}`;
  }
}
