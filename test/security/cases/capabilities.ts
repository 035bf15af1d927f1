import { existsSync, readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import type { Expectation, HostileCase } from "../case.ts";
import { calls } from "../case.ts";
import type { Fortress, HookDef } from "../harness.ts";

/**
 * Every capability bypass of research/sandbox.md §10 D, E, G and the net/env rules of
 * docs/permissions.md, as hostile handlers run by the daemon with a workspace full of traps
 * (prepared by ../capabilities.test.ts): symlinks out of it, a link to /proc, a FIFO, a socket,
 * a 20 GiB sparse file, a sibling directory whose name starts like it, a git repository.
 *
 * A handler that gets what it asked for returns it in a deny reason ("LEAK …"): the run would
 * then be `denied` instead of `failed`, and the canary checks would see the content.
 */

/** Servers the net cases talk to; set by the test file before the daemon starts. */
export const NET = { granted: 0, canary: 0, slow: 0 };

/** Every capability case's event carries the fixture paths the handler needs. */
export function fixtureEvent(fortress: Fortress, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ws: fortress.workspace,
    outside: fortress.outside,
    home: fortress.world.home,
    granted: NET.granted,
    canary: NET.canary,
    slow: NET.slow,
    ...extra,
  };
}

const READ = { read: ["${workspace}/**"] };

/** A handler that makes one call and returns what it got as a (leaking) deny reason. */
function attempt(callExpression: string): string {
  return `export default async (e: any, hook: any) => { const got = await ${callExpression}; return { action: "deny", reason: "LEAK " + JSON.stringify(got).slice(0, 4000) }; }`;
}

/** What a refused call comes to: the handler does not catch it, so it fails with handler_threw. */
function refusedAs(capability: string, kind: "denied" | "invalid" | "error", reason?: RegExp): Expectation {
  const name = kind === "denied" ? /PermissionDenied/ : kind === "invalid" ? /TypeError/ : /HookboxError/;
  return {
    status: "failed",
    codes: ["handler_threw"],
    reason: reason ?? name,
    hostCalls: calls(capability, kind === "denied" ? "denied" : "error"),
  };
}

function refused(
  id: string,
  title: string,
  permissions: Record<string, unknown>,
  callExpression: string,
  capability: string,
  kind: "denied" | "invalid" | "error" = "denied",
  reason?: RegExp,
): HostileCase {
  return {
    category: categoryOf(capability),
    id,
    title,
    permissions,
    source: attempt(callExpression),
    event: (f) => fixtureEvent(f),
    expect: refusedAs(capability, kind, reason),
  };
}

function categoryOf(capability: string): string {
  if (["readFile", "listFiles", "fileDiff"].includes(capability)) return "read";
  if (["run", "gitDiff", "runTests"].includes(capability)) return "run";
  if (capability === "http.get") return "net";
  if (capability.startsWith("store")) return "store";
  return capability;
}

