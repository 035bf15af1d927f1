import type { InvocationOutcome } from "../../../sandbox/index.ts";
import type { AuditEntry, AuditRecordV1 } from "../audit/record.ts";
import { createCapabilityHost } from "../../capabilities/index.ts";
import { parseYaml } from "../../hooks/config/diagnostics.ts";
import { formatDiagnostic } from "../../hooks/config/diagnostic.ts";
import { systemPolicyLocation } from "../../hooks/config/system-tier.ts";
import { resolveLocations, type Locations } from "../../hooks/config/locations.ts";
import type { SandboxExecutor } from "../chain/invoker.ts";
import { composeEvaluator } from "../compose.ts";
import { inlineOperatorSource } from "../operator-source.ts";
import { selfProtectMachine, type SelfProtectMachine } from "../self-protect.ts";
import { errorMessage } from "../../core/errors.ts";
import { parseEvent } from "../../core/events/parse.ts";
import type { NativeEvent } from "../../core/events/types.ts";
import { PROTOCOLS } from "../../agents/protocols.ts";
import { agentDirs } from "../../agents/config-dirs.ts";
import type { RuntimeHost } from "../../platform/index.ts";
import { compare, type Mismatch } from "./compare.ts";
import { fixtureFileSchema, type Fixture } from "./fixture.ts";
import { failureOf, recording, type RunFailure } from "./failures.ts";
import { pinnedLlm } from "./pinned-llm.ts";

export interface FixtureResult {
  /** "fixtures/deny-env.yaml › denies a write to .env" */
  readonly name: string;
  readonly ok: boolean;
  readonly mismatches: readonly Mismatch[];
  /** Why the fixture could not run at all (it failed to load, the hook did not load …). */
  readonly error?: string;
  /** Every hook run of the fixture that failed: a fixture fails on one unless it expects it (expect.status: failed, or error_code). */
  readonly failures: readonly RunFailure[];
  readonly ms: number;
}

/** The report of one hook's fixtures; snake_case, as `hookbox test --json` prints it. */
export interface HookTestReport {
  readonly dir: string;
  readonly hook_id: string | undefined;
  readonly results: readonly FixtureResult[];
  /** Problems that stop every fixture of the hook (its YAML, its handler). */
  readonly problems: readonly string[];
}

export interface RunnerDeps {
  readonly host: RuntimeHost;
  readonly executor: SandboxExecutor;
  /** Only fixtures whose "<hook dir name>/<file> › <name>" contains this. */
  readonly filter?: string;
}

const FIXTURE_FILE = /\.(ya?ml|json)$/;

/** Run every fixture of the hook in `dir` (a directory holding hook.yaml and fixtures/). */
export async function testHook(dir: string, deps: RunnerDeps): Promise<HookTestReport> {
  const { host } = deps;
  const fixtureDir = `${dir}/fixtures`;
  const entries = await host.fs.listDir(fixtureDir).catch(() => []);
  const files = entries
    .filter((e) => e.kind === "file" && FIXTURE_FILE.test(e.name))
    .map((e) => `${fixtureDir}/${e.name}`)
    .sort();
  const results: FixtureResult[] = [];
  const problems: string[] = [];
  let hookId: string | undefined;
  if (files.length === 0) problems.push(`no fixtures in ${fixtureDir} (each hook needs at least one: see hookbox new)`);
  for (const file of files) {
    const parsed = parseYaml(await host.fs.readText(file), file, fixtureFileSchema);
    if (!parsed.ok) {
      problems.push(...parsed.diagnostics.map(formatDiagnostic));
      continue;
    }
    const shortFile = file.slice(dir.length + 1);
    for (const fixture of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
      const started = performance.now();
      const name = `${shortFile} › ${fixture.name}`;
      if (deps.filter !== undefined && !`${dir.slice(dir.lastIndexOf("/") + 1)}/${name}`.includes(deps.filter)) continue;
      try {
        const outcome = await runFixture(dir, fixture, deps);
        hookId ??= outcome.hookId;
        if (outcome.problems.length > 0) {
          results.push({ name, ok: false, mismatches: [], error: outcome.problems.join("\n"), failures: [], ms: performance.now() - started });
          continue;
        }
        const mismatches = compare(fixture.expect, outcome.observed);
        results.push({ name, ok: mismatches.length === 0, mismatches, failures: outcome.failures, ms: performance.now() - started });
      } catch (error) {
        results.push({ name, ok: false, mismatches: [], error: errorMessage(error), failures: [], ms: performance.now() - started });
      }
    }
  }
  return { dir, hook_id: hookId, results, problems };
}

