import { spawn, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, type RunResult } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

/**
 * The command line as a new user meets it (issue 19): failures explained at the handler's
 * line, OS errors as one line with the path, the cause and the fix, HOOKBOX_SOCKET and
 * HOOKBOX_CONFIG, hookbox show. The binary runs alone in a directory every user can read, so it
 * can also run as another user (nobody) when the tests run as root.
 */
const ROOT_USER = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };

let dir: string;
let binary: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hookbox-cli-"));
  chmodSync(dir, 0o755);
  binary = join(dir, "hookbox");
  copyFileSync(BUILT_BINARY, binary);
  chmodSync(binary, 0o755);
  mkdirSync(join(dir, "home"), { mode: 0o777 });
  chmodSync(join(dir, "home"), 0o777);
});
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

/**
 * Why the binary cannot run as nobody here, or undefined. Asking whether `true` runs as nobody is
 * not enough: a Bun-compiled binary reads its own /proc/self/maps as it starts, and on some
 * machines an unprivileged process may not (a hardened /proc, some containers), so it aborts as
 * any other user. CI's machine allows it.
 */
let nobodyProbe: string | undefined | null = null;
function nobodyCannotRun(): string | undefined {
  if (nobodyProbe !== null) return nobodyProbe;
  const probe = spawnSync(binary, ["version"], { ...NOBODY, cwd: dir, env: { HOME: join(dir, "home") }, encoding: "utf8", timeout: 30_000 });
  const said = `${probe.stderr ?? ""}`.trim().split("\n")[0]?.slice(0, 200) ?? "";
  nobodyProbe = probe.error
    ? `running as root, but cannot start a program as nobody (uid 65534): ${probe.error.message}`
    : probe.status !== 0
      ? `dist/hookbox aborts when run as nobody (uid 65534) here (${probe.status === null ? `signal ${probe.signal}` : `exit ${probe.status}`}${said ? `: ${said}` : ""}): an unprivileged process on this machine may not read its own /proc/self/maps, which a Bun-compiled binary needs (CI's machine allows it)`
      : undefined;
  return nobodyProbe;
}

function run(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; as?: { uid: number; gid: number }; stdin?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args], {
      cwd: options.cwd ?? dir,
      env: { HOME: join(dir, "home"), ...options.env },
      ...options.as,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on("error", () => undefined); // a program that exits without reading its input
    child.stdin.end(options.stdin ?? "");
  });
}

/** One line, no stack, no bundle path: what a user should see of an error. */
function expectOneLine(stderr: string): void {
  expect(stderr.trimEnd().split("\n"), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\$bunfs|chunk-|\n\s+at /);
}

