import { z } from "zod";
import { checkEventName } from "../../core/events/names.ts";
import { parsePublicKey } from "../packages/minisign.ts";
import { compileRegex } from "../../core/text/safe-regex.ts";
import { COMMUNITY_LIMITS, limitsOverrideSchema, limitsSchema } from "./limits-schema.ts";
import { intIn, wholeNumber } from "./numbers.ts";
import { denySchema, permissionsOverrideSchema, permissionsSchema } from "../../capabilities/grants/schema.ts";
import { llmSettingsSchema } from "../../capabilities/llm/schema.ts";
import { notifySettingsSchema } from "../../capabilities/notify/schema.ts";
import { conditionSchema, resultTemplateSchema, stepSchema } from "./steps-schema.ts";
import {
  cronSchema,
  everySchema,
  MAX_INTERVAL_SECONDS,
  MIN_INTERVAL_SECONDS,
  seedTriggerSchema,
  triggerSettingsSchema,
  watchSchema,
} from "./trigger-schema.ts";

/**
 * The hook file and the operator file (hookbox.yaml), as strict zod schemas. Unknown keys are
 * errors: a typo (`enabeld: true`) must never silently disable a guard. Defaults live here and
 * nowhere else; `z.output` of these schemas is the resolved shape with every default applied.
 */

/** a-z, 0-9, - and _ (the repository hooks template's ids are snake_case: skill_activation_prompt). */
export const HOOK_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const hookId = z.string().regex(HOOK_ID, "a hook id is 1–64 characters of a-z, 0-9, - and _, starting with a letter or digit");

const eventName = z.string().superRefine((name, ctx) => {
  const check = checkEventName(name);
  if (!check.ok) ctx.addIssue({ code: "custom", message: check.message });
});

/** Regexes are compiled (RE2, linear time) while the file is validated, so errors carry a position. */
const regexPattern = z
  .string()
  .max(1024)
  .superRefine((pattern, ctx) => {
    const compiled = compileRegex(pattern);
    if (!compiled.ok) ctx.addIssue({ code: "custom", message: compiled.message });
  });

export const matchSchema = z
  .object({
    /** Claude Code matcher semantics: "*", "" or absent = all; "A|B" = exact names; anything else = regex. */
    tool: z
      .string()
      .max(1024)
      .superRefine((pattern, ctx) => {
        if (/^[A-Za-z0-9_\- ,|*]*$/.test(pattern)) return;
        if (/^[A-Za-z_][A-Za-z0-9_]*\(.*\)$/s.test(pattern.trim())) {
          ctx.addIssue({
            code: "custom",
            message: `"${pattern.slice(0, 80)}" is a permission rule: write it as match.if (match.tool takes tool names)`,
          });
          return;
        }
        const compiled = compileRegex(pattern);
        if (!compiled.ok) ctx.addIssue({ code: "custom", message: compiled.message });
      })
      .optional(),
    /** Globs over the file paths found in tool_input (file_path, path, notebook_path, edits[].file_path …). */
    paths: z.array(z.string().min(1).max(1024)).max(128).optional(),
    /** Dotted field path → regex, all must match (e.g. "tool_input.command": "^git "). */
    fields: z.record(z.string().min(1).max(256), regexPattern).optional(),
    /** Permission rules in Claude Code's syntax (its hooks' `if`): "Bash(git commit:*)", "Edit(src/**)"; a list selects on any. */
    if: z.union([z.string().min(1).max(1024), z.array(z.string().min(1).max(1024)).min(1).max(64)]).optional(),
    /** The seed's filters: the event's duration_ms is at least this (an event without one runs the hook). */
    min_duration_ms: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600 * 1000)
      .optional(),
    /** Globs over the event's changed_files (or the tool call's paths); an event that lists none runs the hook. */
    only_if_changed_paths: z.array(z.string().min(1).max(1024)).min(1).max(128).optional(),
    /** Globs over the event's ability_id (or tool_name): "*" all, "billing.*" one family. */
    ability_scope: z.union([z.string().min(1).max(256), z.array(z.string().min(1).max(256)).min(1).max(64)]).optional(),
  })
  .strict();

const handlerSchema = z.union([z.string().min(1).max(4096), z.object({ code: z.string().min(1) }).strict()]);

/**
 * A prompt hook's answer: `decision` asks the model for {decision: allow|deny|ask, reason},
 * `ok` for {ok, reason} (Claude Code's prompt hooks). `on_deny` is what a deny (or ok: false)
 * does: deny the event (blocks a Stop), ask the user, or give the reason to the agent as context.
 */
