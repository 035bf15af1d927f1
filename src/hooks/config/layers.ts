import { resolvePath } from "../../core/text/posix-path.ts";
import type { OperatorFile } from "./schema.ts";

/**
 * The system policy and the user's operator file, merged into the one operator file every
 * evaluation uses. The rule is the agents' own for their managed settings: the user's file (and
 * the projects, which never write operator settings) may add to the system policy but never
 * weaken it. Pure: both files come in parsed, the merge and where each setting came from go out.
 *
 * | setting | merged |
 * |---|---|
 * | builtin, hooks_dirs | both; the system's first |
 * | hooks.<id> of a hook the system runs (its builtin, self-protect, its hooks_dirs' hooks, an id it configures) | the system's; the user's may only raise on_error to deny |
 * | hooks.<id> of any other hook | the user's |
 * | ceilings.limits, ceilings.community_limits | the lower of each value |
 * | ceilings.permissions | a kind only one file bounds: that bound; both: booleans and modify combined (both must allow), lists the system's |
 * | deny | both |
 * | fail_closed | either (decide/rule.ts merges it, where it alone is read) |
 * | dispatch, audit.system_log | the system's |
 * | daemon.auto_start | both must allow it |
 * | audit.max_file_mb, audit.keep_files | the larger (more history kept) |
 * | llm | the system's endpoints win by name; the user adds others |
 * | notify, triggers, escalation, audit.export, daemon.idle_exit_seconds | the system's when it sets them, else the user's |
 * | packages | trusted_keys and sources from both; require_signatures from either |
 */
export interface OperatorLayer {
  /** The file (undefined: none, all defaults). */
  readonly file: string | undefined;
  /** Where its relative hooks_dirs start from. */
  readonly baseDir: string;
  readonly operator: OperatorFile;
  /** The document as written, before defaults: what the file itself says. */
  readonly written: unknown;
}

export type LayerName = "system" | "user";

/** One line of the merged result and where it comes from (validate and doctor print these). */
export interface SettingOrigin {
  readonly setting: string;
  readonly value: string;
  readonly from: LayerName | "both";
}

/** What the user's file says that the merge does not apply, and why. */
export interface IgnoredSetting {
  readonly setting: string;
  readonly value: string;
  readonly why: string;
}

