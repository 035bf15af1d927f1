import { runKey } from "../grants/keys.ts";
import { judge, yamlOf, type Relation } from "../review/judge.ts";
import type { GrantReview, ReviewContext } from "../review/types.ts";
import { envLayers, type EnvPolicy } from "../env/policy.ts";
import { decide } from "../grants/layers.ts";
import { allowAllReason } from "./allow-all.ts";
import { ANY_ONE, ANY_REST } from "./argv.ts";
import { commandNames, denyHits, sameCommand, type CommandRef } from "./command.ts";
import type { RunPolicy, RunRule } from "./policy.ts";

/** Whether every argv pattern `inner` accepts, `outer` accepts too. */
function argsCover(outer: readonly string[], inner: readonly string[]): boolean {
  for (let i = 0; i < outer.length; i++) {
    const word = outer[i];
    if (word === ANY_REST) return true;
    const other = inner[i];
    if (other === undefined || other === ANY_REST) return false;
    if (word !== ANY_ONE && word !== other) return false;
  }
  return inner.length === outer.length;
}

/** Whether some argv is accepted by both patterns. */
function argsMeet(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; ; i++) {
    const x = a[i];
    const y = b[i];
    if (x === ANY_REST || y === ANY_REST) return true;
    if (x === undefined || y === undefined) return x === y;
    if (x !== ANY_ONE && y !== ANY_ONE && x !== y) return false;
  }
}

function relate(rule: RunRule, grant: RunRule): Relation {
  if (!sameCommand(rule.command, grant.command)) return undefined;
  if (argsCover(rule.args, grant.args)) return "covers";
  return argsMeet(rule.args, grant.args) ? "overlaps" : undefined;
}

function describeArgs(args: readonly string[]): string {
  if (args.length === 1 && args[0] === ANY_REST) return "with any arguments";
  if (args.length === 0) return "with no arguments";
  return `with arguments ${args.map((arg) => (arg === ANY_ONE ? "<any one>" : arg === ANY_REST ? "<any more>" : JSON.stringify(arg))).join(" ")}`;
}

function words(rule: RunRule): string {
  const program = rule.command.path ?? rule.command.name;
  const allowAll = allowAllReason(commandNames(rule.command));
  const env = rule.env.length > 0 ? `, passing it your ${rule.env.join(", ")}` : "";
  return `run ${program} ${describeArgs(rule.args)}${env}${allowAll ? " — it can run anything with your rights" : ""}`;
}

export function reviewRun(policy: RunPolicy, envPolicy: EnvPolicy, ctx: ReviewContext): GrantReview[] {
  return policy.declared.map((rule) => {
    const grant = runKey(rule.command.name, rule.args, rule.env);
    const base = { kind: "run" as const, grant, words: words(rule) };
    if (rule.command.path === undefined)
      return {
        ...base,
        status: "refused" as const,
        why: `${rule.command.name} was not found on PATH when the hook loaded: the grant is inert (calling it fails, nothing runs)`,
        allow: `install ${rule.command.name}`,
      };
    const list = (rules: readonly RunRule[]) => ({
      rules,
      relate: (other: unknown) => relate(other as RunRule, rule),
      show: (other: unknown) => runKey((other as RunRule).command.name, (other as RunRule).args, []).slice(4),
    });
    const verdict = judge({
      kind: "run",
      hookId: ctx.hookId,
      yaml: `[{ cmd: ${rule.command.name}, args: ${yamlOf(rule.args)} }]`,
      deny: {
        rules: policy.deny,
        relate: (entry) => (denyHits(entry as CommandRef, rule.command) ? "covers" : undefined),
        show: (entry) => (entry as CommandRef).name,
      },
      approval: policy.approval && list(policy.approval),
      ceiling: policy.ceiling && list(policy.ceiling),
      defaultCeiling: () => {
        const reason = allowAllReason(commandNames(rule.command));
        return reason === undefined ? undefined : { status: "refused", reason };
      },
    });
    // The variables a command is given pass the env rules too; one that does not is left out.
    const withheld = rule.env.filter((name) => !name.endsWith("*") && !decide(envLayers(envPolicy, rule.env), name).ok);
    if (withheld.length === 0 || verdict.status === "refused") return { ...base, ...verdict };
    const cut = `${withheld.join(", ")} ${withheld.length === 1 ? "is" : "are"} not passed (the env rules refuse ${withheld.length === 1 ? "it" : "them"})`;
    return {
      ...base,
      status: "capped",
      why: verdict.why ? `${verdict.why}; ${cut}` : cut,
      allow:
        verdict.allow ??
        `the operator can approve the variables in hookbox.yaml:  hooks: { ${ctx.hookId}: { permissions: { env: ${yamlOf(withheld)} } } }`,
    };
  });
}
