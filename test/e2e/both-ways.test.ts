import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { call } from "../helpers/daemon.ts";

/**
 * Same event, same decision: every fixture of every standard hook, sent as an agent sends it,
 * through `emit` in its own process and through a daemon serving the same hook set, gets the
 * same answer (stdout and exit code). Each fixture runs in a fresh session (hooks like
 * tool-ledger remember sessions) and, where it has one, its own workspace.
 */
const HANDLERS = resolve(import.meta.dirname, "../../handlers");

/**
 * The hook directory a hook's fixtures run from: `--hooks handlers/<id>`, except for self-protect,
 * which is on by default and built in — a second copy of it would be a duplicate (broken) entry —
 * so its fixtures run against the embedded one, with no --hooks.
 */
function hooksArgs(hook: string): string[] {
  return hook === "self-protect" ? [] : ["--hooks", join(HANDLERS, hook)];
}

interface Fixture {
  name: string;
  event: Record<string, unknown>;
  agent?: string;
  workspace?: Record<string, string>;
  config?: Record<string, unknown>;
  operator?: Record<string, unknown>;
}

interface Case {
  hook: string;
  name: string;
  fixture: Fixture;
  /** The operator file the fixture runs under (its own, with its config for the hook). */
  operator: string;
}

function cases(): Case[] {
  const all: Case[] = [];
  for (const hook of readdirSync(HANDLERS)
    .filter((d) => d !== "lib")
    .sort()) {
    const dir = join(HANDLERS, hook, "fixtures");
    for (const file of readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()) {
      const parsed = parse(readFileSync(join(dir, file), "utf8")) as Fixture | Fixture[];
      for (const fixture of Array.isArray(parsed) ? parsed : [parsed]) {
        const operator = (fixture.operator ?? {}) as { hooks?: Record<string, Record<string, unknown>> };
        const merged = fixture.config
          ? { ...operator, hooks: { ...operator.hooks, [hook]: { ...operator.hooks?.[hook], config: fixture.config } } }
          : operator;
        all.push({ hook, name: `${file} › ${fixture.name}`, fixture, operator: stringify(merged) });
      }
    }
  }
  return all;
}

/** What may differ between two answers to the same event: ids and timings. */
function normalized(out: RunResult): { code: number | null; answer: unknown } {
  const text = out.stdout.trim();
  const answer = text === "" ? undefined : (JSON.parse(text) as unknown);
  return {
    code: out.code,
    answer: JSON.parse(
      JSON.stringify(answer ?? null, (key, value: unknown) =>
        key === "event_id" || key === "duration_ms" || key === "started_at" || key === "completed_at" ? undefined : value,
      ),
    ),
  };
}

describe("both ways: every standard hook's fixtures, in emit's own process and through the daemon", () => {
  const all = cases();
  const root = mkdtempSync(join(tmpdir(), "hookbox-both-ways-"));
  const home = join(root, "home");
  const env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", XDG_RUNTIME_DIR: join(root, "run") };

  beforeAll(() => {
    mkdirSync(join(root, "run"), { recursive: true });
    mkdirSync(home, { recursive: true });
    // Commands the hooks run are the world's, not Hookbox's: npm's once-a-day update notice would
    // make one of two runs differ.
    writeFileSync(join(home, ".npmrc"), "update-notifier=false\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  it(`has the fixtures (${all.length})`, () => expect(all.length).toBeGreaterThanOrEqual(300));

  /**
   * One daemon per standard hook, with an operator file of its own that each fixture rewrites
   * before its two runs (the daemon re-reads it, as it would any edit): few processes at a time,
   * on a machine that may be busy.
   */
  async function runHook(hook: string, index: number, differences: string[]): Promise<void> {
    const config = join(root, `operator-${index}.yaml`);
    const socket = join(root, "run", `d${index}.sock`);
    const writeOperator = (text: string): void => {
      writeFileSync(`${config}.tmp`, text || "{}\n");
      renameSync(`${config}.tmp`, config); // a new file: the daemon's stamp check sees the change
    };
    writeOperator("");
    const child = spawn(BUILT_BINARY, ["serve", ...hooksArgs(hook), "--config", config, "--socket", socket, "--workers", "1"], {
      cwd: root,
      env,
      stdio: "ignore",
    });
    try {
      const deadline = Date.now() + 60_000;
      while (
        !(await call(socket, "GET", "/healthz").then(
          () => true,
          () => false,
        ))
      ) {
        if (Date.now() > deadline) throw new Error(`serve for ${hook} did not come up`);
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const [i, c] of all.entries()) {
        if (c.hook !== hook) continue;
        writeOperator(c.operator);
        const runs: RunResult[] = [];
        for (const [way, extra] of [
          ["emit", ["--no-daemon"]],
          ["daemon", []],
        ] as const) {
          const workspace = mkdtempSync(join(root, "ws-"));
          for (const [path, content] of Object.entries(c.fixture.workspace ?? {})) {
            mkdirSync(dirname(join(workspace, path)), { recursive: true });
            writeFileSync(join(workspace, path), content);
          }
          const session = `both-${i}-${way}`;
          const event: Record<string, unknown> = { ...c.fixture.event, ...(c.fixture.workspace ? { cwd: workspace } : {}) };
          const agent = c.fixture.agent ?? "native";
          const payload = agent === "native" ? { session_id: session, ...event } : { ...event, session_id: session };
          const eventArg = agent === "native" ? [String(event.event_type)] : [];
          const out = await runProgram(
            [BUILT_BINARY, "emit", ...eventArg, "--agent", agent, ...hooksArgs(c.hook), "--config", config, "--socket", socket, ...extra],
            {
              cwd: c.fixture.workspace ? workspace : root,
              env,
              stdin: JSON.stringify(payload),
            },
          );
          if (way === "daemon" && out.stderr.includes("not through the daemon"))
            differences.push(`${c.hook} ${c.name}: the daemon did not answer: ${out.stderr}`);
          runs.push(out);
          rmSync(workspace, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
        }
        const [alone, viaDaemon] = runs.map(normalized);
        // Session ids differ by design; compare with them taken out.
        const strip = (value: unknown): string => JSON.stringify(value).replace(/both-\d+-(emit|daemon)/g, "SESSION");
        if (strip(alone) !== strip(viaDaemon)) differences.push(`${c.hook} ${c.name}:\n  emit:   ${strip(alone)}\n  daemon: ${strip(viaDaemon)}`);
      }
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  }

  it("every fixture gets the same answer both ways", async () => {
    const differences: string[] = [];
    const hooks = [...new Set(all.map((c) => c.hook))];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < hooks.length; i = next++) await runHook(hooks[i] as string, i, differences);
    };
    await Promise.all([worker(), worker()]);
    expect(differences, differences.slice(0, 10).join("\n")).toEqual([]);
  }, 900_000);
});
