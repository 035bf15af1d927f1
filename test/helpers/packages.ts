import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILT_BINARY, runProgram, type RunResult } from "./binary.ts";
import { DaemonWorld } from "./daemon.ts";

/** A package folder: hook.yaml and handler.ts. */
export interface PackageSpec {
  readonly id: string;
  readonly version: string;
  readonly permissions?: string;
  readonly onError?: "continue" | "deny";
  /** The handler's body; default: deny writes to .env files, naming the hook. */
  readonly handler?: string;
}

export const ENV_GUARD = (id: string): string =>
  `export default (e) => /\\.env$/.test(e.tool_input?.file_path ?? "") ? { action: "deny", reason: "${id} guards .env" } : undefined;\n`;

/** A temp HOME with a project (a git repository) to run dist/hookbox in, the way a user does. */
export class PackageWorld extends DaemonWorld {
  readonly project = join(this.dir, "project");
  readonly userHooks = join(this.home, ".config/hookbox/hooks");
  readonly operatorFile = join(this.home, ".config/hookbox/hookbox.yaml");

  constructor() {
    super();
    mkdirSync(join(this.project, ".git"), { recursive: true });
    mkdirSync(join(this.home, ".config/hookbox"), { recursive: true });
  }

  hookbox(args: readonly string[], options: { cwd?: string; stdin?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
    return runProgram([BUILT_BINARY, ...args], {
      cwd: options.cwd ?? this.project,
      env: this.env(options.env),
      stdin: options.stdin ?? "",
      timeoutMs: 60_000,
    });
  }

  writeOperator(yaml: string): void {
    writeFileSync(this.operatorFile, yaml);
  }

  writePackage(dir: string, spec: PackageSpec): string {
    mkdirSync(dir, { recursive: true });
    const permissions = spec.permissions ? `permissions: ${spec.permissions}\n` : "";
    writeFileSync(
      join(dir, "hook.yaml"),
      `id: ${spec.id}\nversion: ${spec.version}\nevents: [PreToolUse]\non_error: ${spec.onError ?? "deny"}\n${permissions}handler: handler.ts\n`,
    );
    writeFileSync(join(dir, "handler.ts"), spec.handler ?? ENV_GUARD(spec.id));
    return dir;
  }

  /** A Claude Code PreToolUse through `emit --no-daemon`, from the project. */
  async claude(payload: Record<string, unknown>, event = "PreToolUse"): Promise<{ json: Record<string, unknown>; result: RunResult }> {
    const result = await this.hookbox(["emit", event, "--agent", "claude", "--no-daemon"], {
      stdin: JSON.stringify({ session_id: "s", transcript_path: "", cwd: this.project, hook_event_name: event, ...payload }),
    });
    return { json: JSON.parse(result.stdout || "{}") as Record<string, unknown>, result };
  }

  writeEnv(): Promise<{ json: Record<string, unknown>; result: RunResult }> {
    return this.claude({ tool_name: "Write", tool_input: { file_path: join(this.project, ".env"), content: "x" } });
  }
}

/** The reason Claude Code would show for a denial, if it was one. */
export function denial(json: Record<string, unknown>): string | undefined {
  return (json.hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined)?.permissionDecision === "deny"
    ? (json.hookSpecificOutput as { permissionDecisionReason: string }).permissionDecisionReason
    : undefined;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });
}