const read: HostileCase[] = [
  refused("read-dotdot", "../ out of the workspace", READ, 'hook.readFile("../outside/canary.txt")', "readFile"),
  refused("read-absolute", "an absolute path outside every grant", READ, 'hook.readFile(e.outside + "/canary.txt")', "readFile"),
  refused(
    "read-abs-dotdot",
    "an absolute path through the workspace and back out",
    READ,
    'hook.readFile(e.ws + "/../outside/canary.txt")',
    "readFile",
  ),
  refused("read-slashes", "// and /./ and .. spellings", READ, 'hook.readFile(e.ws + "//./sub/..//..//outside/./canary.txt")', "readFile"),
  refused(
    "read-prefix",
    "a sibling whose name starts with the workspace's (prefix confusion)",
    READ,
    'hook.readFile(e.ws + "-evil/secret.txt")',
    "readFile",
  ),
  refused("read-symlink-file", "a symlink in the workspace to a file outside", READ, 'hook.readFile("link-out.txt")', "readFile"),
  refused("read-symlink-dir", "a symlinked directory component in the middle of the path", READ, 'hook.readFile("linkdir/canary.txt")', "readFile"),
  refused("read-symlink-home", "a symlink in the workspace to ~/.ssh", READ, 'hook.readFile("ssh/id_ed25519")', "readFile"),
  refused("read-home", "the user's private key by absolute path", READ, 'hook.readFile(e.home + "/.ssh/id_ed25519")', "readFile"),
  refused(
    "read-home-ceiling",
    "a ${home}/** grant is beyond the default read ceiling",
    { read: ["${home}/**"] },
    'hook.readFile(e.home + "/.ssh/id_ed25519")',
    "readFile",
  ),
  refused(
    "read-tilde",
    "~ is not expanded: it names a file in the workspace",
    READ,
    'hook.readFile("~/.ssh/id_ed25519")',
    "readFile",
    "error",
    /not_found|no such file/,
  ),
  refused("read-proc-environ", "/proc/self/environ (the daemon's secrets)", { read: ["/**"] }, 'hook.readFile("/proc/self/environ")', "readFile"),
  refused(
    "read-proc-root",
    "/proc/self/root/… back to a file outside",
    { read: ["/**"] },
    'hook.readFile("/proc/self/root" + e.outside + "/canary.txt")',
    "readFile",
  ),
  refused("read-proc-fd", "/proc/self/fd/0", { read: ["/**"] }, 'hook.readFile("/proc/self/fd/0")', "readFile"),
  refused("read-proc-mem", "/proc/self/mem", { read: ["/**"] }, 'hook.readFile("/proc/self/mem")', "readFile"),
  refused("read-procdir-symlink", "a symlink in the workspace to /proc", READ, 'hook.readFile("procdir/self/environ")', "readFile"),
  refused("read-dev-zero", "a symlink in the workspace to /dev/zero (infinite)", READ, 'hook.readFile("zero")', "readFile"),
  refused("read-dev-urandom", "/dev/urandom with a grant of /**", { read: ["/**"] }, 'hook.readFile("/dev/urandom")', "readFile"),
  refused("read-sys", "/sys with a grant of /**", { read: ["/**"] }, 'hook.readFile("/sys/kernel/mm/transparent_hugepage/enabled")', "readFile"),
  refused("read-fifo", "a FIFO in the workspace (would block forever)", READ, 'hook.readFile("fifo")', "readFile"),
  refused("read-socket", "a unix socket in the workspace", READ, 'hook.readFile("sock")', "readFile"),
  refused("read-directory", "a directory", READ, 'hook.readFile("sub")', "readFile"),
  refused("read-nul", "a NUL byte in the path", READ, 'hook.readFile("a.txt\\u0000../outside/canary.txt")', "readFile", "invalid"),
  refused("read-empty", "an empty path", READ, 'hook.readFile("")', "readFile", "invalid"),
  refused("read-long", "a path over 4096 characters", READ, 'hook.readFile("a/".repeat(3000))', "readFile", "invalid"),
  refused("read-maxbytes", "a negative maxBytes", READ, 'hook.readFile("a.txt", { maxBytes: -1 })', "readFile", "invalid"),
  {
    category: "read",
    id: "read-sparse",
    title: "a 20 GiB sparse file costs one capped read",
    permissions: READ,
    source:
      'export default async (e: any, hook: any) => { try { const text = await hook.readFile("sparse"); return { reason: "length " + text.length }; } catch (err: any) { return { reason: "code " + err.code }; } }',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "completed",
      check: ({ run }) => {
        const length = /^length (\d+)$/.exec(run.reason ?? "");
        if (length) expect(Number(length[1])).toBeLessThanOrEqual(1024 * 1024);
        else expect(run.reason).toMatch(/^code (too_large|result_too_large)$/);
      },
    },
  },
  refused("list-parent", "listing ..", READ, 'hook.listFiles("..")', "listFiles"),
  refused("list-outside", "listing a directory outside", READ, "hook.listFiles(e.outside)", "listFiles"),
  refused("list-symlink-dir", "listing a symlinked directory that leads outside", READ, 'hook.listFiles("linkdir")', "listFiles"),
  refused("list-proc", "listing /proc/self/fd", { read: ["/**"] }, 'hook.listFiles("/proc/self/fd")', "listFiles"),
  {
    category: "read",
    id: "list-recursive",
    title: "a recursive listing does not follow symlinks nor list special files",
    permissions: READ,
    source:
      'export default async (e: any, hook: any) => ({ reason: JSON.stringify(await hook.listFiles(".", { recursive: true, maxFiles: 10000 })) })',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "completed",
      check: ({ run }) => {
        const listed = JSON.parse(run.reason ?? "[]") as string[];
        expect(listed).toContain("a.txt");
        expect(listed).toContain("sub/inner.txt");
        for (const path of listed) expect(path).not.toMatch(/^(linkdir|procdir|ssh|link-out\.txt|zero|fifo|sock)(\/|$)/);
      },
    },
  },
  refused(
    "filediff-symlink",
    "fileDiff of a symlink that leads outside",
    { read: ["${workspace}/**"], run: [{ cmd: "git", args: ["diff", "**"] }] },
    'hook.fileDiff("link-out.txt")',
    "fileDiff",
  ),
  refused(
    "filediff-outside",
    "fileDiff of a file outside",
    { read: ["${workspace}/**"], run: [{ cmd: "git", args: ["diff", "**"] }] },
    'hook.fileDiff("../outside/canary.txt")',
    "fileDiff",
  ),
  refused(
    "gitdiff-option",
    "gitDiff with an option as its base",
    { run: [{ cmd: "git", args: ["diff", "**"] }] },
    'hook.gitDiff("--output=" + e.outside + "/pwn")',
    "gitDiff",
    "invalid",
  ),
  refused(
    "gitdiff-no-index",
    "gitDiff with a base that smuggles --no-index",
    { run: [{ cmd: "git", args: ["diff", "**"] }] },
    'hook.gitDiff("HEAD --no-index")',
    "gitDiff",
    "invalid",
  ),
];

