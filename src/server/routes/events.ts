import type { Context, Hono } from "hono";
import { identityDifference } from "../../evaluator/identity.ts";
import { answerAgentCall } from "../../evaluator/agent-answer.ts";
import { HookboxError } from "../../errors.ts";
import { parseEvent } from "../../events/parse.ts";
import { AGENT_NAMES, type AgentName } from "../../protocols/index.ts";
import { AGENT_CALL_HEADERS, decodeHeaderJson, HOOK_SET_MISMATCH, type AgentCallReplyV1 } from "../../wire/agent-call.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponse } from "../error-response.ts";
import { readJson, readText } from "./body.ts";

/** POST /v1/events/:event_type and POST /v1/agents/:agent: an event in, a decision out. */
export function eventRoutes(app: Hono, deps: AppDeps): void {
  /** The native contract: a native event in, the aggregated Decision out. */
  app.post("/v1/events/:event_type", async (c) => {
    const body = await readJson(c);
    const event = parseEvent(body, c.req.param("event_type"));
    const { decision } = await deps.evaluator.evaluate(event, { holdApprovals: true, ...(c.req.header(AGENT_CALL_HEADERS.failClosed) === "1" ? { failClosed: true } : {}), ...callerTimeout(c) });
    return c.json(decision);
  });

  /**
   * An agent's own hook call: its payload in, its answer out. Agents that call HTTP themselves
   * (Claude Code's `type: "http"` hooks) get the JSON body of their answer, always with 200 — a
   * non-2xx is a non-blocking error to Claude, which would let a blocked action through.
   * `hookbox emit` gets the whole answer (stdout, stderr, exit code) to write as it is.
   */
  app.post("/v1/agents/:agent", async (c) => {
    const name = c.req.param("agent");
    if (name !== "auto" && !(AGENT_NAMES as readonly string[]).includes(name)) throw new HookboxError("not_found", `no agent "${name}": use one of ${AGENT_NAMES.join(", ")}, or auto`);
    const fromEmit = c.req.header(AGENT_CALL_HEADERS.client) === "emit";
    if (fromEmit) {
      const mismatch = identityDifference(deps.identity, decodeHeaderJson(c.req.header(AGENT_CALL_HEADERS.identity)));
      // emit evaluates itself rather than get another hook set's answer.
      if (mismatch) deps.daemon?.refused(decodeHeaderJson(c.req.header(AGENT_CALL_HEADERS.identity)));
      if (mismatch) return errorResponse(c, HOOK_SET_MISMATCH, `this daemon resolves hook sets from other inputs than the caller (${mismatch})`);
    }
    const body = await readText(c, deps.bodyLimitBytes);
    // Over the limit, emit decodes the payload itself; an agent calling over HTTP gets the rule.
    if (body.tooLarge && fromEmit) throw new HookboxError("request_too_large", `the request body is larger than ${deps.bodyLimitBytes} bytes`);
    const env = decodeHeaderJson(c.req.header(AGENT_CALL_HEADERS.env));
    const answer = await answerAgentCall(
      deps.evaluator,
      {
        agent: name === "auto" ? undefined : (name as AgentName),
        payload: body.text,
        ...(c.req.header(AGENT_CALL_HEADERS.event) ? { eventName: c.req.header(AGENT_CALL_HEADERS.event) } : {}),
        env: isStringRecord(env) ? env : {},
        ...(body.tooLarge ? { unreadable: { code: "request_too_large", cause: `the request body is larger than the daemon's limit of ${deps.bodyLimitBytes} bytes` }, ...(body.head !== undefined ? { head: body.head } : {}) } : {}),
        ...(body.notUtf8 ? { unreadable: { code: "event_invalid", cause: "the request body is not valid UTF-8" } } : {}),
      },
      { ...(c.req.header(AGENT_CALL_HEADERS.failClosed) === "1" ? { failClosed: true } : {}), ...callerTimeout(c) },
    );
    const { output } = answer;
    if (fromEmit) return c.json({ v: 1, stdout: output.stdout, stderr: output.stderr, exit_code: output.exitCode, event_id: answer.evaluation.decision.event_id } satisfies AgentCallReplyV1);
    if (output.stdout.trim()) return c.json(JSON.parse(output.stdout) as Record<string, unknown>);
    // What a command hook would say on stderr (a warning) reaches the user as Claude's systemMessage.
    return c.json(output.stderr.trim() && answer.protocol === "claude" ? { systemMessage: output.stderr.trim() } : {});
  });
}

function callerTimeout(c: Context): { callerTimeoutMs?: number } {
  const value = Number(c.req.header(AGENT_CALL_HEADERS.timeoutMs));
  return Number.isInteger(value) && value > 0 ? { callerTimeoutMs: value } : {};
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}