async function runFixture(dir: string, fixture: Fixture, deps: RunnerDeps) {
  const { host } = deps;
  const scratch = await host.fs.makeTempDir("hookbox-test-");
  try {
    const workspace = `${scratch}/workspace`;
    await host.fs.mkdirp(workspace, 0o700);
    const inside = (path: string): string => {
      if (path.startsWith("/") || path.split("/").includes(".."))
        throw new Error(`workspace path ${path} must be relative and stay inside the workspace`);
      return `${workspace}/${path}`;
    };
    for (const [path, content] of Object.entries(fixture.workspace ?? {})) {
      const full = inside(path);
      await host.fs.mkdirp(full.slice(0, full.lastIndexOf("/")), 0o755);
      await host.fs.writeTextAtomic(full, content, 0o644);
    }
    for (const [path, target] of Object.entries(fixture.symlinks ?? {})) {
      const full = inside(path);
      await host.fs.mkdirp(full.slice(0, full.lastIndexOf("/")), 0o755);
      await host.fs.symlink(target, full);
    }
    const model = pinnedLlm(fixture.llm ?? []);
    const capabilities = createCapabilityHost({
      // The model's replies are the fixture's: nothing leaves the machine in a test.
      llm: model,
      io: host.capabilityIO,
      // Hermetic: the hook sees the fixture's environment, plus PATH to find the commands it runs.
      env: { PATH: host.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", ...fixture.env },
      home: `${scratch}/home`,
      dataDir: `${scratch}/data`,
    });
    const records: AuditEntry[] = [];
    const outcomes = new Map<string, InvocationOutcome>();
    const executor = recording(deps.executor, outcomes);
    // The evaluator the daemon and emit use, on this hook's directory alone, with the fixture's operator.
    const evaluatorFor = (operator: unknown) =>
      composeEvaluator({
        host: { fs: host.fs, pid: host.pid, homeDir: () => `${scratch}/home` },
        locations: fixtureLocations(dir, scratch),
        capabilities,
        embedded: new Map(),
        executor,
        audit: { write: async (r) => void records.push(...r) },
        via: "test",
        operator: inlineOperatorSource(operator, [], [], fixtureMachine(fixture.env, workspace)),
      });
    let operatorInput: Record<string, unknown> = fixture.operator ?? {};
    let evaluator = await evaluatorFor(operatorInput);
    let { snapshot } = await evaluator.hookSets.forProject(undefined);
    const named = snapshot.hooks[0]?.definition.permissions.llm.map((grant) => (typeof grant === "string" ? grant : grant.endpoint)) ?? [];
    if (fixture.llm && operatorInput.llm === undefined && named.length > 0) {
      // Pinned replies need no real endpoint: each endpoint the hook names stands for the pinned model.
      operatorInput = {
        ...operatorInput,
        llm: Object.fromEntries(named.map((name) => [name, { endpoint: "http://127.0.0.1:9/v1", model: "pinned-by-fixture" }])),
      };
      evaluator = await evaluatorFor(operatorInput);
      ({ snapshot } = await evaluator.hookSets.forProject(undefined));
    }
    const hookId = snapshot.hooks[0]?.definition.id ?? snapshot.broken[0]?.id;
    const problems = [
      ...(snapshot.operatorStatus.state === "ok" ? [] : snapshot.operatorStatus.problems),
      ...snapshot.diagnostics.filter((d) => d.severity !== "warning"),
    ];
    if (problems.length > 0 || !hookId)
      return {
        hookId,
        problems: problems.length ? problems.map(formatDiagnostic) : [`no hook.yaml in ${dir}`],
        observed: undefined as never,
        failures: [],
      };
    if (fixture.config) {
      const input = operatorInput as { hooks?: Record<string, Record<string, unknown>> };
      evaluator = await evaluatorFor({ ...input, hooks: { ...input.hooks, [hookId]: { ...input.hooks?.[hookId], config: fixture.config } } });
    }
    const event = fixtureEvent(fixture, fixture.workspace || fixture.symlinks ? workspace : undefined);
    const { decision } = await evaluator.evaluate(event);
    const runs = records.filter((r): r is AuditRecordV1 => r.kind !== "decision");
    const hook = snapshot.hooks[0];
    const declared = hook?.definition.handler;
    const handler =
      hook &&
      declared &&
      (declared.kind === "file"
        ? { file: declared.path, source: await host.fs.readText(declared.path).catch(() => undefined) }
        : { file: `${hook.file}#handler`, source: declared.code });
    return {
      hookId,
      problems: [] as string[],
      observed: { decision, run: runs.find((r) => r.hook_id === hookId), llmCalls: model.calls },
      failures: runs.filter((r) => r.status === "failed").map((r) => failureOf(r, outcomes.get(r.hook_id), handler)),
    };
  } finally {
    await host.fs.removeTree(scratch);
  }
}

/** The fixture's event, decoded from the agent's payload when it is one; its cwd is the workspace when there is one. */
function fixtureEvent(fixture: Fixture, workspace: string | undefined): NativeEvent {
  const raw = workspace ? { ...fixture.event, cwd: workspace } : fixture.event;
  if (fixture.agent && fixture.agent !== "native")
    return { ...PROTOCOLS[fixture.agent].decode(raw, { env: {} }), ...(workspace ? { cwd: workspace } : {}) };
  return parseEvent({ session_id: "fixture", ...raw });
}

/**
 * The machine self-protect's fixtures describe (its config.locations): HOME=/home/dev with the
 * fixture's `env` (XDG_*, the agents' config-directory variables …), never the tester's own machine.
 */
function fixtureMachine(env: Readonly<Record<string, string>> | undefined, workspace: string): SelfProtectMachine {
  const home = env?.HOME ?? "/home/dev";
  const locations = resolveLocations({ env: { ...env, HOME: home }, homeDir: () => home, cwd: () => workspace }, {});
  return selfProtectMachine(locations, home, {});
}

/** Where a fixture's evaluation looks: only the hook's own directory, state in the scratch directory. */
function fixtureLocations(dir: string, scratch: string): Locations {
  return {
    project: dir,
    hookSources: [{ dir, origin: "dir", required: true }],
    operatorFile: { path: `${scratch}/hookbox.yaml`, explicit: false },
    dataDir: `${scratch}/data`,
    socketPath: `${scratch}/hookbox.sock`,
    builtin: [],
    userHooksDir: `${scratch}/hooks`,
    configHome: scratch,
    agentDirs: agentDirs({ env: {}, home: `${scratch}/home`, project: dir }),
    // Never this machine's system policy: a fixture's decision is the fixture's alone.
    system: systemPolicyLocation(`${scratch}/system`, false),
  };
}