const GIT = { run: [{ cmd: "git", args: ["**"] }] };
const run: HostileCase[] = [
  refused(
    "run-git-pager",
    "git -c core.pager=… (configuration runs programs)",
    GIT,
    'hook.run("git", ["-c", "core.pager=cat " + e.outside + "/canary.txt", "log"])',
    "run",
  ),
  refused("run-git-fsmonitor", "git -c core.fsmonitor=…", GIT, 'hook.run("git", ["-c", "core.fsmonitor=sh -c id", "status"])', "run"),
  refused("run-git-config-env", "git --config-env=core.pager=…", GIT, 'hook.run("git", ["--config-env=core.pager=HOME", "log"])', "run"),
  refused("run-git-alias", "git -c alias.x='!sh'", GIT, 'hook.run("git", ["-calias.x=!sh -c id", "x"])', "run"),
  refused("run-git-upload-pack", "git ls-remote --upload-pack=…", GIT, 'hook.run("git", ["ls-remote", "--upload-pack=sh -c id", "."])', "run"),
  refused("run-git-ext-url", "git ls-remote ext::…", GIT, 'hook.run("git", ["ls-remote", "ext::sh -c id"])', "run"),
  refused("run-git-dash-c-dir", "git -C outside", GIT, 'hook.run("git", ["-C", e.outside, "status"])', "run"),
  refused("run-git-git-dir", "git --git-dir=…", GIT, 'hook.run("git", ["--git-dir=" + e.outside, "log"])', "run"),
  refused(
    "run-git-no-index",
    "git diff --no-index (reads files outside the repository)",
    GIT,
    'hook.run("git", ["diff", "--no-index", "a.txt", e.outside + "/canary.txt"])',
    "run",
  ),
  refused("run-git-output", "git log --output=… (writes files)", GIT, 'hook.run("git", ["log", "--output=" + e.outside + "/pwn"])', "run"),
  refused("run-find-exec", "find -exec", { run: [{ cmd: "find", args: ["**"] }] }, 'hook.run("find", [".", "-exec", "cat", "{}", "+"])', "run"),
  refused(
    "run-find-fprint",
    "find -fprint (writes files)",
    { run: [{ cmd: "find", args: ["**"] }] },
    'hook.run("find", [".", "-fprint", e.outside + "/pwn"])',
    "run",
  ),
  refused(
    "run-tar-to-command",
    "tar --to-command",
    { run: [{ cmd: "tar", args: ["**"] }] },
    'hook.run("tar", ["-xf", "a.tar", "--to-command=sh -c id"])',
    "run",
  ),
  refused(
    "run-tar-checkpoint",
    "tar --checkpoint-action=exec=…",
    { run: [{ cmd: "tar", args: ["**"] }] },
    'hook.run("tar", ["-cf", "/dev/null", "--checkpoint=1", "--checkpoint-action=exec=sh -c id", "a.txt"])',
    "run",
  ),
  refused(
    "run-tar-dash-i",
    "tar -I program",
    { run: [{ cmd: "tar", args: ["**"] }] },
    'hook.run("tar", ["-I", "sh -c id", "-cf", "x.tar", "a.txt"])',
    "run",
  ),
  refused("run-sed-e", "sed's e command", { run: [{ cmd: "sed", args: ["**"] }] }, 'hook.run("sed", ["1e id", "a.txt"])', "run"),
  refused(
    "run-sed-r",
    "sed's r command reads any file",
    { run: [{ cmd: "sed", args: ["**"] }] },
    'hook.run("sed", ["1r " + e.outside + "/canary.txt", "a.txt"])',
    "run",
  ),
  refused("run-sed-s-e", "sed's s///e flag", { run: [{ cmd: "sed", args: ["**"] }] }, 'hook.run("sed", ["s/.*/id/e", "a.txt"])', "run"),
  refused("run-sed-in-place", "sed -i (writes files)", { run: [{ cmd: "sed", args: ["**"] }] }, 'hook.run("sed", ["-i", "s/a/b/", "a.txt"])', "run"),
  refused(
    "run-awk",
    "awk is an interpreter (allow-all: needs the operator)",
    { run: [{ cmd: "awk", args: ["**"] }] },
    'hook.run("awk", ["BEGIN { print 1 }"])',
    "run",
  ),
  refused(
    "run-sh",
    "sh -c (a shell: allow-all)",
    { run: [{ cmd: "sh", args: ["**"] }] },
    'hook.run("sh", ["-c", "cat " + e.outside + "/canary.txt"])',
    "run",
  ),
  refused("run-bash-path", "bash by absolute path", { run: [{ cmd: "bash", args: ["**"] }] }, 'hook.run("/bin/bash", ["-c", "id"])', "run"),
  refused("run-env", "env as a command runner", { run: [{ cmd: "env", args: ["**"] }] }, 'hook.run("env", ["sh", "-c", "id"])', "run"),
  refused(
    "run-xargs",
    "xargs as a command runner",
    { run: [{ cmd: "xargs", args: ["**"] }] },
    'hook.run("xargs", ["sh", "-c", "id"], { stdin: "x" })',
    "run",
  ),
  refused(
    "run-metachar",
    "shell syntax in an argument matched by a wildcard",
    { run: [{ cmd: "ls", args: ["*"] }] },
    'hook.run("ls", ["; cat " + e.outside + "/canary.txt"])',
    "run",
  ),
  refused("run-newline", "a newline in an argument", { run: [{ cmd: "ls", args: ["*"] }] }, 'hook.run("ls", ["a.txt\\ncat x"])', "run"),
  refused("run-subst", "$( ) in an argument", { run: [{ cmd: "ls", args: ["*"] }] }, 'hook.run("ls", ["$(id)"])', "run"),
  refused(
    "run-proc-arg",
    "an argument naming /proc/self/environ",
    { run: [{ cmd: "cat", args: ["*"] }] },
    'hook.run("cat", ["/proc/self/environ"])',
    "run",
  ),
  refused("run-proc-arg-eq", "/proc after an = sign", { run: [{ cmd: "ls", args: ["*"] }] }, 'hook.run("ls", ["--hide=/proc/1/environ"])', "run"),
  refused("run-dev-arg", "an argument naming /dev/zero", { run: [{ cmd: "cat", args: ["*"] }] }, 'hook.run("cat", ["/dev/zero"])', "run"),
  refused("run-cwd-escape", "cwd outside the workspace", { run: [{ cmd: "ls", args: ["**"] }] }, 'hook.run("ls", [], { cwd: "../outside" })', "run"),
  refused(
    "run-cwd-symlink",
    "cwd through a symlink that leads outside",
    { run: [{ cmd: "ls", args: ["**"] }] },
    'hook.run("ls", [], { cwd: "linkdir" })',
    "run",
  ),
  refused(
    "run-ungranted",
    "a command the hook was not granted",
    { run: [{ cmd: "ls", args: ["**"] }] },
    'hook.run("cat", [e.outside + "/canary.txt"])',
    "run",
  ),
  refused(
    "run-other-path",
    "another binary by absolute path",
    { run: [{ cmd: "ls", args: ["**"] }] },
    'hook.run("/usr/bin/cat", [e.outside + "/canary.txt"])',
    "run",
  ),
  refused(
    "run-workspace-binary",
    "a program the project put in the workspace",
    { run: [{ cmd: "ls", args: ["**"] }] },
    'hook.run(e.ws + "/bin/ls", [])',
    "run",
  ),
  refused(
    "run-args-pattern",
    "arguments the grant's pattern does not allow",
    { run: [{ cmd: "ls", args: ["-la"] }] },
    'hook.run("ls", ["-la", e.outside])',
    "run",
  ),
  refused(
    "run-stdin-huge",
    "two million characters of stdin",
    { run: [{ cmd: "cat", args: [] }] },
    'hook.run("cat", [], { stdin: "x".repeat(2e6) })',
    "run",
    "invalid",
  ),
  // A grant whose command is not on this machine loads inert (a warning in /v1/hooks problems): calling it runs nothing.
  refused(
    "run-cmd-missing",
    "a command that was not on PATH when the hook loaded",
    { run: [{ cmd: "definitely-not-a-command-xyz" }] },
    'hook.run("definitely-not-a-command-xyz", [])',
    "run",
    "error",
    /HookboxError.*"definitely-not-a-command-xyz" was not found on PATH when the hook loaded/,
  ),
  refused(
    "run-tests-shell",
    "runTests with shell syntax",
    { run: [{ cmd: "ls", args: ["**"] }] },
    'hook.runTests("ls; cat " + e.outside + "/canary.txt")',
    "runTests",
    "invalid",
  ),
  {
    category: "run",
    id: "run-printenv",
    title: "a command's environment is built, never inherited",
    permissions: { run: [{ cmd: "printenv", args: [] }] },
    source: 'export default async (e: any, hook: any) => { const r = await hook.run("printenv", []); return { reason: r.stdout }; }',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "completed",
      reason: /^PATH=/m,
      check: ({ run }) => expect(run.reason).not.toMatch(/ANTHROPIC|GITHUB|AWS|XDG_RUNTIME_DIR|LD_PRELOAD/),
    },
  },
  {
    category: "run",
    id: "run-env-secret",
    title: "a run grant naming a secret variable does not pass it without the operator",
    permissions: { run: [{ cmd: "printenv", args: ["**"], env: ["ANTHROPIC_API_KEY", "GITHUB_TOKEN"] }] },
    source:
      'export default async (e: any, hook: any) => { const r = await hook.run("printenv", ["ANTHROPIC_API_KEY"]); const s = await hook.run("printenv", []); return { reason: "exit " + r.exitCode + " [" + r.stdout + "] " + s.stdout }; }',
    event: (f) => fixtureEvent(f),
    expect: { status: "completed", reason: /^exit 1 \[\] PATH=/, check: ({ run }) => expect(run.reason).not.toMatch(/ANTHROPIC|GITHUB/) },
  },
  {
    category: "run",
    id: "run-timeout-kill",
    title: "a command past its timeoutMs is killed",
    permissions: { run: [{ cmd: "sleep", args: ["*"] }] },
    source:
      'export default async (e: any, hook: any) => { const r = await hook.run("sleep", ["31.337"], { timeoutMs: 300 }); return { reason: "timedOut " + r.timedOut + " exit " + r.exitCode }; }',
    event: (f) => fixtureEvent(f),
    expect: { status: "completed", reason: /^timedOut true exit -1$/, check: () => expect(processesMatching("sleep 31.337")).toEqual([]) },
  },
  {
    category: "run",
    id: "run-invocation-timeout",
    title: "a command still running when the invocation's timeout ends is killed with it",
    permissions: { run: [{ cmd: "sleep", args: ["*"] }] },
    limits: { timeout_ms: 500 },
    source: 'export default async (e: any, hook: any) => { await hook.run("sleep", ["31.338"]); }',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "failed",
      codes: ["sandbox_timeout"],
      check: async () =>
        expect(
          await eventually(
            () => processesMatching("sleep 31.338"),
            (p) => p.length === 0,
          ),
        ).toEqual([]),
    },
  },
  {
    category: "run",
    id: "run-output-flood",
    title: "yes(1): output capped at 50 KiB",
    permissions: { run: [{ cmd: "yes", args: [] }] },
    source:
      'export default async (e: any, hook: any) => { const r = await hook.run("yes", [], { timeoutMs: 500 }); return { reason: "bytes " + r.stdout.length + " truncated " + r.truncated }; }',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "completed",
      check: ({ run }) => expect(Number(/^bytes (\d+) truncated true$/.exec(run.reason ?? "")?.[1])).toBeLessThanOrEqual(50 * 1024),
    },
  },
  {
    category: "run",
    id: "run-grandchild",
    title: "a background grandchild dies with its command (operator-approved sh)",
    permissions: { run: [{ cmd: "sh", args: ["-c", "sleep 31.339 & echo started"] }] },
    source:
      'export default async (e: any, hook: any) => { const r = await hook.run("sh", ["-c", "sleep 31.339 & echo started"], { timeoutMs: 5000 }); return { reason: r.stdout.trim() }; }',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "completed",
      reason: /^started$/,
      check: async () =>
        expect(
          await eventually(
            () => processesMatching("sleep 31.339"),
            (p) => p.length === 0,
          ),
        ).toEqual([]),
    },
  },
];

