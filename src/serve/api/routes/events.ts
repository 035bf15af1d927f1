import type { Context, Hono } from "hono";
import { z } from "zod";
import { unguardedNotice } from "../../../decide/guards.ts";
import { identityDifference } from "../../../decide/identity.ts";
import { answerAgentCall } from "../../../decide/agent-answer.ts";
import { HookboxError } from "../../../core/errors.ts";
import { parseEvent } from "../../../core/events/parse.ts";
import { AGENT_NAMES, hookProcessOutput, type AgentName } from "../../../agents/protocols.ts";
import { agentAnswerSchema, agentCallReplySchema } from "../../../core/wire/agent-call-schema.ts";
import { AGENT_CALL_HEADERS, decodeHeaderJson, HOOK_SET_MISMATCH, type AgentCallReplyV1 } from "../../../core/wire/agent-call.ts";
import { decisionSchema, type DecisionV1 } from "../../../core/wire/decision.ts";
import { nativeEventSchema } from "../../../core/wire/event.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponse } from "../error-response.ts";
import { readJson, readText } from "./body.ts";
import { route, type HeaderSpec, type RouteSpec } from "./spec.ts";

/** The agents POST /v1/agents/{agent} speaks for (the agent table's names); `auto` detects the dialect from the payload. */
const agentPathSchema = z
  .enum([...AGENT_NAMES, "auto"])
  .describe("The dialect of the body and of the answer; auto: detected from the payload (answered by the fail-closed rule when no dialect fits).");

const FAIL_CLOSED_HEADER: HeaderSpec = {
  name: AGENT_CALL_HEADERS.failClosed,
  description: '"1": when Hookbox cannot fully evaluate, deny (the fail-closed rule) instead of the hooks\' own on_error.',
  schema: z.enum(["1"]),
};
const TIMEOUT_HEADER: HeaderSpec = {
  name: AGENT_CALL_HEADERS.timeoutMs,
  description: "How long the caller waits, in milliseconds: the evaluation (and any held approval) is budgeted inside it.",
  schema: z.string().regex(/^[1-9][0-9]*$/),
};

export const EVALUATE_ROUTE: RouteSpec = {
  method: "post",
  path: "/v1/events/:event_type",
  operationId: "evaluate",
  tag: "events",
  summary: "Evaluate a native event: the event in, the decision out",
  description:
    "Runs every hook of the event's project (resolved from its cwd) that matches, and answers the aggregated decision. An ask_user is held until answered (GET/POST /v1/approvals) or its timeout, then answered as allow or deny — unless x-hookbox-hold-approvals is 0, which answers the ask itself. What each decision obliges the caller to do: docs/orchestrators.md.",
  params: z.object({
    event_type: z.string().describe("Canonical (PreToolUse …), an alias (PreAbilityCall), or a custom dotted name (task.completed)."),
  }),
  headers: [
    FAIL_CLOSED_HEADER,
    TIMEOUT_HEADER,
    {
      name: AGENT_CALL_HEADERS.holdApprovals,
      description: '"0": answer an ask_user as decision "ask" at once instead of holding it.',
      schema: z.enum(["0", "1"]),
    },
  ],
  body: { schema: nativeEventSchema, description: "The event.", required: true },
  responses: { 200: { description: "The decision.", schema: decisionSchema } },
  errors: ["event_invalid", "request_too_large"],
};

export const AGENT_CALL_ROUTE: RouteSpec = {
  method: "post",
  path: "/v1/agents/:agent",
  operationId: "answerAgentCall",
  tag: "agents",
  summary: "Answer an agent's own hook call, in its own protocol",
  description:
    "The body is the agent's hook payload as it sends it (any JSON; what cannot be decoded is answered by the fail-closed rule, never refused). The agent itself (Claude Code's type: \"http\" hooks) gets its own hook JSON, always with 200. `hookbox emit` (x-hookbox-client: emit, with its hook-set identity) gets the whole answer, or 409 hook_set_mismatch from a daemon that resolves hook sets from other inputs.",
  params: z.object({ agent: agentPathSchema }),
  headers: [
    {
      name: AGENT_CALL_HEADERS.client,
      description: '"emit": answer with AgentCallReplyV1 (what the hook process writes and exits with).',
      schema: z.enum(["emit"]),
    },
    { name: AGENT_CALL_HEADERS.identity, description: "With client emit: base64url JSON of the caller's HookSetIdentityV1.", schema: z.string() },
    {
      name: AGENT_CALL_HEADERS.event,
      description: "The agent's event name, when the payload names none (`hookbox emit EVENT`).",
      schema: z.string(),
    },
    { name: AGENT_CALL_HEADERS.env, description: "base64url JSON of the agent's project variables (CLAUDE_PROJECT_DIR …).", schema: z.string() },
    {
      name: AGENT_CALL_HEADERS.daemonsNotUsed,
      description:
        "With client emit: base64url JSON array of why each daemon emit asked first was not used; when this event's hook set has no guard but self-protect, the answer warns the agent's user.",
      schema: z.string(),
    },
    {
      name: AGENT_CALL_HEADERS.invokedAs,
      description:
        "With client emit: base64url JSON of the absolute path emit was invoked as (the command the agent's entry runs); self-protect keeps the agent from replacing it, for this event.",
      schema: z.string(),
    },
    FAIL_CLOSED_HEADER,
    TIMEOUT_HEADER,
  ],
  body: { schema: z.unknown(), description: "The agent's hook payload.", required: true },
  responses: {
    200: {
      description: "The agent's answer (AgentAnswer), or AgentCallReplyV1 for client emit.",
      schema: z.union([agentCallReplySchema, agentAnswerSchema]),
    },
  },
  errors: ["not_found", "hook_set_mismatch", "request_too_large"],
};

