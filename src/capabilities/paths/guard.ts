import type { CapabilityIO } from "../../platform/capability-io.ts";
import { deniedByVerdict, refused, yamlList } from "../denied.ts";
import { decide, listLayer, type KindLayers, type Verdict } from "../grants/layers.ts";
import { DEFAULT_READ_PATTERNS, defaultReadCeiling, type ReadPolicy } from "../read/policy.ts";
import { compose, escapeGlob, globMatcher, literalPrefix, type PathPattern, type PathVariables } from "./patterns.ts";
import { basename, dirname, normalize, relativeTo, resolvePath } from "./posix.ts";
import { specialFileSystem } from "./special.ts";

/** What a checked path is for, so a denial suggests the grant that works: the file, or the directory and what is below it. */
export type GrantTarget = "file" | "tree";

export interface GuardContext {
  readonly hookId: string;
  readonly io: CapabilityIO;
  /** As the event gave them (the workspace is the event's cwd). */
  readonly vars: PathVariables;
}

/**
 * The only way a capability reaches a path: resolve it against the workspace, check the grants
 * on the path as written (no file system access yet, so a refusal reveals nothing about what
 * exists), then on its real path (symlinks resolved) — both must be granted and neither denied.
 * Callers that open the path then verify the descriptor (see read/open.ts): the real path is
 * only what was true at the time of the check.
 */
export class PathGuard {
  private realGlobs: Promise<ReadonlyMap<PathPattern, string | undefined>> | undefined;
  private realWorkspace: Promise<string | undefined> | undefined;

  constructor(
    private readonly policy: ReadPolicy,
    private readonly ctx: GuardContext,
  ) {}

  get workspace(): string | undefined {
    return this.ctx.vars.workspace;
  }

  /** The workspace with symlinks resolved (where commands run). */
  workspaceRealPath(): Promise<string | undefined> {
    const workspace = this.ctx.vars.workspace;
    this.realWorkspace ??= workspace === undefined ? Promise.resolve(undefined) : this.ctx.io.realPath(workspace).catch(() => undefined);
    return this.realWorkspace;
  }

  /** A guest path made absolute (relative ones are relative to the workspace). */
  resolve(call: string, path: string): string {
    const absolute = resolvePath(this.ctx.vars.workspace, path);
    if (absolute === undefined) throw refused(this.ctx.hookId, call, "a relative path needs a workspace, and this event has none (no cwd)");
    return absolute;
  }

  checkLexical(call: string, lexical: string, target: GrantTarget = "file"): void {
    const special = specialFileSystem(lexical);
    if (special) throw refused(this.ctx.hookId, call, `${lexical} is in ${special}, a kernel file system no hook may read`);
    const verdict = this.lexicalVerdict(lexical);
    if (!verdict.ok) throw deniedByVerdict(this.ctx.hookId, call, verdict, this.hint(lexical, this.ctx.vars.workspace, target));
  }

  async checkReal(call: string, lexical: string, real: string, target: GrantTarget = "file"): Promise<void> {
    const special = specialFileSystem(real);
    if (special) {
      const where = real === lexical ? real : `${lexical} resolves to ${real}, which`;
      throw refused(this.ctx.hookId, call, `${where} is in ${special}, a kernel file system no hook may read`);
    }
    const verdict = await this.realVerdict(real);
    if (!verdict.ok) {
      const shown = real === lexical ? call : `${call} (resolving to ${JSON.stringify(real)} through a symbolic link)`;
      throw deniedByVerdict(this.ctx.hookId, shown, verdict, this.hint(real, await this.workspaceRealPath(), target));
    }
  }

  /** Resolve, check as written, realpath, check the real path. `target: "tree"` when what is below the path is read too (listFiles). */
  async confine(call: string, path: string, target: GrantTarget = "file"): Promise<{ readonly lexical: string; readonly real: string }> {
    const lexical = this.resolve(call, path);
    this.checkLexical(call, lexical, target);
    const real = normalize(await this.ctx.io.realPath(lexical));
    await this.checkReal(call, lexical, real, target);
    return { lexical, real };
  }