const env: HostileCase[] = [
  refused("env-secret", "a declared secret variable (ANTHROPIC_API_KEY)", { env: ["ANTHROPIC_API_KEY"] }, 'hook.env("ANTHROPIC_API_KEY")', "env"),
  refused("env-prefix", "a prefix pattern that covers a secret", { env: ["A*"] }, 'hook.env("ANTHROPIC_API_KEY")', "env"),
  refused("env-aws", "AWS_SECRET_ACCESS_KEY under AWS_*", { env: ["AWS_*"] }, 'hook.env("AWS_SECRET_ACCESS_KEY")', "env"),
  refused("env-github", "GITHUB_TOKEN declared", { env: ["GITHUB_TOKEN"] }, 'hook.env("GITHUB_TOKEN")', "env"),
  refused("env-case", "the secret's name in lower case", { env: ["HOME"] }, 'hook.env("anthropic_api_key")', "env"),
  refused("env-undeclared", "a variable not declared", { env: ["HOME"] }, 'hook.env("PATH")', "env"),
  refused("env-equals", "a name with = in it", { env: ["HOME"] }, 'hook.env("ANTHROPIC_API_KEY=")', "env"),
];

const net: HostileCase[] = [
  refused(
    "net-other-port",
    "a port the operator did not approve",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.canary + "/")',
    "http.get",
  ),
  refused(
    "net-decimal",
    "127.0.0.1 spelled as one decimal number",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://2130706433:" + e.canary + "/")',
    "http.get",
  ),
  refused("net-hex", "127.0.0.1 spelled in hex", { net: ["127.0.0.1"] }, 'hook.http.get("http://0x7f000001:" + e.canary + "/")', "http.get"),
  refused("net-octal", "127.0.0.1 spelled in octal", { net: ["127.0.0.1"] }, 'hook.http.get("http://0177.0.0.1:" + e.canary + "/")', "http.get"),
  refused("net-short", "127.1", { net: ["127.0.0.1"] }, 'hook.http.get("http://127.1:" + e.canary + "/")', "http.get"),
  refused("net-mapped-v6", "IPv4-mapped IPv6", { net: ["127.0.0.1"] }, 'hook.http.get("http://[::ffff:127.0.0.1]:" + e.canary + "/")', "http.get"),
  refused("net-v6-loopback", "[::1]", { net: ["127.0.0.1"] }, 'hook.http.get("http://[::1]:" + e.canary + "/")', "http.get"),
  refused(
    "net-localhost",
    "localhost (a name not granted)",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://localhost:" + e.granted + "/ok")',
    "http.get",
  ),
  refused("net-zero", "0.0.0.0", { net: ["127.0.0.1"] }, 'hook.http.get("http://0.0.0.0:" + e.canary + "/")', "http.get"),
  refused("net-ungranted", "any host for a hook granted none", {}, 'hook.http.get("http://127.0.0.1:" + e.granted + "/ok")', "http.get"),
  refused(
    "net-redirect-port",
    "a redirect to another port of the same host",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.granted + "/to-canary")',
    "http.get",
  ),
  refused(
    "net-redirect-host",
    "a redirect to another host name",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.granted + "/to-localhost")',
    "http.get",
  ),
  refused(
    "net-redirect-file",
    "a redirect to file://",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.granted + "/to-file")',
    "http.get",
    "invalid",
  ),
  refused(
    "net-redirect-loop",
    "a redirect loop",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.granted + "/loop")',
    "http.get",
    "error",
    /redirects/,
  ),
  refused(
    "net-big-body",
    "a 2 MiB body",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.granted + "/big")',
    "http.get",
    "error",
    /too_large|larger than/,
  ),
  refused(
    "net-slow",
    "a server that never answers",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.slow + "/", { timeoutMs: 300 })',
    "http.get",
    "error",
    /no complete answer within 300 ms|timeout/,
  ),
  refused(
    "net-credentials",
    "credentials in the URL",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://user:pw@127.0.0.1:" + e.granted + "/ok")',
    "http.get",
  ),
  refused(
    "net-tab-userinfo",
    "a tab that turns the granted host into userinfo",
    { net: ["127.0.0.1"] },
    'hook.http.get("http://127.0.0.1:" + e.granted + "\\t@127.0.0.1:" + e.canary + "/")',
    "http.get",
  ),
  refused("net-file", "file:// directly", { net: ["127.0.0.1"] }, 'hook.http.get("file://" + e.outside + "/canary.txt")', "http.get", "invalid"),
  {
    category: "net",
    id: "net-granted",
    title: "the approved host and port work (the rules above refuse, not the network)",
    permissions: { net: ["127.0.0.1"] },
    source:
      'export default async (e: any, hook: any) => { const r = await hook.http.get("http://127.0.0.1:" + e.granted + "/ok"); return { reason: r.status + " " + r.body }; }',
    event: (f) => fixtureEvent(f),
    expect: { status: "completed", reason: /^200 fine$/, hostCalls: calls("http.get", "allowed") },
  },
];

