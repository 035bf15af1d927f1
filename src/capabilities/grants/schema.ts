import { z } from "zod";
import { llmGrantSchema } from "../llm/schema.ts";

/**
 * The permissions a hook declares (`permissions:`), the operator's approvals and ceilings of them
 * and the deny list, as strict zod schemas: the grants every capability parses once into its
 * descriptors. src/hooks/config/schema.ts composes them into the hook file and the operator file.
 */

/** A read grant: an absolute path or glob, with ${workspace} and ${home} expanded per event. */
const pathGrant = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith("/") || p.startsWith("${workspace}") || p.startsWith("${home}"), {
    message: 'expected an absolute path or glob, or one starting with ${workspace} or ${home} (e.g. "${workspace}/**")',
  });

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, "expected an environment variable name (a trailing * matches a prefix)");

/** A host allowed for hook.http.get: "example.com", "*.example.com", "example.com:8443" or an IP. */
const netHost = z
  .string()
  .min(1)
  .max(255)
  .regex(/^(\*\.)?[A-Za-z0-9.:[\]-]+$/, 'expected a host name, "*.domain", "host:port" or an IP address');

export const runGrantSchema = z
  .object({
    /** Command name (resolved on PATH when the hook loads) or absolute path. */
    cmd: z
      .string()
      .min(1)
      .max(4096)
      .regex(/^[^\s]+$/, "expected a command name or absolute path, without arguments"),
    /** argv pattern: literal words, `*` = exactly one argument, `**` = any remaining arguments. */
    args: z.array(z.string().max(4096)).max(64).default(["**"]),
    /** Extra environment variables passed to the command (names, from the host environment). */
    env: z.array(envName).max(64).default([]),
  })
  .strict();

/** A field of an event a hook may rewrite: `tool_input`, `tool_input.command`, `prompt`. */
const fieldPath = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63}){0,7}$/, 'expected a dotted field path such as "tool_input.command"');

export const permissionsSchema = z
  .object({
    read: z.array(pathGrant).max(256).default([]),
    run: z.array(runGrantSchema).max(64).default([]),
    env: z.array(envName).max(256).default([]),
    net: z.array(netHost).max(64).default([]),
    inject_context: z.boolean().default(false),
    store: z.boolean().default(false),
    /** Fields the hook may rewrite with action modify; the operator's own hooks only, unless the operator allows more. */
    modify: z.array(fieldPath).max(64).default([]),
    /** hook.notify (and `then: { notify }`): a message to the operator's notification sinks. */
    notify: z.boolean().default(false),
    /** hook.llm.complete (and a prompt hook): the operator's model endpoints it may ask, by name, with budgets. */
    llm: z.array(llmGrantSchema).max(16).default([]),
  })
  .strict();

/**
 * What the operator writes about permissions (a hook's approval, or a ceiling): only the kinds
 * written count. A kind left out means "the operator said nothing about it", not "nothing".
 */
export const permissionsOverrideSchema = z
  .object({
    read: z.array(pathGrant).max(256).optional(),
    run: z.array(runGrantSchema).max(64).optional(),
    env: z.array(envName).max(256).optional(),
    net: z.array(netHost).max(64).optional(),
    inject_context: z.boolean().optional(),
    store: z.boolean().optional(),
    modify: z.array(fieldPath).max(64).optional(),
    notify: z.boolean().optional(),
    llm: z.array(llmGrantSchema).max(16).optional(),
  })
  .strict();

/** What the operator refuses every hook, whatever was granted (`deny:`): deny always wins. */
export const denySchema = z
  .object({
    read: z.array(pathGrant).max(256).default([]),
    run: z.array(z.string().min(1)).max(256).default([]),
    env: z.array(envName).max(256).default([]),
    net: z.array(netHost).max(256).default([]),
  })
  .strict();

export type PermissionsConfig = z.output<typeof permissionsSchema>;
export type DenyConfig = z.output<typeof denySchema>;
