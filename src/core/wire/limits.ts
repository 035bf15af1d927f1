import { z } from "zod";
import { byLimit, type LimitsTable } from "../limits.ts";

/**
 * A hook's limits as registration shows them (HookRegistrationV1.limits): a number per row of the
 * limits table, in the unit its key names. Apart from hooks.ts so that the declarations of
 * hookbox/client, which inline the resulting shape, do not reach the table or the sandbox.
 */
export function limitsWireSchemaOf(table: LimitsTable) {
  return z.object(byLimit(table, (d) => z.number().describe(`${d.description} (${d.unit})`)));
}