  /** The same two checks without messages, for the many entries of a directory listing. */
  async permits(lexical: string, real: string): Promise<boolean> {
    return this.lexicalVerdict(lexical).ok && specialFileSystem(real) === undefined && (await this.realVerdict(real)).ok;
  }

  private lexicalVerdict(lexical: string): Verdict {
    return decide(
      this.layers((pattern) => lexicalGlob(pattern, this.ctx.vars)),
      lexical,
    );
  }

  private async realVerdict(real: string): Promise<Verdict> {
    const globs = await this.realizedGlobs();
    return decide(
      this.layers((pattern) => globs.get(pattern)),
      real,
    );
  }

  private layers(globOf: (pattern: PathPattern) => string | undefined): KindLayers<string> {
    const matches = (pattern: PathPattern, path: string): boolean => {
      const glob = globOf(pattern);
      return glob !== undefined && globMatcher(glob)(path);
    };
    const layer = (patterns: readonly PathPattern[]) => listLayer(patterns, matches, (pattern) => pattern.raw);
    const { declared, approval, ceiling, deny } = this.policy;
    return {
      declared: layer(declared),
      approval: approval && layer(approval),
      ceiling: ceiling && layer(ceiling),
      defaultCeiling: defaultReadCeiling((patterns, path) => patterns.some((pattern) => matches(pattern, path))),
      deny: layer(deny),
    };
  }

  /** Each pattern with its literal prefix replaced by that prefix's real path, once per invocation. */
  private realizedGlobs(): Promise<ReadonlyMap<PathPattern, string | undefined>> {
    this.realGlobs ??= (async () => {
      const { declared, approval, ceiling, deny } = this.policy;
      const all = [...declared, ...(approval ?? []), ...(ceiling ?? []), ...deny, ...DEFAULT_READ_PATTERNS];
      const prefixes = new Map<string, Promise<string>>();
      const entries = await Promise.all(
        all.map(async (pattern): Promise<[PathPattern, string | undefined]> => {
          const prefix = literalPrefix(pattern, this.ctx.vars);
          if (prefix === undefined) return [pattern, undefined];
          let real = prefixes.get(prefix);
          if (!real) prefixes.set(prefix, (real = this.realPathOfExisting(prefix)));
          return [pattern, compose(await real, pattern)];
        }),
      );
      return new Map(entries);
    })();
    return this.realGlobs;
  }

  /** realpath of the longest existing ancestor, with the missing rest appended (grants may name future files). */
  private async realPathOfExisting(path: string): Promise<string> {
    const missing: string[] = [];
    let head = path;
    for (;;) {
      try {
        const real = await this.ctx.io.realPath(head);
        return normalize([real, ...missing.reverse()].join("/"));
      } catch {
        if (head === "/") return path;
        missing.push(basename(head));
        head = dirname(head);
      }
    }
  }

  /** The read grant that allows it: the file itself, or for a directory that is listed, `dir/**` (which matches dir too). */
  private hint(path: string, workspace: string | undefined, target: GrantTarget): { kind: "read"; yaml: string } {
    const relative = workspace === undefined ? undefined : relativeTo(workspace, path);
    const base = relative === undefined ? escapeGlob(path) : relative === "" ? "${workspace}" : `\${workspace}/${escapeGlob(relative)}`;
    const shown = target === "tree" || relative === "" ? `${base === "/" ? "" : base}/**` : base;
    return { kind: "read", yaml: yamlList([shown]) };
  }
}

function lexicalGlob(pattern: PathPattern, vars: PathVariables): string | undefined {
  const prefix = literalPrefix(pattern, vars);
  return prefix === undefined ? undefined : compose(prefix, pattern);
}
