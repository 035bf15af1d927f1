import { Option } from "commander";
import type { CapabilityHost } from "../capabilities/types.ts";
import type { Locations } from "../hooks/config/locations.ts";
import type { OperatorFile } from "../hooks/config/schema.ts";
import { HookboxError } from "../core/errors.ts";
import { findProjectRoot } from "../decide/project.ts";
import { packageTree, type Acquired, type PackageDeps } from "../hooks/packages/acquire.ts";
import type { PackageTree } from "../hooks/packages/tree.ts";
import { allowFlags, notAllowed } from "../hooks/packages/consent.ts";
import { inspectPackage, type InspectedPackage } from "../hooks/packages/inspect.ts";
import type { LockSigner } from "../hooks/packages/lock.ts";
import { checkSignature, trustedKeys } from "../hooks/packages/signature.ts";
import type { CliContext } from "./context.ts";
import { usableOperator } from "./operator-file.ts";
import { detailLines, refusedConsequence, summaryLines } from "./review-lines.ts";
import { wrap } from "../core/text/wrap.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { locationsFrom } from "./setup.ts";

/** What add, update, remove and import share: where packages go, the operator file, the runtime. */
export interface PackageSession {
  readonly ctx: CliContext;
  readonly runtime: HookRuntimeFactory;
  readonly locations: Locations;
  readonly operator: OperatorFile;
  readonly capabilities: CapabilityHost;
  readonly deps: PackageDeps;
  /** The user's hooks directory, or the project's with --project. */
  readonly hooksDir: string;
  /** The project root when --project was given. */
  readonly project: string | undefined;
}

export interface SessionOptions {
  readonly project?: boolean;
  readonly config?: string;
}

export async function openSession(ctx: CliContext, runtime: HookRuntimeFactory, options: SessionOptions): Promise<PackageSession> {
  const locations = locationsFrom(ctx, { ...(options.config ? { config: options.config } : {}) });
  const operator = await usableOperator(ctx, runtime, locations);
  const project = options.project ? await findProjectRoot(ctx.host.fs, ctx.host.cwd(), ctx.host.homeDir()) : undefined;
  const host = ctx.host;
  return {
    ctx,
    runtime,
    locations,
    operator,
    capabilities: runtime.capabilities(locations),
    deps: { fs: host.fs, io: host.capabilityIO, packageIO: host.packageIO, env: host.env, home: host.homeDir() },
    hooksDir: project ? `${project}/.hookbox/hooks` : locations.userHooksDir,
    project,
  };
}

/** A package fetched, its signature checked and its hook loaded as it would run: ready to be reviewed. */
export interface Candidate {
  readonly acquired: Acquired;
  readonly tree: PackageTree;
  readonly signer: LockSigner | null;
  readonly inspected: InspectedPackage;
}

export async function candidateOf(session: PackageSession, acquired: Acquired, extraKeys: readonly string[] = []): Promise<Candidate> {
  // The signature first: nothing of a bundle is unpacked before it is known to be the one signed.
  const signer = await checkSignature(
    acquired,
    trustedKeys(session.operator, extraKeys),
    session.operator.packages.require_signatures,
    session.deps.packageIO,
  );
  const tree = await packageTree(acquired, session.deps.packageIO);
  const where = acquired.bundle?.where ?? acquired.source.replace(/^[a-z]+:/, "");
  const inspected = await inspectPackage(tree, where, session.operator, session.capabilities);
  return { acquired, tree, signer, inspected };
}

/**
 * The review as printed before any consent: what it is and who signed it, what it can do here in
 * a line, the grants grouped with why each is capped or refused, and what will not work because
 * of a refusal.
 */
export function describeCandidate(candidate: Candidate, width: number): string[] {
  const { inspected, signer, acquired } = candidate;
  const definition = inspected.hook.definition;
  const lines = [`${inspected.id} ${inspected.version ?? "(no version)"} from ${acquired.source}${acquired.note ? ` (${acquired.note})` : ""}`];
  if (definition.summary) lines.push(...wrap(definition.summary, width, "  ", "  "));
  lines.push(signer ? `  signed by key ${signer.key_id} (trusted comment: ${signer.trusted_comment})` : "  unsigned");
  const review = inspected.hook.review.lines;
  lines.push(...summaryLines(review, "  ", width));
  if (review.length > 0) lines.push("  it asks for:", ...detailLines(review, "    ", width));
  lines.push(...refusedConsequence(inspected.id, review, definition.onError, "  ", width));
  return lines;
}

export interface ConsentOptions {
  readonly yes?: boolean;
  readonly allow?: readonly string[];
}

/**
 * Consent to `needed` grants: with --yes, every one of them must be named by --allow (the refusal
 * gives the exact flags); without, the user is asked at the terminal; without a terminal, refused.
 * `always`: ask even when no grant is needed (installing something new).
 */
export async function obtainConsent(
  ctx: CliContext,
  question: string,
  needed: readonly string[],
  options: ConsentOptions,
  always: boolean,
): Promise<void> {
  if (needed.length === 0 && !always) return;
  if (options.yes) {
    const missing = notAllowed(needed, options.allow ?? []);
    if (missing.length > 0)
      throw new HookboxError(
        "consent_required",
        `--yes accepts only the grants --allow names; not accepted: ${missing.join("; ")}. To accept what is asked, run again with:  ${allowFlags(needed)}`,
      );
    return;
  }
  if (!ctx.host.stdinIsTTY())
    throw new HookboxError("consent_required", `nothing was changed: there is no terminal to ask. To accept, run again with:  ${allowFlags(needed)}`);
  ctx.err(`${question} [y/N] `);
  const answer = (await ctx.host.readStdinLine(200))?.trim().toLowerCase();
  if (answer !== "y" && answer !== "yes") throw new HookboxError("consent_required", "nothing was changed (not accepted)");
}

/** --config, for the commands that read the operator file but load no hook set of a project. */
export function configOption(): Option {
  return new Option("--config <file>", "the operator file; default: ~/.config/hookbox/hookbox.yaml");
}

/** --allow, repeatable. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