export interface LayeredOperator {
  readonly operator: OperatorFile;
  readonly origins: readonly SettingOrigin[];
  readonly ignored: readonly IgnoredSetting[];
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

function has(value: unknown, key: string): boolean {
  return Object.hasOwn(obj(value), key);
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const SELF_PROTECT = "self-protect";

/** Merge `user` into `system`. `systemHookIds`: the ids of the hooks in the system's hooks_dirs (the merge cannot load them). */
export function layerOperators(system: OperatorLayer, user: OperatorLayer, systemHookIds: ReadonlySet<string> = new Set()): LayeredOperator {
  const origins: SettingOrigin[] = [];
  const ignored: IgnoredSetting[] = [];
  const s = system.operator;
  const u = user.operator;
  const sw = obj(system.written);
  const uw = obj(user.written);
  const origin = (setting: string, value: unknown, from: SettingOrigin["from"]): void => void origins.push({ setting, value: show(value), from });
  const ignore = (setting: string, value: unknown, why: string): void => void ignored.push({ setting, value: show(value), why });

  // builtin and hooks_dirs: both, the system's first (a user's hook cannot take the id of the system's).
  const builtin = [...new Set([...s.builtin, ...u.builtin])];
  for (const id of builtin) origin(`builtin: ${id}`, id, s.builtin.includes(id) ? (u.builtin.includes(id) ? "both" : "system") : "user");
  const systemDirs = s.hooks_dirs.map((dir) => resolvePath(system.baseDir, dir));
  const userDirs = u.hooks_dirs.map((dir) => resolvePath(user.baseDir, dir)).filter((dir) => !systemDirs.includes(dir));
  for (const dir of systemDirs) origin(`hooks_dirs: ${dir}`, dir, "system");
  for (const dir of userDirs) origin(`hooks_dirs: ${dir}`, dir, "user");

  // hooks.<id>: the system's hooks stay as the system configured them.
  const governed = new Set([...s.builtin, SELF_PROTECT, ...systemHookIds, ...Object.keys(s.hooks)]);
  const hooks: OperatorFile["hooks"] = { ...s.hooks };
  for (const [id, override] of Object.entries(s.hooks))
    for (const [key, value] of Object.entries(override)) origin(`hooks.${id}.${key}`, value, "system");
  for (const [id, override] of Object.entries(u.hooks)) {
    if (!governed.has(id)) {
      hooks[id] = override;
      for (const [key, value] of Object.entries(override)) origin(`hooks.${id}.${key}`, value, "user");
      continue;
    }
    for (const [key, value] of Object.entries(override)) {
      if (key === "on_error" && value === "deny") {
        if (hooks[id]?.on_error !== "deny") {
          hooks[id] = { ...hooks[id], on_error: "deny" };
          origin(`hooks.${id}.on_error`, value, "user");
        }
        continue;
      }
      ignore(`hooks.${id}.${key}`, value, `the system policy runs ${id}: a user's file may only make it stricter (on_error: deny)`);
    }
  }

  // ceilings: the lower of each limit; permission bounds combined where they combine.
  const swCeilings = obj(sw.ceilings);
  const uwCeilings = obj(uw.ceilings);
  const limits = lowerLimits("ceilings.limits", s.ceilings.limits, obj(swCeilings.limits), obj(uwCeilings.limits), origin);
  const community = lowerLimits(
    "ceilings.community_limits",
    s.ceilings.community_limits,
    obj(swCeilings.community_limits),
    obj(uwCeilings.community_limits),
    origin,
  );
  const permissions = combinedPermissions(
    s.ceilings.permissions,
    has(uwCeilings, "permissions") ? u.ceilings.permissions : undefined,
    origin,
    ignore,
  );
  const ceilings: OperatorFile["ceilings"] = {
    ...(limits ? { limits } : {}),
    ...(permissions ? { permissions } : {}),
    community_limits: community ?? s.ceilings.community_limits,
  };

  // deny: both.
  const deny = {
    read: union(s.deny.read, u.deny.read),
    run: union(s.deny.run, u.deny.run),
    env: union(s.deny.env, u.deny.env),
    net: union(s.deny.net, u.deny.net),
  };
  for (const kind of ["read", "run", "env", "net"] as const) {
    for (const value of deny[kind])
      origin(`deny.${kind}: ${value}`, value, s.deny[kind].includes(value) ? (u.deny[kind].includes(value) ? "both" : "system") : "user");
  }

  // fail_closed is merged where it alone is read (decide/rule.ts, layeredFailClosed): the system's stands here.

  // dispatch: the system's (a user's lower deadline would skip the system's guards).
  if (has(sw, "dispatch")) origin("dispatch", s.dispatch, "system");
  if (has(uw, "dispatch"))
    ignore(
      "dispatch",
      uw.dispatch,
      "the system policy's dispatch settings apply (a shorter deadline or a lower cap would keep its guards from running)",
    );

  // daemon: either may refuse a daemon; the idle time is the system's when it says.
  const daemon = {
    auto_start: s.daemon.auto_start && u.daemon.auto_start,
    idle_exit_seconds:
      has(obj(sw.daemon), "idle_exit_seconds") || !has(obj(uw.daemon), "idle_exit_seconds") ? s.daemon.idle_exit_seconds : u.daemon.idle_exit_seconds,
  };
  if (has(sw, "daemon") || has(uw, "daemon"))
    origin("daemon.auto_start", daemon.auto_start, !s.daemon.auto_start ? "system" : !u.daemon.auto_start ? "user" : "both");

  // audit: more history, never less; the system's anchor only.
  const uwAudit = obj(uw.audit);
  const audit: OperatorFile["audit"] = {
    max_file_mb: Math.max(s.audit.max_file_mb, u.audit.max_file_mb),
    keep_files: Math.max(s.audit.keep_files, u.audit.keep_files),
    ...(s.audit.export ? { export: s.audit.export } : u.audit.export ? { export: u.audit.export } : {}),
    ...(s.audit.system_log ? { system_log: s.audit.system_log } : {}),
  };
  if (has(uwAudit, "system_log")) ignore("audit.system_log", uwAudit.system_log, "only the system policy says where the audit anchor goes");
  if (s.audit.export && u.audit.export) ignore("audit.export", uwAudit.export, "the system policy's audit export applies");

  // llm: the system's endpoints keep their names.
  const llm: OperatorFile["llm"] = { ...u.llm, ...s.llm };
  for (const name of Object.keys(s.llm)) origin(`llm.${name}`, s.llm[name]?.endpoint, "system");
  for (const name of Object.keys(u.llm)) {
    if (Object.hasOwn(s.llm, name)) ignore(`llm.${name}`, u.llm[name]?.endpoint, `the system policy defines the endpoint "${name}"`);
    else origin(`llm.${name}`, u.llm[name]?.endpoint, "user");
  }

  // escalation: the system's when it sets one (a user's could raise its threshold), else the user's (it only adds strictness).
  const escalation = s.escalation ?? u.escalation;
  if (s.escalation) origin("escalation", s.escalation, "system");
  else if (u.escalation) origin("escalation", u.escalation, "user");
  if (s.escalation && u.escalation) ignore("escalation", u.escalation, "the system policy's escalation applies");

  const notify = has(sw, "notify") ? s.notify : u.notify;
  const triggers = has(sw, "triggers") ? s.triggers : u.triggers;
  const packages: OperatorFile["packages"] = {
    trusted_keys: union(s.packages.trusted_keys, u.packages.trusted_keys),
    require_signatures: s.packages.require_signatures || u.packages.require_signatures,
    sources: [...s.packages.sources, ...u.packages.sources],
  };
  if (packages.require_signatures) origin("packages.require_signatures", true, s.packages.require_signatures ? "system" : "user");

  return {
    operator: {
      ...s,
      builtin,
      hooks_dirs: [...systemDirs, ...userDirs],
      hooks,
      ceilings,
      deny,
      dispatch: s.dispatch,
      ...(escalation ? { escalation } : {}),
      triggers,
      notify,
      llm,
      daemon,
      audit,
      packages,
    },
    origins,
    ignored,
  };
}

function union<T>(a: readonly T[], b: readonly T[]): T[] {
  return [...new Set([...a, ...b])];
}

type Limits = NonNullable<OperatorFile["ceilings"]["limits"]>;

/** Each limit either file wrote, the lower where both did; undefined when neither wrote any. */
function lowerLimits(
  name: string,
  systemValue: Limits | undefined,
  systemWritten: Obj,
  userWritten: Obj,
  origin: (setting: string, value: unknown, from: SettingOrigin["from"]) => void,
): Limits | undefined {
  const out: Record<string, number> = { ...(systemValue as Record<string, number> | undefined) };
  for (const [key, value] of Object.entries(out)) if (Object.hasOwn(systemWritten, key)) origin(`${name}.${key}`, value, "system");
  for (const [key, value] of Object.entries(userWritten)) {
    if (typeof value !== "number") continue;
    const current = out[key];
    if (current === undefined || value < current) {
      out[key] = value;
      origin(`${name}.${key}`, value, "user");
    }
  }
  return Object.keys(out).length > 0 ? (out as Limits) : systemValue;
}

type Permissions = NonNullable<OperatorFile["ceilings"]["permissions"]>;
const BOOLEAN_KINDS = ["inject_context", "store", "notify"] as const;
const LIST_KINDS = ["read", "run", "env", "net", "llm"] as const;

function combinedPermissions(
  system: Permissions | undefined,
  user: Permissions | undefined,
  origin: (setting: string, value: unknown, from: SettingOrigin["from"]) => void,
  ignore: (setting: string, value: unknown, why: string) => void,
): Permissions | undefined {
  const out: Record<string, unknown> = { ...system };
  const from = new Map<string, SettingOrigin["from"]>(Object.keys(system ?? {}).map((kind) => [kind, "system"]));
  for (const kind of BOOLEAN_KINDS) {
    const mine = user?.[kind];
    if (mine === undefined) continue;
    if (system?.[kind] === undefined || (system[kind] === true && mine === false)) {
      out[kind] = mine;
      from.set(kind, "user");
    }
  }
  if (user?.modify !== undefined) {
    out.modify = system?.modify === undefined ? user.modify : system.modify.filter((field) => user.modify?.includes(field));
    from.set("modify", system?.modify === undefined ? "user" : "both");
  }
  for (const kind of LIST_KINDS) {
    const mine = user?.[kind];
    if (mine === undefined) continue;
    if (system?.[kind] === undefined) {
      out[kind] = mine;
      from.set(kind, "user");
    } else {
      ignore(
        `ceilings.permissions.${kind}`,
        mine,
        `the system policy bounds ${kind} too, and two lists of grants do not combine into one: the system's applies`,
      );
    }
  }
  for (const [kind, layer] of from) origin(`ceilings.permissions.${kind}`, out[kind], layer);
  return from.size > 0 ? (out as Permissions) : undefined;
}
