import type { CapabilityIO, SpawnResult } from "../../platform/capability-io.ts";
import { deniedByVerdict, refused, yamlList, yamlScalar } from "../denied.ts";
import { envAllowed, type EnvPolicy } from "../env/policy.ts";
import { failed } from "../errors.ts";
import { decide, listLayer, type KindLayers } from "../grants/layers.ts";
import type { PathGuard } from "../paths/guard.ts";
import { isAbsolute, isWithin, normalize } from "../paths/posix.ts";
import { allowAllReason } from "./allow-all.ts";
import { argsMatch, shellSyntax } from "./argv.ts";
import { childEnvironment } from "./child-env.ts";
import { commandNames, denyHits, sameCommand, type CommandRef } from "./command.ts";
import { GIT_HARDENING_ENV, hardenedGitArgs, repositoryConfigProblem } from "./git-hardening.ts";
import type { RunPolicy, RunRule } from "./policy.ts";
import { refusedArguments } from "./refused-args.ts";
import { specialPathArgument } from "./special-paths.ts";

export interface RunnerContext {
  readonly hookId: string;
  readonly io: CapabilityIO;
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly paths: PathGuard;
  readonly envPolicy: EnvPolicy;
}

export interface StreamCap {
  readonly headBytes: number;
  readonly tailBytes: number;
}

export interface RunInput {
  /** The call as the handler made it, for messages. */
  readonly call: string;
  readonly cmd: string;
  readonly args: readonly string[];
  /** As the guest gave it: relative to the workspace; absent = the workspace. */
  readonly cwd?: string;
  readonly stdin?: string;
  readonly timeoutMs: number;
  readonly stdout: StreamCap;
  readonly stderr: StreamCap;
  /** The argv pattern a denial suggests (hook.gitDiff suggests `["diff", "**"]`, not its exact argv). */
  readonly suggestArgs?: readonly string[];
  readonly signal: AbortSignal;
}

interface RunAccess {
  readonly command: CommandRef;
  readonly args: readonly string[];
}

const ruleMatches = (rule: RunRule, access: RunAccess): boolean => sameCommand(rule.command, access.command) && argsMatch(rule.args, access.args);
const showRule = (rule: RunRule): string => `${rule.command.name} ${rule.args.join(" ")}`;

/**
 * Decides and runs hook.run and everything built on it (gitDiff, fileDiff, runTests): refused
 * argument classes first (no grant lifts them), then the grants, then the working directory,
 * then the arguments resolved as paths from it (special-paths.ts); git is hardened
 * (git-hardening.ts). The program runs by absolute path, without a shell, in its own process
 * group, with a built environment.
 */
export class Runner {
  constructor(
    private readonly policy: RunPolicy,
    private readonly ctx: RunnerContext,
  ) {}

  async run(input: RunInput): Promise<SpawnResult> {
    const rule = this.authorize(input);
    const program = rule.command.path;
    // A grant whose command was not on PATH when the hook loaded is inert: it never runs anything.
    if (program === undefined)
      throw failed("not_found", `${input.call}: run: ${JSON.stringify(rule.command.name)} was not found on PATH when the hook loaded`);
    const cwd = await this.workingDirectory(input.call, input.cwd);
    const special = await specialPathArgument(input.args, cwd, this.ctx.io);
    if (special !== undefined) {
      throw refused(
        this.ctx.hookId,
        input.call,
        `${special}, a kernel file system no command may reach (/proc/<pid>/environ holds the daemon's secrets; /dev and /sys are devices). No grant can allow this`,
      );
    }
    const git = commandNames(rule.command).includes("git");
    const env = {
      ...childEnvironment({
        home: this.ctx.home,
        program,
        hostEnv: this.ctx.hostEnv,
        patterns: rule.env,
        allowed: (name) => envAllowed(this.ctx.envPolicy, name, rule.env),
      }),
      ...(git ? GIT_HARDENING_ENV : {}),
    };
    if (git) {
      const problem = await repositoryConfigProblem({ io: this.ctx.io, program, cwd, env, signal: input.signal });
      if (problem !== undefined) throw refused(this.ctx.hookId, input.call, problem);
    }
    const result = await this.ctx.io.spawn({
      file: program,
      args: git ? hardenedGitArgs(input.args) : input.args,
      cwd,
      env,
      ...(input.stdin === undefined ? {} : { stdin: input.stdin }),
      timeoutMs: input.timeoutMs,
      stdout: input.stdout,
      stderr: input.stderr,
      signal: input.signal,
    });
    if (result.aborted) throw failed("timeout", `${input.call}: the invocation ended, the command was killed`);
    return result;
  }

