import { z } from "zod";
import { byLimit, LIMITS, type LimitDescriptor, type LimitsInYaml, type LimitsTable } from "../../core/limits.ts";
import { wholeNumber } from "./numbers.ts";

/**
 * The YAML views of the limits table (src/core/limits.ts): a hook's `limits:`, and what the
 * operator writes over it (per hook, `ceilings.limits`, `ceilings.community_limits`). Each is a
 * function of the table, so a new row is a new key everywhere.
 */

function field(d: LimitDescriptor) {
  return wholeNumber(d.min, d.max, d.unit).describe(`${d.description} (${d.unit}, ${d.min}–${d.max})`);
}

/** A hook's `limits:`: every key optional, its default the sandbox's. */
export function limitsSchemaOf(table: LimitsTable) {
  return z.object(byLimit(table, (d) => field(d).default(d.default))).strict();
}

/**
 * The operator's lower limits (per hook, or as a global ceiling): only what is written counts,
 * no defaults — a ceiling on cpu_ms alone must not also cap timeout_ms at its default.
 */
export function limitsOverrideSchemaOf(table: LimitsTable) {
  return z.object(byLimit(table, (d) => field(d).optional())).strict();
}

/** `ceilings.community_limits` when the operator writes none: the rows that set `community`. */
export function communityLimitsOf(table: LimitsTable): Partial<LimitsInYaml> {
  return Object.fromEntries(table.flatMap((d) => (d.community === undefined ? [] : [[d.yaml, d.community]])));
}

export const limitsSchema = limitsSchemaOf(LIMITS);
export const limitsOverrideSchema = limitsOverrideSchemaOf(LIMITS);
export const COMMUNITY_LIMITS = communityLimitsOf(LIMITS);
