// A bare Hono app on a unix socket answering with a decision-sized JSON: the throughput ceiling.
import { Hono } from "hono";
const app = new Hono();
app.post("/v1/events/:type", async (c) => {
  await c.req.json();
  return c.json({
    v: 1,
    event_id: crypto.randomUUID(),
    event_type: c.req.param("type"),
    decision: "allow",
    context_injections: [],
    user_messages: [],
    continue: true,
    runs: [{ hook_id: "secret-path", status: "completed", duration_ms: 0.1, action: "continue" }],
  });
});
Bun.serve({ unix: Bun.argv[2] as string, fetch: app.fetch, idleTimeout: 0 } as unknown as Parameters<typeof Bun.serve>[0]);
console.error("ready");