export const promptAnswerSchema = z
  .object({
    format: z.enum(["decision", "ok"]).default("decision"),
    on_deny: z.enum(["deny", "ask_user", "inject_context"]).default("deny"),
    /** Replaces Hookbox's system prompt (which says what JSON to answer). */
    system: z.string().min(1).max(20_000).optional(),
  })
  .strict();

export const approvalSchema = z
  .object({
    timeout_ms: intIn(1000, 24 * 3600 * 1000, 60_000, "ms"),
    default: z.enum(["allow", "deny"]).default("deny"),
  })
  .strict();

export const hookFileSchema = z
  .object({
    id: hookId,
    /** The list form; or `event_type` (the seed form) — exactly one of the two. */
    events: z.array(eventName).min(1).max(64).optional(),
    event_type: eventName.optional(),
    enabled: z.boolean().default(true),
    /** Lower runs first; ties run in id order. */
    priority: z.number().int().min(-1_000_000).max(1_000_000).default(100),
    summary: z.string().max(500).default(""),
    description: z.string().max(20_000).optional(),
    version: z.string().max(64).optional(),
    author: z.string().max(200).optional(),
    match: matchSchema.default({}),
    /** The TypeScript handler; a hook written in YAML alone (steps and then) has none. */
    handler: handlerSchema.optional(),
    /** Run on a schedule: a duration ("10m") or seconds; or the seed's interval_seconds; or a cron pattern. */
    every: everySchema.optional(),
    interval_seconds: z.number().int().min(MIN_INTERVAL_SECONDS).max(MAX_INTERVAL_SECONDS).optional(),
    cron: cronSchema.optional(),
    /** Run when files or folders change (folder.changed / file.changed events). */
    watch: watchSchema.optional(),
    /** The seed engine's trigger object, as it writes it (instead of events, every or watch). */
    trigger: seedTriggerSchema.optional(),
    /** Context gathered before the result (the seed's context steps), each through the hook's own permissions. */
    steps: z.array(stepSchema).max(32).optional(),
    /** The result applies only when every condition holds (otherwise the run is skipped, with the reason). */
    when: z.array(conditionSchema).max(32).optional(),
    /** The run is skipped, with the reason, when any condition holds. */
    skip_if: z.array(conditionSchema).max(32).optional(),
    /** A declarative result: what the hook returns, with {{event.x}} and {{step_N.field}} placeholders. */
    then: resultTemplateSchema.optional(),
    /** A prompt hook: this template (placeholders as in then) goes to the model, which answers the decision. */
    prompt: z.string().min(1).max(200_000).optional(),
    /** The seed engine's spelling of prompt. */
    prompt_template: z.string().min(1).max(200_000).optional(),
    /** How the prompt hook's model answers and what its "no" does (see docs/prompt-hooks.md). */
    answer: promptAnswerSchema.optional(),
    permissions: permissionsSchema.default(permissionsSchema.parse({})),
    limits: limitsSchema.default(limitsSchema.parse({})),
    /** What a failure of this hook (throw, limit, invalid result) does to the event. */
    on_error: z.enum(["continue", "deny"]).default("continue"),
    cooldown_seconds: z
      .number()
      .min(0)
      .max(7 * 24 * 3600)
      .default(0),
    /**
     * Run without holding the agent's event (Claude Code's `async`): its result reaches the agent at
     * the session's next event. Needs the operator's `hooks.<id>.background: true`; see docs/background-hooks.md.
     */
    background: z.boolean().default(false),
    /** How the handler's context lives: warm (reused, the default) or fresh (new per event). */
    isolation: z.enum(["warm", "fresh"]).default("warm"),
    /** Defaults for an ask_user result that sets no timeout or default of its own. */
    approval: approvalSchema.default(approvalSchema.parse({})),
    /** Free-form settings passed to the handler as hook.config. */
    config: z.record(z.string(), z.unknown()).default({}),
    /** Descriptive only: what the hook does to the world, shown by `hookbox list`. */
    /** What the hook does, as text; the template's `{append_to: path}` mappings are read as "append_to: path". */
    effects: z
      .array(z.union([z.string().max(500), z.record(z.string().max(100), z.string().max(400))]))
      .max(64)
      .default([])
      .transform((effects) =>
        effects.map((effect) =>
          typeof effect === "string"
            ? effect
            : Object.entries(effect)
                .map(([key, value]) => `${key}: ${value}`)
                .join("; "),
        ),
      ),
  })
  .strict()
  .superRefine((hook, ctx) => {
    const schedules = (["every", "interval_seconds", "cron"] as const).filter((key) => hook[key] !== undefined);
    const triggered = schedules.length > 0 || hook.watch !== undefined;
    if (hook.trigger && (hook.events || hook.event_type || triggered)) {
      ctx.addIssue({
        code: "custom",
        path: ["trigger"],
        message: "trigger (the seed's form) says it all: give it without events, event_type, every, interval_seconds, cron or watch",
      });
    } else if (hook.events && hook.event_type) {
      ctx.addIssue({ code: "custom", path: ["event_type"], message: "give either events (a list) or event_type (one), not both" });
    } else if (!hook.events && !hook.event_type && !triggered && !hook.trigger) {
      ctx.addIssue({
        code: "custom",
        path: ["events"],
        message:
          'missing: what runs this hook (events: [PreToolUse], event_type: PreToolUse, every: 10m, cron: "0 * * * *" or watch: { paths: [...] })',
      });
    }
    if (schedules.length > 1)
      ctx.addIssue({ code: "custom", path: [schedules[1] as string], message: `give one schedule: ${schedules.join(" and ")} are both set` });
    const prompt = hook.prompt ?? hook.prompt_template;
    if (hook.handler === undefined && hook.then === undefined && hook.steps === undefined && prompt === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["handler"],
        message: "missing: a handler (./handler.ts), or steps and then for a hook written in YAML alone, or a prompt for a model to decide",
      });
    }
    if (hook.prompt !== undefined && hook.prompt_template !== undefined)
      ctx.addIssue({ code: "custom", path: ["prompt_template"], message: "give prompt or prompt_template (the seed's spelling), not both" });
    if (prompt !== undefined && (hook.handler !== undefined || hook.then !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [hook.prompt !== undefined ? "prompt" : "prompt_template"],
        message:
          "a prompt hook's result is the model's answer: give a prompt without handler or then (a handler can ask the model itself with hook.llm.complete)",
      });
    }
    if (hook.answer !== undefined && prompt === undefined)
      ctx.addIssue({ code: "custom", path: ["answer"], message: "answer describes a prompt hook's model answer: give a prompt" });
    if (hook.handler !== undefined && hook.then !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["then"],
        message: "then is the result of a hook without a handler; a handler returns its own result (it finds the steps' results in event.steps)",
      });
    }
    if ((hook.when || hook.skip_if) && !hook.steps && !hook.then && prompt === undefined)
      ctx.addIssue({
        code: "custom",
        path: [hook.when ? "when" : "skip_if"],
        message: "when and skip_if judge steps and decide over then or a prompt: give steps, then or a prompt",
      });
  });

