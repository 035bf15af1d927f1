import { z } from "zod";
import { hookSetIdentitySchema } from "./health.ts";

export const daemonInfoSchema = z
  .object({
    v: z.literal(1),
    pid: z.number().int(),
    version: z.string(),
    identity: hookSetIdentitySchema,
    origin: z.enum(["serve", "auto"]).describe("Who started it: a person (`hookbox serve`), or `emit` finding none (auto-started)."),
    socket: z.string(),
    started_at: z.string(),
    idle_exit_seconds: z.number().int().nullable().describe("Exits after this long without events; null: never (a `serve` without --idle-exit)."),
    last_event_at: z.string().nullable().describe("The last event answered (or started), null before the first."),
    events: z.number().int(),
    in_flight: z.number().int(),
    projects: z.array(z.string().nullable()).describe("Projects whose hook sets are loaded now (null: the user's hooks only)."),
    peer_check: z
      .enum(["uid", "permissions"])
      .describe('"uid": each connection\'s peer uid is checked against the owner\'s; "permissions": the socket\'s modes alone keep others out.'),
    retiring: z.string().nullable().describe("Set once asked to go (a newer build took over, auto-start turned off): it exits once idle."),
    rss_bytes: z.number().int().nullable(),
    open_sessions: z
      .number()
      .int()
      .optional()
      .describe("Agent sessions open now (SessionStart seen, no SessionEnd yet): while any is, the daemon does not exit when idle."),
  })
  .meta({ id: "DaemonInfoV1", description: "The daemon's own state: who started it, for which hook set, how busy, whether it is retiring." });

export const daemonStoppingSchema = z
  .object({ v: z.literal(1), stopping: z.literal(true) })
  .meta({ id: "DaemonStoppingV1", description: "Asked to stop: what is in flight finishes first." });

export const daemonRetireSchema = z
  .object({ reason: z.string().max(500).optional().describe("Why, shown by GET /v1/daemon.") })
  .meta({ id: "DaemonRetireV1", description: "Asks the daemon to exit once idle." });

export const daemonRetiringSchema = z
  .object({ v: z.literal(1), retiring: z.string() })
  .meta({ id: "DaemonRetiringV1", description: "Retiring, and why." });

export const consoleUrlSchema = z
  .object({ v: z.literal(1), url: z.string().describe("A one-time login link to the web console.") })
  .meta({ id: "ConsoleUrlV1", description: "A fresh one-time login link to the web console." });
