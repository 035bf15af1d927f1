import type { AuditRecordV1 } from "../audit/record.ts";
import type { Decision } from "../../core/events/types.ts";
import type { Expectation } from "./fixture.ts";

/** What a fixture run produced, in the terms fixtures speak. */
export interface Observed {
  readonly decision: Decision;
  /** The hook's own run record, when it matched. */
  readonly run: AuditRecordV1 | undefined;
  /** Model calls the fixture's pinned model answered (or refused). */
  readonly llmCalls: number;
}

export interface Mismatch {
  readonly field: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

const list = (value: string | readonly string[] | undefined): readonly string[] =>
  value === undefined ? [] : typeof value === "string" ? [value] : value;

/** Every way the observed outcome differs from the expectation (empty: the fixture passes). */
export function compare(expected: Expectation, observed: Observed): Mismatch[] {
  const { decision, run } = observed;
  const problems: Mismatch[] = [];
  const check = (field: string, ok: boolean, expectedValue: unknown, actual: unknown): void => {
    if (!ok) problems.push({ field, expected: expectedValue, actual });
  };
  if (expected.decision !== undefined) check("decision", decision.decision === expected.decision, expected.decision, decision.decision);
  if (expected.reason !== undefined) check("reason", decision.reason === expected.reason, expected.reason, decision.reason);
  for (const part of list(expected.reason_contains)) check("reason_contains", (decision.reason ?? "").includes(part), part, decision.reason);
  const status = run?.status ?? "none";
  if (expected.status !== undefined) check("status", status === expected.status, expected.status, status);
  // A hook that fails while the fixture looks elsewhere (on_error: continue answers allow) must not pass unseen.
  else if (status === "failed" && expected.error_code === undefined)
    check("status", false, "the hook not to fail (to expect it: status: failed, or error_code)", status);
  if (expected.error_code !== undefined) check("error_code", run?.error_code === expected.error_code, expected.error_code, run?.error_code);
  const context = decision.context_injections.map((i) => i.content).join("\n---\n");
  for (const part of list(expected.context_contains)) check("context_contains", context.includes(part), part, context);
  if (expected.no_context) check("no_context", decision.context_injections.length === 0, "no context injected", context);
  const messages = decision.user_messages.map((m) => m.message).join("\n");
  for (const part of list(expected.user_message_contains)) check("user_message_contains", messages.includes(part), part, messages);
  if (expected.data !== undefined) check("data", partialMatch(expected.data, decision.data), expected.data, decision.data);
  if (expected.continue !== undefined) check("continue", decision.continue === expected.continue, expected.continue, decision.continue);
  if (expected.approval !== undefined) check("approval", partialMatch(expected.approval, decision.approval), expected.approval, decision.approval);
  if (expected.suggested_abilities !== undefined) {
    const ids = (decision.suggested_abilities ?? []).map((ability) => ability.id);
    check("suggested_abilities", JSON.stringify(ids) === JSON.stringify(expected.suggested_abilities), expected.suggested_abilities, ids);
  }
  const logs = (run?.logs ?? []).map((l) => l.message).join("\n");
  for (const part of list(expected.logs_contain)) check("logs_contain", logs.includes(part), part, logs);
  if (expected.llm_calls !== undefined) check("llm_calls", observed.llmCalls === expected.llm_calls, expected.llm_calls, observed.llmCalls);
  return problems;
}

/** `expected` is contained in `actual`: objects by key, arrays element-wise, the rest by value. */
export function partialMatch(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== "object") return Object.is(expected, actual);
  if (actual === null || typeof actual !== "object") return false;
  if (Array.isArray(expected))
    return Array.isArray(actual) && expected.length === actual.length && expected.every((e, i) => partialMatch(e, actual[i]));
  return Object.entries(expected).every(([key, value]) => partialMatch(value, (actual as Record<string, unknown>)[key]));
}

export function formatMismatch(m: Mismatch): string {
  const show = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v.length > 400 ? `${v.slice(0, 400)}…` : v) : JSON.stringify(v));
  return `    ${m.field}\n      - expected: ${show(m.expected)}\n      + actual:   ${show(m.actual)}`;
}
