import { z } from "zod";

/** The daemon's answer to `hookbox emit` (`x-hookbox-client: emit`): exactly what emit writes and exits with. */
export const agentCallReplySchema = z
  .object({
    v: z.literal(1),
    stdout: z.string().describe("The agent's answer: one JSON object, or empty."),
    stderr: z.string(),
    exit_code: z.number().int().describe("The hook's exit code in the agent's contract (Codex: 2 blocks)."),
    event_id: z.string().describe("The decision record's id in the audit log."),
  })
  .meta({ id: "AgentCallReplyV1", description: "An agent hook call answered whole: what the hook process writes and exits with." });

/** What an agent's hook call gets back when the agent itself calls (Claude Code's type: "http" hooks): its own hook JSON. */
export const agentAnswerSchema = z.record(z.string(), z.unknown()).meta({
  id: "AgentAnswer",
  description:
    "The agent's own hook answer (Claude Code's hook JSON for /v1/agents/claude), always with 200: an agent reads a non-2xx as a non-blocking error.",
});