const store: HostileCase[] = [
  {
    category: "store",
    id: "store-traversal",
    title: "a store key that looks like a path",
    permissions: { store: true },
    source:
      'export default async (e: any, hook: any) => { await hook.store.set("../../../../" + e.outside.slice(1) + "/pwn", 1); await hook.store.set("/etc/passwd", 2); return { reason: "got " + (await hook.store.get("/etc/passwd")) }; }',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "completed",
      reason: /^got 2$/,
      check: ({ fortress }) => {
        // (A lookup, not a listing: listing would move the canary directory's access time.)
        expect(existsSync(`${fortress.outside}/pwn`)).toBe(false);
        expect(readdirSync(`${fortress.world.home}/.local/share/hookbox/store`).every((name) => /^[a-z0-9-]+\.json$/.test(name))).toBe(true);
      },
    },
  },
  refused(
    "store-huge",
    "a value over the store's 1 MiB",
    { store: true },
    'hook.store.set("k", "x".repeat(2e6))',
    "store.set",
    "error",
    /too_large|more than/,
  ),
  refused("store-key-long", "a key over 256 characters", { store: true }, 'hook.store.set("k".repeat(300), 1)', "store.set", "invalid"),
  {
    category: "store",
    id: "store-cross",
    title: "one hook's store is not another's",
    permissions: { store: true },
    source: 'export default async (e: any, hook: any) => ({ reason: "saw " + JSON.stringify(await hook.store.get("planted")) })',
    event: (f) => fixtureEvent(f),
    expect: {
      status: "completed",
      reason: /^saw undefined$/,
      check: async ({ fortress }) => {
        const planted = await fortress.post("sec.store-writer", fixtureEvent(fortress));
        expect(planted.run("store-writer")).toMatchObject({ status: "completed", reason: "planted" });
        const again = await fortress.post("sec.store-cross", fixtureEvent(fortress));
        expect(again.run("store-cross")).toMatchObject({ status: "completed", reason: "saw undefined" });
      },
    },
  },
];

