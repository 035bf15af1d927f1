import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { launchChromium, screenshotDir } from "../helpers/chromium.ts";
import { call, DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

const HOSTILE = `no <script>alert("rm")</script><img src=x onerror=alert(1)> here`;
const GUARD = `id: guard
events: [PreToolUse]
priority: 10
match: { tool: Bash }
handler: { code: ${JSON.stringify(`export default (e) => e.tool_input.command.includes('rm') ? ({ action: 'deny', reason: ${JSON.stringify(HOSTILE)} }) : ({})`)} }
`;
const PEEKER = `id: peeker
events: [PreToolUse]
priority: 5
match: { tool: Bash }
permissions: { inject_context: true }
handler: { code: "export default async (e, hook) => { try { await hook.readFile('/etc/passwd'); } catch {} return { action: 'inject_context', context_injection: 'remember the tests' }; }" }
`;
const ASKER = `id: asker
events: [PreToolUse]
match: { tool: Deploy }
approval: { timeout_ms: 30000, default: deny }
handler: { code: "export default (e) => ({ action: 'ask_user', approval_prompt: 'Deploy ' + e.tool_input.target + ' now?' })" }
`;

describe("the web console in real headless Chromium (hookbox serve --console)", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  let browser: Browser | undefined;
  let skip: string | undefined;
  let loginUrl: string;
  let origin: string;
  let project: string;
  const shots = screenshotDir("console");
  const notified = () => readFileSync(join(world.dir, "notified.txt"), "utf8");

  beforeAll(async () => {
    const launched = await launchChromium();
    if ("skip" in launched) skip = launched.skip;
    else browser = launched.browser;
    world = new DaemonWorld();
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
    writeFileSync(join(world.hooks, "peeker.yaml"), PEEKER);
    writeFileSync(join(world.hooks, "asker.yaml"), ASKER);
    project = join(world.dir, "proj");
    mkdirSync(join(project, ".git"), { recursive: true });
    // A desktop's notify-send, as the daemon finds it on PATH: it records what it was asked to show.
    const bin = join(world.dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "notify-send"), `#!/bin/sh\nprintf '%s\\n' "$@" >> ${join(world.dir, "notified.txt")}\n`);
    chmodSync(join(bin, "notify-send"), 0o755);
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--console", "127.0.0.1:0"], { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ":99" });
    loginUrl = /sign in \(once, within 10 minutes\) at (http:\/\/127\.0\.0\.1:\d+\/login\?token=[0-9a-f]{64})/.exec(daemon.stderr)?.[1] ?? "";
    origin = new URL(loginUrl).origin;
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    world?.cleanup();
  });

  /** A fresh browser context signed in with a fresh link (hookbox console), recording every request it makes. */
  async function signedIn(): Promise<{ context: BrowserContext; requests: string[] }> {
    const link = await runProgram([BUILT_BINARY, "console", "--no-open"], { env: world.env() });
    expect(link.code, link.stderr).toBe(0);
    const context = await (browser as Browser).newContext();
    const requests: string[] = [];
    context.on("request", (request) => requests.push(request.url()));
    const page = await context.newPage();
    await page.goto(link.stdout.trim());
    await page.waitForURL(`${origin}/`);
    return { context, requests };
  }

  it("prints a one-time sign-in URL on stderr; the unix socket mints new ones and serves no page", async () => {
    expect(loginUrl).not.toBe("");
    const minted = await call(world.socket, "POST", "/v1/console/url", {});
    expect(minted.json).toMatchObject({ v: 1, url: expect.stringMatching(new RegExp(`^${origin}/login\\?token=[0-9a-f]{64}$`)) });
    expect((await call(world.socket, "GET", "/")).status).toBe(404);
    expect((await call(world.socket, "GET", "/approvals")).status).toBe(404);
  });

  it("a request without the cookie is refused, an action from another Origin is refused, a spent token fails", async () => {
    const port = Number(new URL(origin).port);
    expect((await call({ port }, "GET", "/")).status).toBe(401);
    expect((await call({ port }, "GET", "/live?view=runs")).status).toBe(401);
    const link = ((await call(world.socket, "POST", "/v1/console/url", {})).json as { url: string }).url;
    const path = link.slice(origin.length);
    const first = await fetch(link, { redirect: "manual" });
    expect(first.status).toBe(200);
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(first.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await call({ port }, "GET", path)).status).toBe(403);
    expect((await call({ port }, "GET", "/", undefined, { cookie })).status).toBe(200);
    const form = "csrf=x&decision=allow";
    const foreign = await call({ port }, "POST", "/approvals/anything", form, {
      cookie,
      origin: "http://evil.example",
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(foreign.status).toBe(403);
    expect((await call({ port }, "GET", "/", undefined, { cookie, host: `attacker.example:${port}` })).status).toBe(403);
  });

  it("shows a run appear live, its detail, an approval answered from the page (the held request returns allow), hooks and health; nothing outside its origin is requested", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const { context, requests } = await signedIn();
    const page = context.pages()[0]!;
    await page.getByText("Live", { exact: true }).waitFor();

    // A run appears live.
    const denied = await call(world.socket, "POST", "/v1/events/PreToolUse", {
      session_id: "sess-console",
      cwd: project,
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    });
    const eventId = (denied.json as { event_id: string }).event_id;
    const row = page.locator(`tr[data-event-id="${eventId}"]`);
    await row.waitFor({ timeout: 5000 });
    expect(await row.textContent()).toContain(HOSTILE.slice(0, 40));
    expect(await page.locator("#runs-body img").count()).toBe(0);
    await page.screenshot({ path: join(shots, "runs.png"), fullPage: true });

    // Its detail, reached by keyboard.
    await row.getByRole("link").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${origin}/runs/${eventId}`);
    const detail = page.locator("main");
    expect(await detail.textContent()).toContain(HOSTILE);
    expect(await detail.textContent()).toContain("rm -rf build");
    await page.getByText("remember the tests").waitFor();
    await page.locator("tr.denied", { hasText: "/etc/passwd" }).first().waitFor();
    expect(await page.locator("main script, main img").count()).toBe(0);
    await page.screenshot({ path: join(shots, "run-detail.png"), fullPage: true });

    // An approval answered from the page.
    await page.getByRole("link", { name: /Approvals/ }).click();
    const held = call(world.socket, "POST", "/v1/events/PreToolUse", {
      session_id: "sess-console",
      cwd: project,
      tool_name: "Deploy",
      tool_input: { target: "production" },
    });
    const approve = page.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor({ timeout: 5000 });
    await page.getByText("Deploy production now?").waitFor();
    expect(await page.locator("#pending-count").textContent()).toBe("1");
    await page.screenshot({ path: join(shots, "approvals.png"), fullPage: true });
    await approve.press("Enter");
    const answer = await held;
    expect(answer.json).toMatchObject({ decision: "allow", reason: "approved by the user (the web console)" });
    await page.getByText("Answered: allowed.").waitFor();
    const audit = readFileSync(world.auditFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind?: string; approval?: unknown });
    expect(audit.filter((r) => r.kind === "decision" && r.approval).at(-1)?.approval).toMatchObject({
      hook_id: "asker",
      decision: "allow",
      by: "user",
      via: "console",
    });
    expect(notified()).toContain("Deploy production now?");

    await page.getByRole("link", { name: "Hooks" }).click();
    await page.getByRole("heading", { name: /^peeker/ }).waitFor();
    expect(await page.locator("main").textContent()).toMatch(/inject/i);
    await page.screenshot({ path: join(shots, "hooks.png"), fullPage: true });
    // Fire a hook by hand on a given event: its run opens.
    const guard = page.locator("article.hook", { has: page.getByRole("heading", { name: /^guard/ }) });
    await guard.getByText("Fire this hook").click();
    await guard.getByRole("textbox").fill(JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf fired" } }));
    await guard.getByRole("button", { name: "Fire guard" }).click();
    await page.waitForURL(new RegExp(`^${origin}/runs/`));
    await page.getByText("manual fire").first().waitFor();
    expect(await page.locator("main").textContent()).toContain("rm -rf fired");

    await page.getByRole("link", { name: "Health" }).click();
    await page.locator("#chart-events").waitFor();
    // The charts' labels are HTML beside the stretched SVG, at the page's small-text size (they were ~6 px inside it).
    expect(await page.locator("figure.chart svg text").count()).toBe(0);
    const labels = await page.locator("figure.chart .scale, figure.chart .ticks span").evaluateAll((elements) =>
      elements.map((element) => ({
        size: parseFloat(element.ownerDocument.defaultView?.getComputedStyle(element).fontSize ?? "0"),
        height: element.getBoundingClientRect().height,
      })),
    );
    expect(labels.length).toBe(6 * 3);
    for (const label of labels) {
      expect(label.size).toBeGreaterThanOrEqual(12);
      expect(label.height).toBeGreaterThanOrEqual(12);
    }
    expect(await page.locator("main").textContent()).not.toMatch(/\b1 (events|denials|kills|calls)\b/);
    await page.screenshot({ path: join(shots, "health.png"), fullPage: true });

    const outside = requests.filter((url) => !url.startsWith(`${origin}/`));
    expect(outside).toEqual([]);
    expect(requests.some((url) => url.startsWith(`${origin}/live?`))).toBe(true);
    await context.close();
    for (const name of ["runs", "run-detail", "approvals", "hooks", "health"]) console.log(`screenshot: ${join(shots, `${name}.png`)}`);
  });

  it("hides events no hook ran for and hookbox doctor's test calls by default, says how many, and shows them when asked", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const readme = { tool_name: "Read", tool_input: { file_path: join(project, "README.md") } };
    const quiet = (await call(world.socket, "POST", "/v1/events/PostToolUse", { session_id: "sess-quiet", cwd: project, ...readme })).json as {
      event_id: string;
    };
    const doctor = (await call(world.socket, "POST", "/v1/events/PreToolUse", { session_id: "hookbox-doctor", cwd: project, ...readme })).json as {
      event_id: string;
    };
    const ran = (
      await call(world.socket, "POST", "/v1/events/PreToolUse", {
        session_id: "sess-quiet",
        cwd: project,
        tool_name: "Bash",
        tool_input: { command: "rm -rf hidden-test" },
      })
    ).json as { event_id: string };
    const { context } = await signedIn();
    const page = context.pages()[0]!;
    const row = (id: string) => page.locator(`tr[data-event-id="${id}"]`);
    await row(ran.event_id).waitFor();
    expect(await row(quiet.event_id).count()).toBe(0);
    expect(await row(doctor.event_id).count()).toBe(0);
    const note = await page.locator("#hidden-note").textContent();
    expect(note).toMatch(/Not shown: \d+ events? allowed with no hook run and 1 test call from hookbox doctor/);
    await page.getByLabel("events no hook ran for").check();
    await page.getByLabel("hookbox doctor's test calls").check();
    await page.getByRole("button", { name: "Filter" }).click();
    await row(quiet.event_id).waitFor();
    await row(doctor.event_id).waitFor();
    expect(await row(doctor.event_id).textContent()).toContain("doctor's test");
    expect(await row(quiet.event_id).textContent()).toContain("no hook ran");
    expect(await page.locator("#hidden-note").count()).toBe(0);
    await context.close();
  });

  it("reads without JavaScript: the runs and a run's detail are in the page as served", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const link = await runProgram([BUILT_BINARY, "console", "--no-open"], { env: world.env() });
    const context = await (browser as Browser).newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(link.stdout.trim());
    await page.waitForURL(`${origin}/`);
    await page.locator("#runs-body tr[data-event-id]").first().waitFor();
    expect(await page.locator("#runs-body").textContent()).toContain("Bash");
    await page.locator("#runs-body a").first().click();
    await page.getByRole("heading", { name: "Each hook's result" }).waitFor();
    await context.close();
  });
});
