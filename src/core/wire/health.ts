import { z } from "zod";
import type { Wire } from "./readonly.ts";

export const hookSetIdentitySchema = z
  .object({
    v: z.literal(1),
    build: z.string(),
    operator_file: z.string(),
    builtin_flags: z.array(z.string()),
    hook_dirs: z
      .array(z.string())
      .nullable()
      .describe("--hooks directories, or null for the defaults (the project's, the user's, the operator's hooks_dirs)."),
    user_hooks_dir: z.string(),
    data_dir: z.string(),
    home: z.string(),
    agent_dirs: z
      .record(z.string(), z.string())
      .describe(
        "By agent: the config directory of each agent whose settings a variable can move, as that variable resolved it (or its default under home): self-protect protects the agents' settings there.",
      ),
    system_policy: z
      .string()
      .optional()
      .describe("The system policy file the hook sets merge the operator file into (/etc/hookbox/hookbox.yaml, or under --system-root)."),
  })
  .meta({
    id: "HookSetIdentityV1",
    description: "What, besides the files, decides which hook set an event gets: `emit` is answered only by a daemon with the same.",
  });

export const healthSchema = z
  .object({
    v: z.literal(1),
    status: z
      .enum(["ok", "degraded"])
      .describe("degraded (503): it answers, but not as configured (a broken hook, a replaced operator file, an audit log failing)."),
    version: z.string(),
    identity: hookSetIdentitySchema,
    pid: z.number().int(),
    checks: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.unknown() })),
  })
  .meta({ id: "HealthV1", description: "Whether the daemon evaluates as configured; it runs a real evaluation to tell." });

export type HookSetIdentityV1 = Wire<typeof hookSetIdentitySchema>;
export type HealthV1 = Wire<typeof healthSchema>;