  /** The declared rule that allows this call, or a PermissionDenied naming what would. */
  authorize(input: Pick<RunInput, "call" | "cmd" | "args" | "suggestArgs">): RunRule {
    const { hookId } = this.ctx;
    const candidates = this.policy.declared.filter((rule) => rule.command.name === input.cmd || rule.command.path === input.cmd);
    const command = candidates[0]?.command ?? {
      name: input.cmd,
      path: isAbsolute(input.cmd) ? normalize(input.cmd) : undefined,
      realPath: undefined,
    };
    const refusedWhy = refusedArguments(commandNames(command), input.args);
    if (refusedWhy !== undefined) throw refused(hookId, input.call, `${refusedWhy}. No grant can allow this`);
    for (const [index, arg] of input.args.entries()) {
      const syntax = shellSyntax(arg);
      if (syntax !== undefined && !candidates.some((rule) => rule.args[index] === arg)) {
        throw refused(
          hookId,
          input.call,
          `argument ${index + 1} ${JSON.stringify(arg)} holds shell syntax (${syntax}). No shell ever runs, but a tool may hand an argument to one, so a wildcard never matches it: a grant must name it literally`,
        );
      }
    }
    const access: RunAccess = { command, args: input.args };
    const verdict = decide(this.layers(), access);
    if (!verdict.ok) {
      const yaml = `[{ cmd: ${yamlScalar(input.cmd)}, args: ${yamlList(input.suggestArgs ?? input.args)} }]`;
      throw deniedByVerdict(hookId, input.call, verdict, { kind: "run", yaml });
    }
    const rule = this.policy.declared.find((candidate) => ruleMatches(candidate, access));
    if (!rule) throw new Error("run verdict allowed a call no declared rule matches");
    return rule;
  }

  private layers(): KindLayers<RunAccess> {
    const layer = (rules: readonly RunRule[]) => listLayer(rules, ruleMatches, showRule);
    const { declared, approval, ceiling, deny } = this.policy;
    return {
      declared: layer(declared),
      approval: approval && layer(approval),
      ceiling: ceiling && layer(ceiling),
      defaultCeiling: { refuse: (access) => allowAllReason(commandNames(access.command)) },
      deny: listLayer(
        deny,
        (entry, access: RunAccess) => denyHits(entry, access.command),
        (entry) => entry.name,
      ),
    };
  }

  /** Commands run inside the workspace only: `cwd` resolved, symlinks too, then confined. */
  private async workingDirectory(call: string, cwd: string | undefined): Promise<string> {
    const workspace = await this.ctx.paths.workspaceRealPath();
    if (workspace === undefined) throw refused(this.ctx.hookId, call, "commands run in the workspace, and this event has none (no cwd)");
    if (cwd === undefined) return workspace;
    const lexical = this.ctx.paths.resolve(call, cwd);
    const real = normalize(await this.ctx.io.realPath(lexical));
    if (!isWithin(workspace, real)) {
      throw refused(
        this.ctx.hookId,
        call,
        `cwd ${JSON.stringify(cwd)} resolves to ${real}, outside the workspace ${workspace}; commands run only inside the workspace`,
      );
    }
    if ((await this.ctx.io.lstat(real)).kind !== "directory") throw refused(this.ctx.hookId, call, `cwd ${JSON.stringify(cwd)} is not a directory`);
    return real;
  }
}