export type HookFile = z.output<typeof hookFileSchema>;
export type HookFileInput = z.input<typeof hookFileSchema>;
export type MatchConfig = z.output<typeof matchSchema>;
export type LimitsConfig = z.output<typeof limitsSchema>;

/** Per-hook operator settings: they can only narrow what a hook declared, never widen it. */
const hookOverrideSchema = z
  .object({
    enabled: z.boolean().optional(),
    priority: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    on_error: z.enum(["continue", "deny"]).optional(),
    cooldown_seconds: z
      .number()
      .min(0)
      .max(7 * 24 * 3600)
      .optional(),
    /** Grants a hook that declares `background: true` its background runs (false or absent: it runs in the foreground). */
    background: z.boolean().optional(),
    /** Merged over the hook's config (operator values win). */
    config: z.record(z.string(), z.unknown()).optional(),
    /** Lower limits for this hook (a value above the hook's own is ignored). */
    limits: limitsOverrideSchema.optional(),
    /** The permissions the operator approves for this hook: the hook gets the intersection. */
    permissions: permissionsOverrideSchema.optional(),
    /**
     * monitor (shadow mode): the hook runs on every event it matches and its would-be decision is
     * recorded (`hookbox runs --would-block`, the console), but nothing it returns reaches the
     * agent; `hookbox promote <id>` turns it on. enforce (the default): it decides.
     */
    mode: z.enum(["enforce", "monitor"]).optional(),
  })
  .strict();

/** A minisign public key: the base64 line of a `.pub` file (what `minisign -P` takes). */
const minisignKey = z
  .string()
  .min(1)
  .max(200)
  .superRefine((key, ctx) => {
    const parsed = parsePublicKey(key);
    if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
  });

/**
 * A bundle source the daemon polls (a fleet's hooks, on infrastructure a team already has): a
 * directory of bundles, or an https URL serving an index.json and the bundles beside it. Its
 * bundles must be signed by one of `keys` or packages.trusted_keys; `accept` is the consent
 * policy: the grants a bundle from it may declare and still be installed or updated unattended.
 */
