import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { ConnectionInfo } from "../../src/platform/index.ts";
import { ownerOnly } from "../../src/serve/api/owner-only.ts";

/** The owner check as the app runs it: the listener hands each request its connection's peer as env. */
describe("only the daemon's owner may use it", () => {
  const refused: string[] = [];
  const app = new Hono();
  app.use(
    "*",
    ownerOnly(1000, (code) => refused.push(code)),
  );
  app.get("/healthz", (c) => c.text("ok"));
  const ask = (connection: ConnectionInfo | undefined) => app.request("/healthz", {}, connection);

  it.for([
    ["the owner", { peer: { uid: 1000, pid: 42 } }, 200],
    ["another uid", { peer: { uid: 1001, pid: 43 } }, 403],
    ["root, which is not the owner either", { peer: { uid: 0 } }, 403],
    ["a connection whose credentials could not be read", { peer: { error: "getsockopt failed" } }, 403],
    ["a listener that reads no credentials (loopback TCP with its token)", {}, 200],
    ["no connection info at all (in-process)", undefined, 200],
  ] as const)("%s → %i", async ([, connection, status]) => {
    const response = await ask(connection as ConnectionInfo | undefined);
    expect(response.status).toBe(status);
    if (status === 403) {
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("peer_refused");
      expect(body.error.message).toMatch(/serves uid 1000 only/);
    }
  });

  it("names the refused process and counts the refusal", async () => {
    const before = refused.length;
    const body = (await (await ask({ peer: { uid: 1001, pid: 43 } })).json()) as { error: { message: string } };
    expect(body.error.message).toContain("process 43 (uid 1001)");
    expect(refused.length).toBe(before + 1);
  });
});
