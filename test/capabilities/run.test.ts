import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAFE_PATH } from "../../src/capabilities/run/child-env.ts";
import { onPath } from "../helpers/tools.ts";
import { CANARY, deniedWith, hostEnv, invoke, operator, prepare, rejection, removeDir, tempDir, testHost } from "./helpers.ts";
import { liveProcesses, markedSeconds } from "./processes.ts";

let ws: string;

beforeAll(() => {
  ws = tempDir("hookbox-run-");
  execFileSync("git", ["init", "-q", ws]);
  writeFileSync(`${ws}/a.txt`, "one\n");
  execFileSync("git", ["-C", ws, "add", "."]);
  execFileSync("git", ["-C", ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"]);
  writeFileSync(`${ws}/a.txt`, "two\n");
  mkdirSync(`${ws}/src`);
  symlinkSync("/etc", `${ws}/etc-link`);
});
afterAll(() => removeDir(ws));

type RunResult = { exitCode: number; stdout: string; stderr: string; timedOut: boolean; truncated: boolean };

const shApproval = operator({ hooks: { "test-hook": { permissions: { run: [{ cmd: "sh", args: ["**"], env: [] }] } } } });

describe("hook.run: git and its shell escapes", () => {
  const host = testHost();
  const grants = prepare(host, { run: [{ cmd: "git", args: ["**"], env: [] }] });
  const run = async (args: string[]) => invoke(host, await grants, ws).api("run", "git", args) as Promise<RunResult>;

  it("permitted: git diff --stat", async () => {
    const result = await run(["diff", "--stat"]);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
    expect(result.stdout).toContain("a.txt");
  });

  it("git -c core.pager=sh is refused whatever the grant", async () => {
    await deniedWith(
      run(["-c", "core.pager=sh", "diff"]),
      /hook\.run\("git", \["-c","core\.pager=sh","diff"\]\) is refused: "-c": it sets git configuration, and configuration runs programs .*No grant can allow this/,
    );
  });

  it("git diff --output=/tmp/x is refused and writes nothing", async () => {
    const target = `/tmp/hookbox-test-output-${process.pid}`;
    await deniedWith(run(["diff", `--output=${target}`]), /makes git write files/);
    expect(existsSync(target)).toBe(false);
  });

  it("git fetch --upload-pack=… is refused", async () => {
    await deniedWith(run(["fetch", "--upload-pack=touch /tmp/pwned", "origin"]), /names a program for git to run/);
  });

  it.each([
    [["diff", "HEAD; id"], /argument 2 "HEAD; id" holds shell syntax \(;\)/],
    [["diff", "$(id)"], /argument 2 "\$\(id\)" holds shell syntax \(\$\(\)/],
    [["log", "`id`"], /holds shell syntax \(`\)/],
  ])("shell syntax %j is refused under a wildcard", async (args, message) => {
    await deniedWith(run(args), message);
  });

  it("permitted neighbour: the same argument without shell syntax", async () => {
    expect((await run(["diff", "HEAD"])).stdout).toContain("+two");
  });

  it("git reads no GIT_* from the host (GIT_CONFIG_PARAMETERS=core.pager=… is in the daemon's env): core.pager is the host's own cat", async () => {
    expect((await run(["config", "--get", "core.pager"])).stdout).toBe("cat\n");
  });
});

describe("hook.run: grants", () => {
  it("an argv pattern: * is one argument, ** the rest", async () => {
    const host = testHost();
    const grants = await prepare(host, { run: [{ cmd: "git", args: ["diff", "--stat", "*"], env: [] }] });
    const { api } = invoke(host, grants, ws);
    expect(((await api("run", "git", ["diff", "--stat", "HEAD"])) as RunResult).exitCode).toBe(0);
    await deniedWith(
      api("run", "git", ["diff", "--stat"]),
      /hook test-hook: hook\.run\("git", \["diff","--stat"\]\) is not granted; to allow it add to its YAML: {2}permissions: \{ run: \[\{ cmd: git, args: \["diff", "--stat"\] \}\] \}/,
    );
    await deniedWith(api("run", "git", ["log"]), /is not granted/);
  });

  it("a literal with shell syntax is allowed when the grant names it, and no shell sees it", async () => {
    const host = testHost();
    const grants = await prepare(host, { run: [{ cmd: "echo", args: ["a;b", "$(id)"], env: [] }] });
    expect(((await invoke(host, grants, ws).api("run", "echo", ["a;b", "$(id)"])) as RunResult).stdout).toBe("a;b $(id)\n");
  });

  it("an ungranted command names the YAML that would grant it", async () => {
    const host = testHost();
    const grants = await prepare(host, {});
    await deniedWith(invoke(host, grants, ws).api("run", "ls", ["-la"]), /permissions: \{ run: \[\{ cmd: ls, args: \["-la"\] \}\] \}/);
  });

  it("a shell needs the operator (Deno #2128), then runs", async () => {
    const host = testHost();
    const declared = { run: [{ cmd: "sh", args: ["-c", "*"], env: [] }] };
    const grants = await prepare(host, declared);
    await deniedWith(
      invoke(host, grants, ws).api("run", "sh", ["-c", "echo hi"]),
      /outside the default run ceiling: sh is a shell: a grant to run it is a grant to run anything \(Deno #2128\); the operator can approve it for this hook in hookbox\.yaml/,
    );
    const approved = await prepare(host, declared, { operator: shApproval });
    expect(((await invoke(host, approved, ws).api("run", "sh", ["-c", "echo hi"])) as RunResult).stdout).toBe("hi\n");
  });

  it("the summary flags an interpreter the operator has not approved", async () => {
    const host = testHost();
    const grants = await prepare(host, { run: [{ cmd: "python3", args: ["**"], env: [] }] });
    expect(grants.summary.join("\n")).toMatch(/run .*python3 \*\* \(refused unless the operator approves it: python3 is an interpreter/);
  });

  it("deny.run wins, by name or path", async () => {
    const host = testHost();
    for (const entry of ["git", execFileSync("sh", ["-c", "command -v git"]).toString().trim()]) {
      const grants = await prepare(host, { run: [{ cmd: "git", args: ["**"], env: [] }] }, { operator: operator({ deny: { run: [entry] } }) });
      await deniedWith(invoke(host, grants, ws).api("run", "git", ["status"]), /refused by the operator: hookbox\.yaml deny\.run lists/);
    }
  });

  it("commands are resolved when the hook loads: an unknown one makes its grant inert (a warning naming the file), the hook loads", async () => {
    const host = testHost();
    const permissions = {
      read: [],
      run: [
        { cmd: "no-such-cmd-xyz", args: ["**"], env: [] },
        { cmd: "echo", args: ["**"], env: [] },
      ],
      env: [],
      net: [],
      inject_context: false,
      store: false,
      modify: [],
      notify: false,
      llm: [],
    };
    const result = await host.prepare({ origin: "dir", hookId: "h", file: "hooks/h/hook.yaml", permissions }, operator());
    expect(result).toMatchObject({
      ok: true,
      warnings: [
        expect.stringMatching(/^hooks\/h\/hook\.yaml: permissions\.run\[0\]\.cmd: "no-such-cmd-xyz" was not found on PATH .*this grant is inert/),
      ],
    });
    if (!result.ok) return;
    expect(result.grants.summary).toContainEqual("run no-such-cmd-xyz ** (inert: not found on PATH when the hook loaded)");
    const { api } = invoke(host, result.grants, ws);
    const e = await rejection(api("run", "no-such-cmd-xyz", ["--version"]));
    expect(e).toMatchObject({
      name: "HookboxError",
      code: "not_found",
      message: 'hook.run("no-such-cmd-xyz", ["--version"]): run: "no-such-cmd-xyz" was not found on PATH when the hook loaded',
    });
    // The other grants of the hook work.
    expect(((await api("run", "echo", ["hi"])) as RunResult).stdout).toBe("hi\n");
  });

  it("a malformed command (a relative path) is still a prepare error", async () => {
    const host = testHost();
    const result = await host.prepare(
      {
        origin: "dir",
        hookId: "h",
        file: "hooks/h/hook.yaml",
        permissions: {
          read: [],
          run: [{ cmd: "./bin/x", args: ["**"], env: [] }],
          env: [],
          net: [],
          inject_context: false,
          store: false,
          modify: [],
          notify: false,
          llm: [],
        },
      },
      operator(),
    );
    expect(result).toEqual({ ok: false, errors: [expect.stringMatching(/permissions\.run\[0\]\.cmd: "\.\/bin\/x": use a command name/)] });
  });

  it("an inert grant never runs anything, even when the name appears on PATH later", async () => {
    const bin = tempDir("hookbox-late-bin-");
    try {
      const host = testHost({ env: hostEnv({ PATH: `${bin}:/usr/bin:/bin` }) });
      const result = await host.prepare(
        {
          origin: "dir",
          hookId: "h",
          file: "hooks/h/hook.yaml",
          permissions: {
            read: [],
            run: [{ cmd: "late-tool", args: ["**"], env: [] }],
            env: [],
            net: [],
            inject_context: false,
            store: false,
            modify: [],
            notify: false,
            llm: [],
          },
        },
        operator(),
      );
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      writeFileSync(`${bin}/late-tool`, `#!/bin/sh\ntouch ${bin}/ran\n`, { mode: 0o755 });
      await rejection(invoke(host, result.grants, ws).api("run", "late-tool", []));
      expect(existsSync(`${bin}/ran`)).toBe(false);
    } finally {
      removeDir(bin);
    }
  });
});

describe("hook.run: the environment is built, not inherited", () => {
  const printenv = (env: string[]) => ({ run: [{ cmd: "printenv", args: [], env }] });

  it("no LD_*, NODE_OPTIONS, GIT_* or secrets from the daemon; a fixed PATH", async () => {
    const host = testHost();
    const grants = await prepare(host, printenv([]));
    const { stdout } = (await invoke(host, grants, ws).api("run", "printenv", [])) as RunResult;
    expect(stdout).not.toContain(CANARY);
    expect(stdout).not.toMatch(/^(LD_PRELOAD|NODE_OPTIONS|GIT_CONFIG_PARAMETERS|GITHUB_TOKEN|ANTHROPIC_API_KEY)=/m);
    // The program's own directory first (printenv as the host's PATH finds it), then the fixed ones.
    const dir = dirname(onPath("printenv", hostEnv().PATH) as string);
    expect(stdout.split("\n")).toContain(`PATH=${[...new Set([dir, ...SAFE_PATH])].join(":")}`);
    expect(stdout).toMatch(/^HOME=\/nonexistent-home$/m);
    expect(stdout).toMatch(/^GIT_PAGER=cat$/m);
  });

  it("a grant passes the variables it names; a secret one only with the operator's approval", async () => {
    const host = testHost();
    const grants = await prepare(host, printenv(["LANG_HINT", "ANTHROPIC_API_KEY"]));
    const { stdout } = (await invoke(host, grants, ws).api("run", "printenv", [])) as RunResult;
    expect(stdout).toMatch(/^LANG_HINT=fr$/m);
    expect(stdout).not.toContain(CANARY);
    const approved = await prepare(host, printenv(["ANTHROPIC_API_KEY"]), {
      operator: operator({
        hooks: { "test-hook": { permissions: { run: [{ cmd: "printenv", args: [], env: ["ANTHROPIC_API_KEY"] }], env: ["ANTHROPIC_API_KEY"] } } },
      }),
    });
    expect(((await invoke(host, approved, ws).api("run", "printenv", [])) as RunResult).stdout).toContain(`ANTHROPIC_API_KEY=${CANARY}`);
  });

  it.each([["LD_PRELOAD"], ["DYLD_INSERT_LIBRARIES"], ["NODE_OPTIONS"], ["BASH_ENV"], ["GIT_SSH_COMMAND"], ["PAGER"], ["EDITOR"], ["PATH"], ["L*"]])(
    "%s can never be passed: a prepare error",
    async (name) => {
      const result = await testHost().prepare(
        {
          hookId: "h",
          origin: "dir",
          file: "hook.yaml",
          permissions: {
            read: [],
            run: [{ cmd: "printenv", args: [], env: [name] }],
            env: [],
            net: [],
            inject_context: false,
            store: false,
            modify: [],
            notify: false,
            llm: [],
          },
        },
        operator(),
      );
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0]).toMatch(/^hook\.yaml: permissions\.run\[0\]\.env: .*can never be passed to a command/);
    },
  );

  it("LD_PRELOAD in the daemon's environment does not reach the command", async () => {
    const host = testHost({ env: hostEnv({ LD_PRELOAD: "/nonexistent/evil.so" }) });
    const grants = await prepare(host, printenv(["LD_*".slice(0, 0) || "LANG_HINT"]));
    const { stdout, stderr } = (await invoke(host, grants, ws).api("run", "printenv", [])) as RunResult;
    expect(stdout).not.toContain("LD_PRELOAD");
    expect(stderr).not.toContain("evil.so"); // the loader never saw it
  });
});

describe("hook.run: working directory", () => {
  const host = testHost();
  const grants = prepare(host, { run: [{ cmd: "pwd", args: [], env: [] }] });
  const pwd = async (cwd?: string, workspace: string | null = ws) =>
    invoke(host, await grants, workspace ?? undefined).api("run", "pwd", [], cwd === undefined ? {} : { cwd }) as Promise<RunResult>;

  it("defaults to the workspace; a subdirectory is fine", async () => {
    expect((await pwd()).stdout).toBe(`${ws}\n`);
    expect((await pwd("src")).stdout).toBe(`${ws}/src\n`);
  });

  it.each([[".."], ["/"], ["etc-link"], ["/tmp"]])("cwd %j outside the workspace is refused", async (cwd) => {
    await deniedWith(pwd(cwd), /outside the workspace .*commands run only inside the workspace/);
  });

  it("no workspace, no command", async () => {
    await deniedWith(pwd(undefined, null), /commands run in the workspace, and this event has none/);
  });
});

describe("hook.run: time, output and processes", () => {
  const host = testHost();
  // Scripts with shell syntax must be granted literally: a wildcard never matches them.
  const marks = {
    sleep: markedSeconds(30),
    groupA: markedSeconds(31),
    groupB: markedSeconds(31),
    background: markedSeconds(32),
    abort: markedSeconds(33),
  };
  const scripts = [
    `sleep ${marks.groupA} & sleep ${marks.groupB} & wait`,
    `sleep ${marks.background} & echo started`,
    "seq 1 100000 1>&2",
    "kill -9 $$",
  ];
  const run = [
    ...scripts.map((script) => ({ cmd: "sh", args: ["-c", script], env: [] })),
    { cmd: "sleep", args: ["*"], env: [] },
    { cmd: "seq", args: ["**"], env: [] },
    { cmd: "cat", args: [], env: [] },
    { cmd: "false", args: [], env: [] },
  ];
  const grants = prepare(host, { run }, { operator: operator({ hooks: { "test-hook": { permissions: { run } } } }) });
  const api = async (...args: unknown[]) => invoke(host, await grants, ws).api("run", ...args) as Promise<RunResult>;

  it("a command sleeping 30 s under timeoutMs 200 returns timedOut within 500 ms and leaves no process", async () => {
    const started = performance.now();
    const result = await api("sleep", [marks.sleep], { timeoutMs: 200 });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ exitCode: -1, timedOut: true });
    expect(elapsed).toBeGreaterThanOrEqual(200);
    expect(elapsed).toBeLessThan(500);
    expect(liveProcesses(marks.sleep)).toEqual([]);
  });

  it("the timeout kills the whole process group, grandchildren too", async () => {
    const result = await api("sh", ["-c", scripts[0]], { timeoutMs: 200 });
    expect(result.timedOut).toBe(true);
    expect([...liveProcesses(marks.groupA), ...liveProcesses(marks.groupB)]).toEqual([]);
  });

  it("a background child does not outlive a command that exited", async () => {
    const started = performance.now();
    const result = await api("sh", ["-c", scripts[1]]);
    expect(result).toMatchObject({ exitCode: 0, stdout: "started\n", timedOut: false });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(liveProcesses(marks.background)).toEqual([]);
  });

  it("the invocation's signal aborting kills the command", async () => {
    const controller = new AbortController();
    const pending = invoke(host, await grants, ws, controller.signal).api("run", "sleep", [marks.abort]);
    setTimeout(() => controller.abort(), 100);
    const e = await rejection(pending);
    expect(e).toMatchObject({ code: "timeout" });
    expect(liveProcesses(marks.abort)).toEqual([]);
  });

  it("stdout is capped at 50 KiB and stderr at 10 KiB", async () => {
    const out = await api("seq", ["1", "100000"]);
    expect(out).toMatchObject({ exitCode: 0, truncated: true });
    expect(out.stdout.length).toBe(50 * 1024);
    const err = await api("sh", ["-c", "seq 1 100000 1>&2"]);
    expect(err.stderr.length).toBe(10 * 1024);
    expect(err.truncated).toBe(true);
  });

  it("stdin is closed unless given", async () => {
    expect((await api("cat", [])).stdout).toBe("");
    expect((await api("cat", [], { stdin: "piped\n" })).stdout).toBe("piped\n");
  });

  it("exit codes: the status, 128 + N after a signal", async () => {
    expect((await api("false", [])).exitCode).toBe(1);
    expect((await api("sh", ["-c", "kill -9 $$"])).exitCode).toBe(137);
  });

  it.each([
    [[42, []], /cmd must be a string/],
    [["sleep", "1"], /args must be an array of strings/],
    [["sleep", [1]], /args\[0\] must be a string/],
    [["sleep", ["1"], { timeoutMs: 0 }], /timeoutMs must be between 1 and 900000/],
    [["sleep", ["1"], { shell: true }], /unknown option "shell"/],
  ])("invalid arguments %j", async (args, message) => {
    const e = await rejection(api(...(args as unknown[])));
    expect(e).toMatchObject({ name: "TypeError", code: "invalid_argument" });
    expect(e.message).toMatch(message);
  });
});
