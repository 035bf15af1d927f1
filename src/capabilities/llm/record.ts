/**
 * One model call as the run record keeps it (`llm` in AuditRecordV1): what was asked of which
 * endpoint, what came back and what it cost. The prompt, the system prompt and the answer have
 * secrets redacted (the endpoint's key, the environment's secret values, NAME=value, known token
 * shapes) and are cut at 16 000 characters.
 */
export interface LlmCallRecord {
  readonly endpoint: string;
  readonly api: string;
  readonly model: string;
  readonly max_tokens: number;
  /** Whether the answer had to match a JSON Schema. */
  readonly json_schema: boolean;
  readonly system: string;
  readonly prompt: string;
  /** The last answer received (absent when none came). */
  readonly answer?: string;
  /** answered; invalid: twice not matching json_schema; failed: refused, budget, endpoint error or timeout. */
  readonly outcome: "answered" | "invalid" | "failed";
  readonly error?: string;
  /** Every attempt together; estimated (four characters a token) where the server gave no counts. */
  readonly tokens: { readonly input: number; readonly output: number; readonly estimated: boolean };
  readonly attempts: number;
  readonly duration_ms: number;
}