export const CAPABILITY_CASES: readonly HostileCase[] = [...read, ...run, ...env, ...net, ...store];

/** Hooks the cases use besides their own. */
export const HELPER_HOOKS: readonly HookDef[] = [
  {
    id: "store-writer",
    permissions: { store: true },
    source:
      'export default async (e: any, hook: any) => { await hook.store.set("planted", "secret of store-writer"); return { reason: "planted" }; }',
  },
];

/** Hook files that must not load: each is reported as a problem, and its event runs nothing. */
export const UNLOADABLE: readonly { readonly id: string; readonly title: string; readonly yaml: string; readonly problem: RegExp }[] = [
  {
    id: "load-ld-preload",
    title: "a run grant passing LD_PRELOAD",
    yaml: yamlOf("load-ld-preload", "permissions: { run: [{ cmd: ls, env: [LD_PRELOAD] }] }"),
    problem: /LD_/,
  },
  {
    id: "load-node-options",
    title: "a run grant passing NODE_OPTIONS",
    yaml: yamlOf("load-node-options", "permissions: { run: [{ cmd: ls, env: [NODE_OPTIONS] }] }"),
    problem: /NODE_/,
  },
  {
    id: "load-git-star",
    title: "a run grant passing GIT_*",
    yaml: yamlOf("load-git-star", 'permissions: { run: [{ cmd: git, env: ["GIT_*"] }] }'),
    problem: /GIT_/,
  },
  {
    id: "load-path-env",
    title: "a run grant passing PATH",
    yaml: yamlOf("load-path-env", "permissions: { run: [{ cmd: ls, env: [PATH] }] }"),
    problem: /PATH/,
  },
  {
    id: "load-read-dotdot",
    title: "a read grant with ..",
    yaml: yamlOf("load-read-dotdot", 'permissions: { read: ["${workspace}/../**"] }'),
    problem: /\.\./,
  },
  {
    id: "load-read-relative",
    title: "a relative read grant",
    yaml: yamlOf("load-read-relative", 'permissions: { read: ["../outside/**"] }'),
    problem: /absolute/,
  },
  {
    id: "load-handler-outside",
    title: "a handler file outside the hook's directory",
    yaml: "id: load-handler-outside\nevents: [sec.load-handler-outside]\nhandler: ../outside/evil.ts\n",
    problem: /outside the hook's directory/,
  },
  {
    id: "load-handler-proc",
    title: "a handler file in /proc",
    yaml: "id: load-handler-proc\nevents: [sec.load-handler-proc]\nhandler: /proc/self/environ\n",
    problem: /outside the hook's directory/,
  },
  {
    id: "load-unknown-key",
    title: "a typo in a permission key",
    yaml: yamlOf("load-unknown-key", "permissions: { reed: ['/**'] }"),
    problem: /reed/,
  },
  {
    id: "load-parse-bomb",
    title: "a handler nested 100,000 parentheses deep",
    yaml: `id: load-parse-bomb\nevents: [sec.load-parse-bomb]\nhandler: { code: "export default () => ${"(".repeat(100000)}1${")".repeat(100000)}" }\n`,
    problem: /nested too deeply|stack/i,
  },
  {
    id: "load-import",
    title: "a handler importing node:fs",
    yaml: yamlOf("load-import", "", 'import { readFileSync } from \\"node:fs\\"; export default () => readFileSync(\\"/etc/passwd\\")'),
    problem: /import/,
  },
];

function yamlOf(id: string, extra: string, code = "export default () => ({ action: 'deny', reason: 'LOADED' })"): string {
  return `id: ${id}\nevents: [sec.${id}]\nhandler: { code: "${code}" }\n${extra}\n`;
}

/** Processes whose command line contains `text` (from /proc; our own test never runs such a command). */
export function processesMatching(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Poll `probe` until `done` (at most ~3 s: process reaping is asynchronous), then return its last value. */
export async function eventually<T>(probe: () => T, done: (value: T) => boolean): Promise<T> {
  let value = probe();
  for (let i = 0; i < 60 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 50));
    value = probe();
  }
  return value;
}
