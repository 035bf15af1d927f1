import { z } from "zod";
import type { ClientTransport } from "../platform/client.ts";
import { agentAnswerSchema } from "../core/wire/agent-call-schema.ts";
import { AGENT_CALL_HEADERS } from "../core/wire/agent-call.ts";
import { approvalResolvedSchema, approvalsSchema, type ApprovalResolvedV1, type PendingApprovalV1 } from "../core/wire/approvals.ts";
import { decisionSchema, type DecisionV1 } from "../core/wire/decision.ts";
import type { NativeEventV1 } from "../core/wire/event.ts";
import { healthSchema, type HealthV1 } from "../core/wire/health.ts";
import { DAEMON_ROUTES } from "../core/wire/daemon.ts";
import { hooksSchema, type HooksV1 } from "../core/wire/hooks.ts";
import { firedRunSchema, runsSchema, type FiredRunV1, type RunQueryV1, type RunsV1 } from "../core/wire/runs.ts";
import { HookboxClientError } from "./errors.ts";
import type { ResolvedOptions } from "./options.ts";
import { send, type Call } from "./request.ts";

const fireAnswerSchema = z.union([decisionSchema, firedRunSchema]);
/** What the expectation check reads of GET /v1/daemon (every build's answer has these). */
const daemonIdentitySchema = z.object({ pid: z.number(), identity: z.object({ build: z.string() }).passthrough() });

export interface EvaluateOptions {
  /** When Hookbox cannot fully evaluate, deny (the fail-closed rule) rather than apply the hooks' own on_error. */
  readonly failClosed?: boolean;
  /** Hold an ask_user until a user answers it (approve/deny) or it times out, then answer allow or deny (default); false: answer decision "ask" at once. */
  readonly holdApprovals?: boolean;
  /** This call's timeout, in milliseconds (a held approval ends before it). */
  readonly timeoutMs?: number;
}

/** An event to evaluate: a native event whose event_type names it. */
export type EvaluateEvent = NativeEventV1 & { readonly event_type: string };

/**
 * A Hookbox daemon, from any program on the machine: its answers typed by the wire schemas
 * (src/core/wire) the server validates with, its failures HookboxClientError with stable codes.
 */
export class HookboxClient {
  /** The expectation's check (options.expect), once it passed; cleared when the daemon was unreachable. */
  private expected: Promise<void> | undefined;

  constructor(
    private readonly transport: ClientTransport & { readonly describe?: () => Promise<string> },
    private readonly options: ResolvedOptions,
  ) {}

  private async call<S extends z.ZodType>(call: Call<S>): Promise<z.output<S>> {
    if (this.options.expect) {
      this.expected ??= this.checkExpected();
      try {
        await this.expected;
      } catch (error) {
        this.expected = undefined; // asked again next time
        throw error;
      }
    }
    try {
      return await send(this.transport, this.options, call);
    } catch (error) {
      // Unreachable: what answers next may be another daemon, asked again.
      if (error instanceof HookboxClientError && error.code === "daemon_unavailable") this.expected = undefined;
      throw error;
    }
  }

  /** How the daemon's answers are checked here: each proven to come from the trusted binary, or the socket file's owner only (and why). */
  async peerCheck(): Promise<string> {
    return (await this.transport.describe?.()) ?? "not checked (a transport of your own)";
  }

  /** options.expect against what the daemon says of itself. */
  private async checkExpected(): Promise<void> {
    const expected = this.options.expect as NonNullable<ResolvedOptions["expect"]>;
    const info = await send(this.transport, this.options, {
      method: "GET",
      path: DAEMON_ROUTES.info,
      answer: daemonIdentitySchema,
      repeatable: true,
    });
    const differences: string[] = [];
    if (expected.build !== undefined && info.identity.build !== expected.build)
      differences.push(`build: daemon ${info.identity.build}, expected ${expected.build}`);
    for (const [key, value] of Object.entries(expected.identity ?? {})) {
      const theirs = (info.identity as Record<string, unknown>)[key];
      if (JSON.stringify(theirs) !== JSON.stringify(value))
        differences.push(`${key}: daemon ${JSON.stringify(theirs)}, expected ${JSON.stringify(value)}`);
    }
    if (differences.length > 0)
      throw new HookboxClientError(
        "hook_set_mismatch",
        `the daemon on ${this.options.describe} (pid ${info.pid}) is not the one expected (${differences.join("; ")}): nothing is sent to it`,
      );
  }