describe("a hook whose handler throws on one fixture", () => {
  let project: string;
  beforeAll(() => {
    project = join(dir, "project");
    const hook = join(project, ".hookbox/hooks/thrower");
    mkdirSync(join(hook, "fixtures"), { recursive: true });
    writeFileSync(join(hook, "hook.yaml"), "id: thrower\nevents: [PreToolUse]\nhandler: ./handler.ts\non_error: continue\n");
    // Line 7 throws; types before it on the same line move its column in the JavaScript.
    writeFileSync(
      join(hook, "handler.ts"),
      [
        "// thrower: denies .env, throws on anything under tmp/",
        "export default function handler(event: HookEvent, hook: Hook): HookResult {",
        "  void hook;",
        '  const path: string = String(event.tool_input?.file_path ?? "");',
        '  if (path.endsWith(".env")) return { action: "deny", reason: `${path} holds secrets` };',
        '  if (path.startsWith("tmp/")) {',
        "    const size: number = (null as unknown as { length: number }).length;",
        '    return { action: "continue", reason: String(size) };',
        "  }",
        '  return { action: "continue" };',
        "}",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(hook, "fixtures/basic.yaml"),
      [
        "- name: denies .env",
        "  event: { event_type: PreToolUse, tool_name: Write, tool_input: { file_path: .env } }",
        "  expect: { decision: deny }",
        "- name: allows a write under tmp",
        "  event: { event_type: PreToolUse, tool_name: Write, tool_input: { file_path: tmp/a.txt } }",
        "  expect: { decision: allow }",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(hook, "fixtures/expected-failure.yaml"),
      "name: the failure, expected\nevent: { event_type: PreToolUse, tool_name: Write, tool_input: { file_path: tmp/b.txt } }\nexpect: { decision: allow, status: failed, error_code: handler_threw }\n",
    );
  });

  it("hookbox test fails the fixture that expected allow, and names the error and the TypeScript line", async () => {
    const result = await run(["test"], { cwd: project });
    expect(result.code).toBe(1);
    // The per-fixture lines are the command's output: stdout, with the total last; stderr stays empty.
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^thrower {2}\(.*\)\n/);
    expect(result.stdout.endsWith("FAILED: 2/3 fixtures passed in 1 hook\n")).toBe(true);
    const column = "    const size: number = (null as unknown as { length: number }).length;".indexOf(").length") + 2;
    expect(result.stdout).toContain("✗ fixtures/basic.yaml › allows a write under tmp");
    expect(result.stdout).toContain("thrower failed: error[handler_threw]: the handler threw TypeError: cannot read property 'length' of null");
    expect(result.stdout).toContain(`at ${join(project, ".hookbox/hooks/thrower/handler.ts")}:7:${column}`);
    expect(result.stdout).toContain("7 |     const size: number = (null as unknown as { length: number }).length;");
    expect(result.stdout).toContain(
      `(thrower failed as expected: handler_threw at ${join(project, ".hookbox/hooks/thrower/handler.ts")}:7:${column})`,
    );
  });

  it("--json carries the failure with its location; --filter runs only the fixtures named", async () => {
    const result = await run(["test", "--json", "--filter", "under tmp"], { cwd: project });
    expect(result.code).toBe(1);
    const [report] = JSON.parse(result.stdout) as { hook_id: string; results: { name: string; failures: unknown[] }[] }[];
    expect(report?.hook_id).toBe("thrower");
    expect(report?.results.map((r) => r.name)).toEqual(["fixtures/basic.yaml › allows a write under tmp"]);
    expect(report?.results[0]?.failures).toEqual([
      expect.objectContaining({
        hook_id: "thrower",
        error_code: "handler_threw",
        location: expect.objectContaining({ line: 7 }),
        source_line: expect.stringContaining("(null as unknown"),
      }),
    ]);
    const none = await run(["test", "--filter", "no such fixture"], { cwd: project });
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('FAILED: no fixture matches --filter "no such fixture"\n');
  });

  it('hookbox check reports {action: "dny"} at its line, in a handler with types and in one without', async () => {
    const typed = join(project, ".hookbox/hooks/thrower/handler.ts");
    const untyped = join(dir, "untyped.ts");
    writeFileSync(untyped, 'export default (event) => {\n  if (event.tool_name === "Bash") return { action: "dny" };\n};\n');
    const clean = await run(["check"], { cwd: project });
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/^ok: 1 handler type-checks? \(TypeScript \d+\.\d+\.\d+\)\n$/);
    const result = await run(["check", untyped]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${untyped}:2:44: TS2820: Type '"dny"' is not assignable to type 'HookAction | undefined'. Did you mean '"deny"'?`,
    );
    expect(result.stderr).toContain(
      '    2 |   if (event.tool_name === "Bash") return { action: "dny" };\n      |                                            ^',
    );
    expect(result.stdout).toMatch(/^1 problem in 1 handler/);
    // A handler that does not compile is no pass either: its hook does not load.
    const broken = join(dir, "broken-project/.hookbox/hooks/broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "hook.yaml"), "id: broken\nevents: [PreToolUse]\nhandler: ./handler.ts\n");
    writeFileSync(join(broken, "handler.ts"), 'export default () => ({ action: "deny" ;\n');
    const notLoaded = await run(["check"], { cwd: join(dir, "broken-project") });
    expect(notLoaded.code).toBe(1);
    expect(notLoaded.stderr).toContain(`${join(broken, "handler.ts")}:1:`);
    // validate --types: the same check beside validation.
    writeFileSync(typed, `${readFileSync(typed, "utf8").replace('return { action: "continue" };\n}', 'return { action: "dny" };\n}')}`);
    // A PATH with git on it: self-protect's run grants resolve, so its only problem is the type error.
    const validated = await run(["validate", "--types", "--json"], { cwd: project, env: { PATH: "/usr/bin:/bin" } });
    expect(validated.code).toBe(1);
    expect(JSON.parse(validated.stdout)).toMatchObject({
      ok: false,
      problems: [{ file: typed, line: 10, column: 12, message: expect.stringMatching(/^TS2820: /) }],
    });
  });
});

describe("HOOKBOX_SOCKET and HOOKBOX_CONFIG: a flag wins over its variable, the variable over the default", () => {
  it("the socket: the variable where no flag is given, the flag over it", async () => {
    const env = { HOOKBOX_SOCKET: join(dir, "from-env.sock"), XDG_RUNTIME_DIR: join(dir, "xdg") };
    expect((await run(["approvals"], { env })).stderr).toContain(`nothing at ${join(dir, "from-env.sock")}`);
    expect((await run(["approvals", "--socket", join(dir, "from-flag.sock")], { env })).stderr).toContain(
      `nothing at ${join(dir, "from-flag.sock")}`,
    );
    expect((await run(["approvals"], { env: { XDG_RUNTIME_DIR: join(dir, "xdg") } })).stderr).toContain(
      `nothing at ${join(dir, "xdg/hookbox/hookbox.sock")}`,
    );
  });

  it("serve listens on HOOKBOX_SOCKET, and the commands given the same variable find it", async () => {
    const world = new DaemonWorld();
    // The default would be under XDG_RUNTIME_DIR: the daemon is found at world.socket only through the variable.
    const variables = { HOOKBOX_SOCKET: world.socket, XDG_RUNTIME_DIR: join(world.dir, "elsewhere") };
    const daemon = await DaemonProcess.start([binary], world, [], variables);
    try {
      const env = world.env(variables);
      const answered = await run(["approvals", "--json"], { env });
      expect(answered.code, answered.stderr).toBe(0);
      expect(JSON.parse(answered.stdout)).toEqual([]);
    } finally {
      await daemon.stop();
      world.cleanup();
    }
  });

  it("the operator file: the variable where no --config is given, --config over it", async () => {
    const a = join(dir, "a.yaml");
    const b = join(dir, "b.yaml");
    writeFileSync(a, "builtin: [bash-guard]\n");
    writeFileSync(b, "builtin: [git-status]\n");
    const listed = async (args: string[], env: Record<string, string>): Promise<string> => {
      const result = await run(["list", "--json", ...args], { env });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    expect(await listed([], { HOOKBOX_CONFIG: a })).toContain('"bash-guard"');
    const flagWins = await listed(["--config", b], { HOOKBOX_CONFIG: a });
    expect(flagWins).toContain('"git-status"');
    expect(flagWins).not.toContain('"bash-guard"');
    expect(await listed([], {})).not.toMatch(/bash-guard|git-status/);
    // Named by the variable, the file must exist, as with --config.
    const missing = await run(["validate"], { env: { HOOKBOX_CONFIG: join(dir, "missing.yaml") } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(join(dir, "missing.yaml"));
  });
});

describe("OS errors: one line with the path, the cause and the fix; permission denied is not 'no daemon'", () => {
  it("a socket directory this user may not enter: permission denied, with the path and the fix, no stack", async (ctx) => {
    const locked = join(dir, "locked");
    mkdirSync(locked, { mode: 0o700 });
    // Root passes every permission check: run as nobody. Anyone else is refused their own mode-000 directory.
    if (!ROOT_USER) chmodSync(locked, 0o000);
    const cannot = ROOT_USER ? nobodyCannotRun() : undefined;
    if (cannot) ctx.skip(cannot);
    const as = ROOT_USER ? NOBODY : undefined;
    try {
      const client = await run(["approvals", "--socket", join(locked, "hookbox.sock")], { ...(as && { as }) });
      expect(client.code).toBe(3);
      expectOneLine(client.stderr);
      expect(client.stderr).toMatch(
        new RegExp(`^error\\[permission_denied\\]: ${join(locked, "hookbox.sock")}: permission denied \\(EACCES, lstat\\); check who owns .*ls -ld`),
      );
      expect(client.stderr).not.toMatch(/no Hookbox daemon|hookbox serve/);
      const debug = await run(["approvals", "--socket", join(locked, "hookbox.sock"), "--debug"], { ...(as && { as }) });
      expect(debug.stderr.split("\n").length).toBeGreaterThan(2);
      // doctor says the same instead of "no daemon".
      const doctor = await run(["doctor", "--json"], { ...(as && { as }), env: { HOOKBOX_SOCKET: join(locked, "hookbox.sock") } });
      const daemon = (JSON.parse(doctor.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks.find(
        (c) => c.name === "daemon",
      );
      expect(daemon).toMatchObject({ ok: false, detail: expect.stringContaining(`${join(locked, "hookbox.sock")}: permission denied (EACCES`) });
      if (!as) return;
      // Following the advice elsewhere: serve on a directory of another user's is one line too.
      const serve = await run(["serve", "--socket", join(locked, "hookbox.sock")], { as });
      expect(serve.code).toBe(3);
      // The daemon logs its start before it fails: the error is its one last line.
      expectOneLine(serve.stderr.trimEnd().split("\n").at(-1) ?? "");
      expect(serve.stderr).not.toMatch(/\$bunfs|chunk-|\n\s+at /);
      expect(serve.stderr).toMatch(
        new RegExp(`(^|\\n)error\\[permission_denied\\]: ${locked}: operation not permitted \\(EPERM, chmod\\); ${locked} belongs to another user`),
      );
    } finally {
      chmodSync(locked, 0o700);
    }
  });

  it("a socket another user owns is theirs, not a missing daemon", async (ctx) => {
    if (!ROOT_USER) ctx.skip("needs root, to make a socket another user owns (CI runs as root)");
    const cannot = nobodyCannotRun();
    if (cannot) ctx.skip(cannot);
    const shared = join(dir, "shared");
    mkdirSync(shared, { mode: 0o755 });
    chmodSync(shared, 0o755);
    const socket = join(shared, "hookbox.sock");
    const server = await listen(socket, () => undefined);
    try {
      const result = await run(["approvals", "--socket", socket], { as: NOBODY });
      expect(result.code).toBe(3);
      expectOneLine(result.stderr);
      expect(result.stderr).toContain(`error[permission_denied]: ${socket} belongs to another user (uid 0; you are 65534)`);
    } finally {
      server.close();
    }
  });

  it("something that is not a daemon: a file, a socket nothing answers on, a server that is not Hookbox", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const asFile = await run(["approvals", "--socket", file]);
    expect(asFile.code).toBe(3);
    expectOneLine(asFile.stderr);
    expect(asFile.stderr).toContain(`error[daemon_unavailable]: ${file} is a file, not a daemon's socket`);

    const stale = join(dir, "stale.sock");
    const holder = spawn(process.execPath, ["-e", `require("node:net").createServer().listen(${JSON.stringify(stale)}, () => console.log("up"))`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise((resolve) => holder.stdout?.once("data", resolve));
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("close", resolve));
    const asStale = await run(["approvals", "--socket", stale]);
    expect(asStale.code).toBe(3);
    expectOneLine(asStale.stderr);
    expect(asStale.stderr).toMatch(
      new RegExp(`^error\\[daemon_unavailable\\]: no Hookbox daemon answers on ${stale} .*left over from one that stopped`),
    );

    const other = join(dir, "other.sock");
    // The client hangs up before it sends anything (what listens is not proven Hookbox): this write may meet EPIPE.
    const server = await listen(
      other,
      (socket) => (
        socket.on("error", () => undefined),
        socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello")
      ),
    );
    try {
      const asOther = await run(["approvals", "--socket", other]);
      expect(asOther.code).toBe(3);
      expectOneLine(asOther.stderr);
      // Not even asked: the process that listens there is not this Hookbox (src/platform/peer-trust.ts).
      expect(asOther.stderr).toMatch(
        new RegExp(`^error\\[daemon_unavailable\\]: what answers on ${other} is not a verified Hookbox daemon \\(not Hookbox: pid \\d+ runs `),
      );
    } finally {
      server.close();
    }
  });
});

describe("one key style", () => {
  /** Keys that are data, not Hookbox's: a hook's config, a handler's returned value, an event. */
  const DATA = new Set(["config", "value", "data", "tool_input", "event"]);
  const camelKeys = (value: unknown, path = ""): string[] => {
    if (Array.isArray(value)) return value.flatMap((item, index) => camelKeys(item, `${path}[${index}]`));
    if (value === null || typeof value !== "object") return [];
    // camelCase is a key style; PascalCase keys are event names (PreToolUse), data.
    return Object.entries(value).flatMap(([key, inner]) => [
      ...(/^[a-z][a-z0-9]*[A-Z]/.test(key) ? [`${path}.${key}`] : []),
      ...(DATA.has(key) ? [] : camelKeys(inner, `${path}.${key}`)),
    ]);
  };

  it("every --json a user can run without a daemon is snake_case", async () => {
    const project = join(dir, "snake-project");
    mkdirSync(project);
    const handler = join(project, ".hookbox/hooks/snake/handler.ts");
    const commands = [
      ["new", "snake", "--json"],
      ["list", "--json"],
      ["list", "--builtin", "--json"],
      ["validate", "--json", "--builtin", "all"],
      ["check", "--json"],
      ["show", "bash-guard", "--json"],
      ["version", "--json"],
      ["doctor", "--json"],
      ["test", "--json"],
      ["run", handler, "--event", "-", "--json"],
      ["self-install", "--json", "--dir", join(dir, "bin")],
    ];
    for (const args of commands) {
      const result = await run(args, { cwd: project, stdin: '{"tool_name":"Write","tool_input":{"file_path":"tmp/x"}}' });
      expect(result.stdout, `hookbox ${args.join(" ")}: ${result.stderr}`).not.toBe("");
      expect(camelKeys(JSON.parse(result.stdout)), `hookbox ${args.join(" ")}`).toEqual([]);
    }
  });
});

describe("hookbox show", () => {
  it("a standard hook: what it may do here, its YAML and its README, from the binary alone", async () => {
    const result = await run(["show", "git-status"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^git-status — Tell the model which files are uncommitted/);
    expect(result.stdout).toContain("not enabled: add it to hookbox.yaml (builtin: [git-status])");
    // Without PATH (the empty environment here) git is not found: the grant says it is inert.
    expect(result.stdout).toMatch(/\n {2}run \S*git status --short.*\n {2}inject_context\n {2}store\n/);
    expect(result.stdout).toContain("── hook.yaml ──\n# git-status");
    expect(result.stdout).toContain("── README.md ──\n# git-status");
    const json = JSON.parse((await run(["show", "guard-secrets", "--json", "--builtin", "guard-secrets"])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ id: "guard-secrets", origin: "builtin", enabled: true, grants: [], problems: [] });
    expect(json.readme).toMatch(/^# guard-secrets/);
    const unknown = await run(["show", "no-such-hook"]);
    expect(unknown.code).toBe(1);
    expectOneLine(unknown.stderr);
    expect(unknown.stderr).not.toContain("did you mean");
    const typo = await run(["show", "guard-secret"]);
    expect(typo.code).toBe(1);
    expectOneLine(typo.stderr);
    expect(typo.stderr).toContain('no hook "guard-secret" here or among the standard hooks — did you mean guard-secrets?');
  });

  it("list --builtin shows what each standard hook may do", async () => {
    const result = await run(["list", "--builtin"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^git-status .*\n {4}may: run \S*git status --short.*\n {4}may: inject_context\n/m);
    expect(result.stdout).toMatch(/^guard-secrets .*\n {4}may: nothing/m);
  });
});

function listen(path: string, onConnection: (socket: Socket) => void): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(onConnection);
    server.once("error", reject);
    server.listen(path, () => resolve(server));
  });
}