const bundleSourceSchema = z
  .object({
    dir: z.string().min(1).max(4096).optional(),
    url: z
      .string()
      .min(1)
      .max(4096)
      .regex(/^https?:\/\//, "expected an https:// URL (http:// only for a loopback address)")
      .optional(),
    keys: z.array(minisignKey).max(64).default([]),
    poll_seconds: intIn(1, 7 * 24 * 3600, 300, "seconds"),
    accept: permissionsOverrideSchema.default({}),
  })
  .strict()
  .superRefine((source, ctx) => {
    if ((source.dir === undefined) === (source.url === undefined))
      ctx.addIssue({ code: "custom", message: "give exactly one of dir (a directory of bundles) or url (an https URL serving index.json)" });
  });

export const packagesSchema = z
  .object({
    /** minisign public keys whose signatures `add`, `update` and `verify` accept. */
    trusted_keys: z.array(minisignKey).max(64).default([]),
    /** Refuse any package without a valid signature by a trusted key (folders and git repositories included). */
    require_signatures: z.boolean().default(false),
    sources: z.array(bundleSourceSchema).max(16).default([]),
  })
  .strict();

export type BundleSourceConfig = z.output<typeof bundleSourceSchema>;
/** Where syslog goes: `unix:/dev/log` (a datagram socket), `unix-stream:/path`, `udp://host:514` or `tcp://host:601`. */
export const SYSLOG_ADDRESS = /^(unix|unix-stream):(\/.+)$|^(udp|tcp):\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** RFC 5424 §6.2.1 facility codes by name (12–15 have no common name and are left out). */
export const SYSLOG_FACILITIES = {
  kern: 0,
  user: 1,
  mail: 2,
  daemon: 3,
  auth: 4,
  syslog: 5,
  lpr: 6,
  news: 7,
  uucp: 8,
  cron: 9,
  authpriv: 10,
  ftp: 11,
  local0: 16,
  local1: 17,
  local2: 18,
  local3: 19,
  local4: 20,
  local5: 21,
  local6: 22,
  local7: 23,
} as const;
const FACILITY_NAMES = Object.keys(SYSLOG_FACILITIES) as [keyof typeof SYSLOG_FACILITIES, ...(keyof typeof SYSLOG_FACILITIES)[]];

const auditExportSchema = z
  .object({
    /** Records held per target while it cannot take them; past this the oldest are dropped and counted. */
    buffer_records: intIn(10, 1_000_000, 10_000, "records"),
    /** RFC 5424 messages, one per record (octet-counted on stream sockets, RFC 6587). */
    syslog: z
      .object({
        address: z.string().regex(SYSLOG_ADDRESS, 'expected "unix:/dev/log", "unix-stream:/path", "udp://host:514" or "tcp://host:601"'),
        facility: z.enum(FACILITY_NAMES).default("local0"),
        app_name: z
          .string()
          .regex(/^[!-~]{1,48}$/, "1–48 printable ASCII characters without spaces")
          .default("hookbox"),
        /** A message longer than this carries a stub naming the record instead (the record stays in the local file). */
        max_message_kb: intIn(1, 1024, 60, "KiB"),
      })
      .strict()
      .optional(),
    /** OTLP logs over HTTP (JSON), e.g. an OpenTelemetry Collector's http://127.0.0.1:4318/v1/logs. */
    otlp: z
      .object({
        endpoint: z.string().regex(/^https?:\/\/[^\s]+$/, "expected an http:// or https:// URL, e.g. http://127.0.0.1:4318/v1/logs"),
        headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,128}$/, "a header name"), z.string().max(8192)).default({}),
        timeout_ms: intIn(100, 120_000, 10_000, "ms"),
      })
      .strict()
      .optional(),
  })
  .strict();

export type AuditExportConfig = z.output<typeof auditExportSchema>;