export const EVENT_ROUTES: readonly RouteSpec[] = [EVALUATE_ROUTE, AGENT_CALL_ROUTE];

/** POST /v1/events/:event_type and POST /v1/agents/:agent: an event in, a decision out. */
export function eventRoutes(app: Hono, deps: AppDeps): void {
  /** The native contract: a native event in, the aggregated Decision out. */
  route(app, EVALUATE_ROUTE, async (c) => {
    const body = await readJson(c);
    const event = parseEvent(body, c.req.param("event_type") ?? "");
    const holdApprovals = c.req.header(AGENT_CALL_HEADERS.holdApprovals) !== "0";
    const { decision } = await deps.evaluator.evaluate(event, {
      holdApprovals,
      ...(c.req.header(AGENT_CALL_HEADERS.failClosed) === "1" ? { failClosed: true } : {}),
      ...callerTimeout(c),
    });
    return c.json(decision satisfies DecisionV1);
  });

  /**
   * An agent's own hook call: its payload in, its answer out. Agents that call HTTP themselves
   * (Claude Code's `type: "http"` hooks) get the JSON body of their answer, always with 200 — a
   * non-2xx is a non-blocking error to Claude, which would let a blocked action through.
   * `hookbox emit` gets the whole answer (stdout, stderr, exit code) to write as it is.
   */
  route(app, AGENT_CALL_ROUTE, async (c) => {
    const name = c.req.param("agent") ?? "";
    if (name !== "auto" && !(AGENT_NAMES as readonly string[]).includes(name))
      throw new HookboxError("not_found", `no agent "${name}": use one of ${AGENT_NAMES.join(", ")}, or auto`);
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
        ...(body.tooLarge
          ? {
              unreadable: { code: "request_too_large", cause: `the request body is larger than the daemon's limit of ${deps.bodyLimitBytes} bytes` },
              ...(body.head !== undefined ? { head: body.head } : {}),
            }
          : {}),
        ...(body.notUtf8 ? { unreadable: { code: "event_invalid", cause: "the request body is not valid UTF-8" } } : {}),
      },
      { ...(c.req.header(AGENT_CALL_HEADERS.failClosed) === "1" ? { failClosed: true } : {}), ...callerTimeout(c), ...invokedAs(c) },
      fromEmit
        ? unguardedNotice(
            deps.evaluator.hookSets,
            deps.identity.operator_file,
            stringsOf(decodeHeaderJson(c.req.header(AGENT_CALL_HEADERS.daemonsNotUsed))),
          )
        : undefined,
    );
    const { output } = answer;
    if (fromEmit) {
      const written = hookProcessOutput(output);
      return c.json({
        v: 1,
        stdout: written.stdout,
        stderr: written.stderr,
        exit_code: written.exitCode,
        event_id: answer.evaluation.decision.event_id,
      } satisfies AgentCallReplyV1);
    }
    if (output.body !== undefined) return c.json(output.body as Record<string, unknown>);
    // What a command hook would say on stderr (a warning) reaches the user as Claude's systemMessage.
    return c.json(output.stderr.trim() && answer.protocol === "claude" ? { systemMessage: output.stderr.trim() } : {});
  });
}

/** The path the calling emit was invoked as: an absolute path, or nothing. */
function invokedAs(c: Context): { invokedAs?: string } {
  const path = decodeHeaderJson(c.req.header(AGENT_CALL_HEADERS.invokedAs));
  return typeof path === "string" && path.startsWith("/") && path.length <= 4096 && !/[\0\n\r]/.test(path) ? { invokedAs: path } : {};
}

function callerTimeout(c: Context): { callerTimeoutMs?: number } {
  const value = Number(c.req.header(AGENT_CALL_HEADERS.timeoutMs));
  return Number.isInteger(value) && value > 0 ? { callerTimeoutMs: value } : {};
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}
