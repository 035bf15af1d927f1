import { describe, expect, it } from "vitest";
import { LOGIN_TOKEN_TTL_MS } from "../../src/serve/console/auth.ts";
import { SECURITY_HEADERS } from "../../src/serve/console/guard.tsx";
import { decisionRecord, runRecord } from "../audit/fixtures.ts";
import { consoleUnderTest, ORIGIN } from "./helpers.ts";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = (cookie: string, extra: Record<string, string> = {}) => ({
  cookie,
  "content-type": "application/x-www-form-urlencoded",
  ...extra,
});

describe("the console's locks", () => {
  it("every page, stream and action without a session cookie is refused", async () => {
    const { request } = consoleUnderTest();
    for (const path of ["/", "/runs/e-1", "/approvals", "/hooks", "/health", "/live?view=runs"]) expect((await request(path)).status, path).toBe(401);
    expect(
      (await request("/approvals/x", { method: "POST", headers: formHeaders("", { origin: ORIGIN }), body: form({ decision: "allow" }) })).status,
    ).toBe(401);
    expect((await request("/", { headers: { cookie: "hookbox_console_48123=forged" } })).status).toBe(401);
  });

  it("a login link signs in once: an HttpOnly, SameSite=Strict session cookie; its second use fails; an old one fails", async () => {
    const now = { ms: Date.now() };
    const { request, auth } = consoleUnderTest([], now);
    const token = auth.mintLoginToken();
    const first = await request(`/login?token=${token}`);
    expect(first.status).toBe(200);
    const cookie = first.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^hookbox_console_48123=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Strict$/);
    // The page moves on by itself (a same-site navigation, so the Strict cookie goes with it).
    expect(await first.text()).toContain('http-equiv="refresh" content="0;url=/"');
    expect((await request("/", { headers: { cookie: cookie.split(";")[0] as string } })).status).toBe(200);
    const again = await request(`/login?token=${token}`);
    expect(again.status).toBe(403);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await again.text()).toContain("already used or has expired");
    const late = auth.mintLoginToken();
    now.ms += LOGIN_TOKEN_TTL_MS + 1;
    expect((await request(`/login?token=${late}`)).status).toBe(403);
    expect((await request("/login?token=")).status).toBe(403);
  });

  it("a Host other than the console's own is refused (DNS rebinding), even with a valid session", async () => {
    const { request, signIn } = consoleUnderTest();
    const { cookie } = await signIn();
    expect((await request("/", { headers: { cookie, host: "evil.example:48123" } })).status).toBe(403);
    expect((await request("/", { headers: { cookie, host: "127.0.0.1:1" } })).status).toBe(403);
    expect((await request("/", { headers: { cookie, host: "localhost:48123" } })).status).toBe(200);
  });

  it("an action from another origin, without an origin, or without the session's CSRF token is refused; from the console it answers", async () => {
    const { request, signIn, hold, approvals } = consoleUnderTest();
    const { cookie, csrf } = await signIn();
    expect(csrf).toMatch(/^[0-9a-f]{64}$/);
    const held = hold("Deploy?");
    const post = (headers: Record<string, string>, fields: Record<string, string>) =>
      request(`/approvals/${held.id}`, { method: "POST", headers: formHeaders(cookie, headers), body: form(fields) });
    expect((await post({ origin: "http://evil.example" }, { csrf, decision: "allow" })).status).toBe(403);
    expect((await post({ origin: "null" }, { csrf, decision: "allow" })).status).toBe(403);
    expect((await post({ "sec-fetch-site": "cross-site" }, { csrf, decision: "allow" })).status).toBe(403);
    expect((await post({ origin: ORIGIN }, { csrf: "0".repeat(64), decision: "allow" })).status).toBe(403);
    expect((await post({ origin: ORIGIN }, { decision: "allow" })).status).toBe(403);
    expect(approvals.list()).toHaveLength(1);
    const ok = await post({ origin: ORIGIN }, { csrf, decision: "allow_always" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toMatch(/^\/approvals\?notice=Answered/);
    await expect(held.outcome).resolves.toEqual({ id: held.id, decision: "allow", by: "user", via: "console", always: true });
    // A browser that sends no Origin but says same-origin (Sec-Fetch-Site) is let through.
    const second = hold("Again?");
    const viaFetchSite = await request(`/approvals/${second.id}`, {
      method: "POST",
      headers: formHeaders(cookie, { "sec-fetch-site": "same-origin" }),
      body: form({ csrf, decision: "deny" }),
    });
    expect(viaFetchSite.status).toBe(303);
    await expect(second.outcome).resolves.toMatchObject({ decision: "deny", via: "console" });
  });

  it("every response carries the strict CSP and its companions, refusals included", async () => {
    const { request, signIn } = consoleUnderTest();
    const { cookie } = await signIn();
    for (const reply of [
      await request("/"),
      await request("/", { headers: { cookie } }),
      await request("/assets/console.js"),
      await request("/nowhere", { headers: { cookie } }),
    ]) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(reply.headers.get(name), name).toBe(value);
    }
    expect(SECURITY_HEADERS["content-security-policy"]).toMatch(/default-src 'none'.*script-src 'self'.*connect-src 'self'.*frame-ancestors 'none'/);
  });

  it("what hooks wrote (reasons, prompts, ids, subjects) is shown as text, never as markup", async () => {
    const hostile = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`;
    const entries = [
      runRecord({
        event_id: "e-x",
        reason: hostile,
        host_calls: [{ capability: "readFile", target: hostile, outcome: "denied", duration_ms: 1, detail: hostile }],
      }),
      decisionRecord({ event_id: "e-x", reason: hostile, subject: hostile, session_id: hostile, project: `/p/${hostile}` }),
    ];
    const { request, signIn, hold } = consoleUnderTest(entries);
    const { cookie } = await signIn();
    hold(hostile);
    for (const path of ["/", "/runs/e-x", "/approvals"]) {
      const html = await (await request(path, { headers: { cookie } })).text();
      expect(html, path).not.toContain("<script>alert");
      expect(html, path).not.toContain("<img src=x");
      expect(html, path).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    }
  });
});
