import { readFileSync, statSync, writeFileSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANARY, deniedWith, invoke, operator, prepare, rejection, removeDir, tempDir, testHost } from "./helpers.ts";

describe("hook.env", () => {
  it("declared, non-secret names; unset reads as undefined", async () => {
    const host = testHost();
    const grants = await prepare(host, { env: ["LANG_HINT", "UNSET_VAR", "PATH"] });
    const { api } = invoke(host, grants, "/tmp");
    expect(await api("env", "LANG_HINT")).toBe("fr");
    expect(await api("env", "UNSET_VAR")).toBeUndefined();
    await deniedWith(api("env", "HOME"), /hook\.env\("HOME"\) is not granted; to allow it add to its YAML: {2}permissions: \{ env: \["HOME"\] \}/);
  });

  it.each([["ANTHROPIC_API_KEY"], ["GITHUB_TOKEN"], ["AWS_SECRET_ACCESS_KEY"], ["DB_PASSWORD"], ["CLAUDE_CODE_OAUTH_TOKEN"], ["STRIPE_KEY"]])(
    "%s looks secret: declared is not enough",
    async (name) => {
      const host = testHost();
      const grants = await prepare(host, { env: [name] });
      await deniedWith(invoke(host, grants, "/tmp").api("env", name), new RegExp(`outside the default env ceiling: ${name} looks like a secret`));
    },
  );

  it("a prefix grant still does not reach secrets", async () => {
    const host = testHost();
    const grants = await prepare(host, { env: ["ANTHROPIC_*", "LANG_*"] });
    const { api } = invoke(host, grants, "/tmp");
    await deniedWith(api("env", "ANTHROPIC_API_KEY"), /looks like a secret/);
    expect(await api("env", "LANG_HINT")).toBe("fr");
  });

  it("deny wins", async () => {
    const host = testHost();
    const grants = await prepare(host, { env: ["LANG_HINT"] }, { operator: operator({ deny: { env: ["LANG_*"] } }) });
    await deniedWith(invoke(host, grants, "/tmp").api("env", "LANG_HINT"), /deny\.env lists "LANG_\*"/);
  });
});

describe("the canary: a secret in the daemon's environment is nowhere a hook can read", () => {
  let ws: string;
  beforeAll(() => {
    ws = tempDir("hookbox-canary-");
    writeFileSync(`${ws}/f.txt`, "x");
  });
  afterAll(() => removeDir(ws));

  it("not through env, run, readFile, /proc, messages or records — unless the operator approves it", async () => {
    const host = testHost();
    const grants = await prepare(host, {
      read: ["${workspace}/**", "/proc/**"],
      env: ["ANTHROPIC_API_KEY", "ANTHROPIC_*"],
      run: [
        { cmd: "printenv", args: ["**"], env: ["ANTHROPIC_API_KEY", "ANTHROPIC_*"] },
        { cmd: "cat", args: ["*"], env: [] },
      ],
    });
    const { api, caps } = invoke(host, grants, ws);
    const seen: string[] = [];
    const attempt = async (name: string, ...args: unknown[]) => {
      try {
        seen.push(JSON.stringify(await api(name, ...args)));
      } catch (error) {
        seen.push(JSON.stringify(error));
      }
    };
    await attempt("env", "ANTHROPIC_API_KEY");
    await attempt("run", "printenv", []);
    await attempt("run", "printenv", ["ANTHROPIC_API_KEY"]);
    await attempt("run", "cat", ["/proc/self/environ"]);
    await attempt("run", "cat", [`/proc/${process.pid}/environ`]);
    await attempt("readFile", "/proc/self/environ");
    await attempt("readFile", `/proc/${process.pid}/environ`);
    await attempt("listFiles", "/proc/self");
    await attempt("http.get", "http://127.0.0.1/");
    expect(seen.join("\n")).not.toContain(CANARY);
    expect(JSON.stringify(caps.hostCalls)).not.toContain(CANARY);

    const approved = await prepare(
      host,
      { env: ["ANTHROPIC_API_KEY"] },
      { operator: operator({ hooks: { "test-hook": { permissions: { env: ["ANTHROPIC_API_KEY"] } } } }) },
    );
    expect(await invoke(host, approved, ws).api("env", "ANTHROPIC_API_KEY")).toBe(CANARY);
  });
});