/** The system tier's audit anchor: every chain head to the system log (syslog's socket by default, journald reads it too). */
const systemLogSchema = z
  .object({
    address: z
      .string()
      .regex(SYSLOG_ADDRESS, 'expected "unix:/dev/log", "unix-stream:/path", "udp://host:514" or "tcp://host:601"')
      .default("unix:/dev/log"),
    /** authpriv: Debian's rsyslog writes it to /var/log/auth.log, RHEL's to /var/log/secure (both readable by root and adm only). */
    facility: z.enum(FACILITY_NAMES).default("authpriv"),
    /** Files `audit verify --against-system-log` reads the heads back from, besides the journal; default: where the facility goes. */
    read: z.array(z.string().regex(/^\//, "an absolute path")).max(16).optional(),
  })
  .strict();

export type SystemLogConfig = z.output<typeof systemLogSchema>;

export const operatorFileSchema = z
  .object({
    /** Standard hooks (embedded in the binary) to enable, by id. */
    builtin: z.array(hookId).max(256).default([]),
    /** More hook directories, relative to this file. */
    hooks_dirs: z.array(z.string().min(1)).max(64).default([]),
    hooks: z.record(hookId, hookOverrideSchema).default({}),
    /** The most any hook may get, whatever it declares. Absent: see docs/permissions.md for the defaults. */
    ceilings: z
      .object({
        limits: limitsOverrideSchema.optional(),
        permissions: permissionsOverrideSchema.optional(),
        /**
         * The most time a hook that came with a project or a package may take: no community hook can
         * spend the agent's hook timeout, whatever its YAML asks. The operator may raise it.
         */
        community_limits: limitsOverrideSchema.default(COMMUNITY_LIMITS),
      })
      .strict()
      .default({ community_limits: COMMUNITY_LIMITS }),
    /** Refused for every hook, whatever was granted: deny always wins. */
    deny: denySchema.default(denySchema.parse({})),
    /**
     * When Hookbox cannot fully evaluate an event (a hook that cannot load or did not run, an
     * undecodable event, an unwritable audit log), deny it whatever the hooks' on_error says.
     */
    fail_closed: z.boolean().default(false),
    dispatch: z
      .object({
        /** Hook invocations running at once across all events. */
        concurrency: intIn(1, 1024, 16, "invocations"),
        /** Wall-clock budget for all the hooks of one event; hooks not started by then are skipped. */
        event_deadline_ms: intIn(10, 15 * 60_000, 60_000, "ms"),
        /** Total context injected into one event by all hooks together. */
        injection_budget_kb: intIn(1, 1024, 32, "KiB"),
      })
      .strict()
      .default({ concurrency: 16, event_deadline_ms: 60_000, injection_budget_kb: 32 }),
    /**
     * Escalation: after this many denied events in one agent session, every later tool call of the
     * session is slowed (`slow_ms` before it is evaluated), asked of the user, or denied. Off when absent.
     */
    escalation: z
      .object({
        after_denials: wholeNumber(1, 10_000, "denials"),
        answer: z.enum(["slow", "ask", "deny"]),
        slow_ms: intIn(1, 60_000, 2000, "ms"),
      })
      .strict()
      .optional(),
    /** Hooks' schedules and watches, run by the daemon. */
    triggers: triggerSettingsSchema.default(triggerSettingsSchema.parse({})),
    /** Notification sinks for hook.notify and for triggered runs. */
    notify: notifySettingsSchema.default(notifySettingsSchema.parse({})),
    /** Model endpoints for hook.llm.complete and prompt hooks: one, or several by name. None by default. */
    llm: llmSettingsSchema.default({}),
    /** `hookbox emit` starting a daemon of its own when none answers (see README, "The daemon"). */
    daemon: z
      .object({
        /** Off: emit evaluates in its own process when no daemon answers, and starts none. */
        auto_start: z.boolean().default(true),
        /** An auto-started daemon exits after this long without events. */
        idle_exit_seconds: intIn(1, 7 * 24 * 3600, 900, "s"),
      })
      .strict()
      .default({ auto_start: true, idle_exit_seconds: 900 }),
    audit: z
      .object({
        /** The live audit file is rotated when it would grow past this. */
        max_file_mb: intIn(1, 10_240, 64, "MiB"),
        /** Rotated files kept (hookbox-audit.jsonl.1 … .N). */
        keep_files: intIn(0, 100, 5, "files"),
        /** Ship every record, as it is appended, to the fleet's log pipeline (read at start; the local file stays the source of truth). */
        export: auditExportSchema.optional(),
        /**
         * The system tier (read from the system policy only): where each audit chain head is sent,
         * somewhere users can append to but not erase, and where `hookbox audit verify
         * --against-system-log` reads them back.
         */
        system_log: systemLogSchema.optional(),
      })
      .strict()
      .default({ max_file_mb: 64, keep_files: 5 }),
    /** Hook packages: which signatures are trusted, and the bundle sources the daemon keeps installed. */
    packages: packagesSchema.default({ trusted_keys: [], require_signatures: false, sources: [] }),
  })
  .strict();

export type OperatorFile = z.output<typeof operatorFileSchema>;
