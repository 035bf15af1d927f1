import { z } from "zod";
import type { Wire } from "./readonly.ts";
import { ERROR_CODES } from "./error-codes.ts";

/** The body of every error answer: `{ v: 1, error: { code, message, details? } }`, its HTTP status mapped from the code (src/serve/api/error-response.ts). */
export const errorBodySchema = z
  .object({
    v: z.literal(1),
    error: z.object({
      code: z.enum(ERROR_CODES).describe("Stable: switch on it, never on the message."),
      message: z.string().describe("What went wrong, where, and how to fix it."),
      details: z.unknown().optional().describe("Structured detail: the field at fault ({field}), the list of config problems …"),
    }),
  })
  .meta({ id: "ErrorBodyV1", description: "Every error answer of the API." });

export type ErrorBodyV1 = Wire<typeof errorBodySchema>;