  /** An event in, the decision out (POST /v1/events/{event_type}). What each decision obliges you to do: docs/orchestrators.md. */
  async evaluate(event: EvaluateEvent, options: EvaluateOptions = {}): Promise<DecisionV1> {
    const headers: Record<string, string> = {};
    if (options.failClosed) headers[AGENT_CALL_HEADERS.failClosed] = "1";
    if (options.holdApprovals === false) headers[AGENT_CALL_HEADERS.holdApprovals] = "0";
    return this.call({
      method: "POST",
      path: `/v1/events/${encodeURIComponent(event.event_type)}`,
      body: event,
      headers,
      answer: decisionSchema,
      repeatable: true,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    });
  }

  /**
   * Run one hook on an event whatever its matcher and cooldown: its decision, or for a hook with a
   * schedule or a watch the run it started (FiredRunV1, told apart by its `hook_id` and `records`).
   * `project`: the project whose hook set holds the hook, when the event has no cwd.
   */
  async fire(hookId: string, event: NativeEventV1 = {}, options: { readonly project?: string } = {}): Promise<DecisionV1 | FiredRunV1> {
    const query = options.project ? `?project=${encodeURIComponent(options.project)}` : "";
    return this.call({
      method: "POST",
      path: `/v1/hooks/${encodeURIComponent(hookId)}/fire${query}`,
      body: event,
      answer: fireAnswerSchema,
      repeatable: false,
    });
  }

  /** Hook runs from the audit log, newest first. */
  async runs(query: RunQueryV1 = {}): Promise<RunsV1> {
    const search = new URLSearchParams(
      Object.entries(query).flatMap(([key, value]): [string, string][] => (value === undefined ? [] : [[key, String(value)]])),
    );
    return this.call({ method: "GET", path: `/v1/runs${search.size > 0 ? `?${search}` : ""}`, answer: runsSchema, repeatable: true });
  }

  /** The asks held now, waiting for a verdict. */
  async approvals(): Promise<readonly PendingApprovalV1[]> {
    return (await this.call({ method: "GET", path: "/v1/approvals", answer: approvalsSchema, repeatable: true })).approvals;
  }

  /** Allow a held ask; `always`: and every later ask of that hook for that tool in the session. */
  async approve(id: string, options: { readonly always?: boolean } = {}): Promise<ApprovalResolvedV1> {
    return this.verdict(id, options.always ? "allow_always" : "allow");
  }

  async deny(id: string): Promise<ApprovalResolvedV1> {
    return this.verdict(id, "deny");
  }

  private verdict(id: string, decision: "allow" | "allow_always" | "deny"): Promise<ApprovalResolvedV1> {
    // Not repeated after the connection broke: the first may have been recorded, and a second would answer not_found.
    return this.call({
      method: "POST",
      path: `/v1/approvals/${encodeURIComponent(id)}`,
      body: { decision },
      answer: approvalResolvedSchema,
      repeatable: false,
    });
  }

  /** The hook set of a project (an absolute path in it), or the user's. */
  async hooks(project?: string): Promise<HooksV1> {
    return this.call({
      method: "GET",
      path: `/v1/hooks${project ? `?project=${encodeURIComponent(project)}` : ""}`,
      answer: hooksSchema,
      repeatable: true,
    });
  }

  /** Whether the daemon evaluates as configured (status "degraded" says why in checks). */
  async health(): Promise<HealthV1> {
    return this.call({ method: "GET", path: "/healthz", answer: healthSchema, repeatable: true, answerStatuses: [503] });
  }

  /**
   * An agent's own hook payload answered in its own protocol (POST /v1/agents/{agent}): Claude
   * Code's hook JSON for "claude". Never an error for a payload Hookbox cannot read: that is
   * answered by the fail-closed rule.
   */
  async agentCall(
    agent: string,
    payload: unknown,
    options: Pick<EvaluateOptions, "failClosed" | "timeoutMs"> = {},
  ): Promise<Readonly<Record<string, unknown>>> {
    return this.call({
      method: "POST",
      path: `/v1/agents/${encodeURIComponent(agent)}`,
      body: payload,
      headers: options.failClosed ? { [AGENT_CALL_HEADERS.failClosed]: "1" } : {},
      answer: agentAnswerSchema,
      repeatable: true,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    });
  }
}