describe("hook.injectContext", () => {
  it("needs inject_context; cleans and caps the text; defaults to role system", async () => {
    const host = testHost();
    const none = await prepare(host, {});
    expect(host.mayInjectContext(none)).toBe(false);
    await deniedWith(invoke(host, none, "/tmp").api("injectContext", "hi"), /permissions: \{ inject_context: true \}/);

    const grants = await prepare(host, { inject_context: true });
    expect(host.mayInjectContext(grants)).toBe(true);
    const { api, caps } = invoke(host, grants, "/tmp");
    await api("injectContext", "plain\nline\ttab");
    await api("injectContext", "\u001b[31mred\u001b[0m\u0007 and \u001b]0;title\u0007bell\u0000", { role: "user" });
    await api("injectContext", "lone \ud800 surrogate");
    expect(caps.injections).toEqual([
      { content: "plain\nline\ttab", role: "system" },
      { content: "red and bell", role: "user" },
      { content: "lone \ufffd surrogate", role: "system" },
    ]);
    expect(await rejection(api("injectContext", "x".repeat(10 * 1024 + 1)))).toMatchObject({ code: "too_large" });
    expect(await api("injectContext", "é".repeat(5 * 1024))).toBeUndefined(); // exactly 10 KiB of UTF-8
    expect(await rejection(api("injectContext", "x", { role: "root" }))).toMatchObject({ name: "TypeError" });
  });

  it("the operator can withhold it", async () => {
    const host = testHost();
    const grants = await prepare(host, { inject_context: true }, { operator: operator({ ceilings: { inject_context: false } }) });
    expect(host.mayInjectContext(grants)).toBe(false);
    await deniedWith(
      invoke(host, grants, "/tmp").api("injectContext", "x"),
      /outside the operator's ceiling \(hookbox\.yaml ceilings\.permissions\.inject_context\)/,
    );
  });
});

describe("hook.store", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = tempDir("hookbox-data-");
  });
  afterAll(() => removeDir(dataDir));

  it("persists per hook, atomically, mode 0600, within 1 MiB", async () => {
    const host = testHost({ dataDir });
    const grants = await prepare(host, { store: true }, { hookId: "ledger" });
    const { api } = invoke(host, grants, "/tmp");
    expect(await api("store.get", "k")).toBeUndefined();
    await api("store.set", "k", { n: 1, list: [1, "a", null] });
    await api("store.set", "__proto__", { polluted: true });
    expect(await api("store.get", "k")).toEqual({ n: 1, list: [1, "a", null] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // A new invocation (and a new host: a daemon restart) sees the same store.
    const again = testHost({ dataDir });
    const grantsAgain = await prepare(again, { store: true }, { hookId: "ledger" });
    expect(await invoke(again, grantsAgain, "/tmp").api("store.get", "__proto__")).toEqual({ polluted: true });
    expect(await invoke(again, grantsAgain, "/tmp").api("store.delete", "k")).toBe(true);
    expect(await invoke(again, grantsAgain, "/tmp").api("store.delete", "k")).toBe(false);

    const file = `${dataDir}/store/ledger.json`;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${dataDir}/store`).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored.v).toBe(1);
    expect(Object.keys(stored.entries)).toEqual(["__proto__"]);
    expect(readdirSync(`${dataDir}/store`)).toEqual(["ledger.json"]); // no temp file left

    expect(await rejection(api("store.set", "big", "x".repeat(1024 * 1024)))).toMatchObject({ code: "too_large" });
    expect(await api("store.get", "big")).toBeUndefined();
  });

  it("concurrent writers of one hook lose no update", async () => {
    const host = testHost({ dataDir });
    const grants = await prepare(host, { store: true }, { hookId: "counter" });
    await Promise.all(Array.from({ length: 20 }, (_, i) => invoke(host, grants, "/tmp").api("store.set", `k${i}`, i)));
    const entries = JSON.parse(readFileSync(`${dataDir}/store/counter.json`, "utf8")).entries;
    expect(Object.keys(entries)).toHaveLength(20);
  });

  it("hooks do not share stores; no store without the grant", async () => {
    const host = testHost({ dataDir });
    const a = await prepare(host, { store: true }, { hookId: "hook-a" });
    const b = await prepare(host, { store: true }, { hookId: "hook-b" });
    await invoke(host, a, "/tmp").api("store.set", "x", 1);
    expect(await invoke(host, b, "/tmp").api("store.get", "x")).toBeUndefined();
    const none = await prepare(host, {}, { hookId: "hook-c" });
    await deniedWith(
      invoke(host, none, "/tmp").api("store.get", "x"),
      /hook hook-c: hook\.store\.get\("x"\) is not granted; to allow it add to its YAML: {2}permissions: \{ store: true \}/,
    );
  });

  it("a corrupt store is an error, never silently reset", async () => {
    const host = testHost({ dataDir });
    writeFileSync(`${dataDir}/store/broken.json`, "{not json", { mode: 0o600 });
    const grants = await prepare(host, { store: true }, { hookId: "broken" });
    expect(await rejection(invoke(host, grants, "/tmp").api("store.get", "x"))).toMatchObject({ code: "io_failed" });
  });
});
