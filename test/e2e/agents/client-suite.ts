// What each real-client suite needs around its tests: the client found (or every test skipped with
// the reason), a fresh workspace set up for Hookbox — with a daemon on its socket when asked —
// removed after each test, and the two ways every suite evaluates.
import { afterEach, beforeAll, expect, type TestContext } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { findClient, type ClientName, type FoundClient } from "./clients.ts";
import { setUpHookbox, startDaemon } from "./hookbox-setup.ts";
import { AgentWorkspace } from "./workspace.ts";

/** Each suite runs twice: `hookbox emit` evaluating in its own process, and through a daemon. */
export const EVALUATION_MODES = [
  ["in emit's own process", false],
  ["through a daemon", true],
] as const;

export interface ClientSuite {
  /** The client's executable (or package directory); skips the test, saying why, when it is missing. */
  require(ctx: TestContext): string;
  /** A workspace with the operator file and project hooks of setUpHookbox, and a daemon if asked; removed after the test. */
  workspace(withDaemon: boolean): Promise<AgentWorkspace>;
}

/**
 * Registers the suite's beforeAll/afterEach; `alsoNeeds` are clients the suite cannot run without
 * either. `find` looks up a client that is not one of clients.ts's (Claude Code, Gemini CLI).
 */
export function clientSuite(name: ClientName, alsoNeeds?: readonly ClientName[]): ClientSuite;
export function clientSuite(name: string, alsoNeeds: readonly ClientName[], find: () => FoundClient): ClientSuite;
export function clientSuite(
  name: string,
  alsoNeeds: readonly ClientName[] = [],
  find: () => FoundClient = () => findClient(name as ClientName),
): ClientSuite {
  let client: FoundClient = { ok: false, reason: "not looked up yet" };
  const cleanups: (() => unknown)[] = [];
  beforeAll(() => {
    client = alsoNeeds.map(findClient).find((found) => !found.ok) ?? find();
    if (!client.ok) console.warn(`[${name}] skipping: ${client.reason}`);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    require(ctx) {
      if (!client.ok) ctx.skip(client.reason);
      return (client as Extract<FoundClient, { ok: true }>).path;
    },
    async workspace(withDaemon) {
      const ws = new AgentWorkspace(`hookbox-${name}-e2e-`);
      cleanups.push(() => ws.cleanup());
      setUpHookbox(ws);
      if (withDaemon) {
        const daemon = await startDaemon(ws, BUILT_BINARY);
        cleanups.push(() => daemon.stop());
      }
      return ws;
    },
  };
}

/** The client ran to its end and succeeded; otherwise fail with its stderr. */
export function expectFinished(run: { readonly timedOut: boolean; readonly exitCode: number | null; readonly stderr: string }, what: string): void {
  expect(run.timedOut, `${what} timed out\nstderr: ${run.stderr}`).toBe(false);
  expect(run.exitCode, `${what} failed\nstderr: ${run.stderr}`).toBe(0);
}
