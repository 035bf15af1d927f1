import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { HostCallError } from "../../sandbox/index.ts";
import { createCapabilityHost, type CapabilityHost, type PreparedGrants } from "../../src/capabilities/index.ts";
import { permissionsSchema, type PermissionsConfig } from "../../src/capabilities/grants/schema.ts";
import { operatorFileSchema, type OperatorFile } from "../../src/hooks/config/schema.ts";
import type { NativeEvent } from "../../src/core/events/types.ts";
import type { CapabilityIO } from "../../src/platform/capability-io.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";

export const CANARY = "canary-7f3e1b2c-sk-ant-do-not-leak";

/** A fresh real directory (symlinks resolved: /tmp may be one), removed by the returned cleanup. */
export function tempDir(prefix = "hookbox-cap-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

type PartialPermissions = Partial<PermissionsConfig>;

/**
 * An operator file as the contract means it: a kind absent from `hooks.<id>.permissions` or
 * `ceilings.permissions` is absent (not an empty list). Built directly, not through
 * operatorFileSchema, whose .partial() sections currently fill every kind with defaults.
 */
export function operator(
  parts: { hooks?: Record<string, { permissions?: PartialPermissions }>; ceilings?: PartialPermissions; deny?: Partial<OperatorFile["deny"]> } = {},
): OperatorFile {
  const base = operatorFileSchema.parse({});
  return {
    ...base,
    hooks: (parts.hooks ?? {}) as OperatorFile["hooks"],
    ceilings: parts.ceilings ? { ...base.ceilings, permissions: parts.ceilings } : base.ceilings,
    deny: { ...base.deny, ...parts.deny },
  };
}

export interface TestHostOptions {
  readonly env?: Record<string, string | undefined>;
  readonly home?: string;
  readonly dataDir?: string;
  readonly io?: CapabilityIO;
}

/** The host environment a test daemon runs with: PATH to find commands, and secrets that must not leak. */
export function hostEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: "/root-home-not-used",
    ANTHROPIC_API_KEY: CANARY,
    GITHUB_TOKEN: `${CANARY}-gh`,
    LD_PRELOAD: "/tmp/evil.so",
    NODE_OPTIONS: "--require /tmp/evil.js",
    GIT_CONFIG_PARAMETERS: "'core.pager=sh -c id'",
    LANG_HINT: "fr",
    ...extra,
  };
}

export function testHost(options: TestHostOptions = {}): CapabilityHost {
  return createCapabilityHost({
    io: options.io ?? nodeCapabilityIO,
    env: options.env ?? hostEnv(),
    home: options.home ?? "/nonexistent-home",
    dataDir: options.dataDir ?? "/nonexistent-data",
  });
}

export async function prepare(
  host: CapabilityHost,
  permissions: PartialPermissions,
  options: { hookId?: string; operator?: OperatorFile; origin?: "builtin" | "user" | "dir" | "project" } = {},
): Promise<PreparedGrants> {
  const result = await host.prepare(
    {
      hookId: options.hookId ?? "test-hook",
      origin: options.origin ?? "dir",
      permissions: permissionsSchema.parse(permissions),
      file: "hooks/test-hook/hook.yaml",
    },
    options.operator ?? operator(),
  );
  if (!result.ok) throw new Error(`prepare failed:\n${result.errors.join("\n")}`);
  return result.grants;
}

export function event(cwd: string | undefined, extra: Partial<NativeEvent> = {}): NativeEvent {
  return { event_type: "PreToolUse", session_id: "s1", timestamp: "2026-01-01T00:00:00Z", ...(cwd === undefined ? {} : { cwd }), ...extra };
}

/** One invocation, with a convenience caller: `api("readFile", "a.txt")`. */
export function invoke(host: CapabilityHost, grants: PreparedGrants, cwd: string | undefined, signal: AbortSignal = new AbortController().signal) {
  const caps = host.forInvocation(grants, event(cwd));
  return { caps, api: (name: string, ...args: unknown[]) => caps.call(name, JSON.parse(JSON.stringify(args)) as unknown[], signal) };
}

/** A rejection from a host call, checked to be a plain {name, message, code} (nothing else crosses). */
export async function rejection(promise: Promise<unknown>): Promise<HostCallError> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expect(error, "expected the call to be refused").toBeDefined();
  const e = error as HostCallError;
  expect(Object.keys(e).sort()).toEqual(
    Object.keys(e)
      .filter((k) => ["name", "message", "code"].includes(k))
      .sort(),
  );
  return e;
}

export async function deniedWith(promise: Promise<unknown>, pattern: RegExp): Promise<string> {
  const e = await rejection(promise);
  expect(e.name).toBe("PermissionDenied");
  expect(e.code).toBe("capability_denied");
  expect(e.message).toMatch(pattern);
  return e.message;
}
