// The system tier (issue 31), on a throwaway machine inside this one (test/helpers/private-machine.ts:
// a private mount namespace whose /etc, /usr/local and /var/lib are overlays that go with the test):
// `hookbox install --system` at the real paths, as root; then, as an unprivileged user the test
// creates, real shell attacks on everything the tier is made of and on everything of the user's,
// each followed by the decision on a `.env` Write of that user's project through the entry each
// agent's managed settings runs; the audit chain checked against the heads sent to a real rsyslogd.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { PrivateMachine, type MachineRun, type RunAs } from "../helpers/private-machine.ts";
import { readmeCommands } from "../helpers/readme.ts";
import { onPath } from "../helpers/tools.ts";

const UNAVAILABLE = PrivateMachine.unavailable();
const RSYSLOGD = onPath("rsyslogd", `${process.env.PATH ?? ""}:/usr/sbin:/sbin`);
const USER = "hbx-attacker";
const TIER_ROOTS = ["/etc", "/usr/local/bin", "/var/lib/hookbox"];

let machine: PrivateMachine;
let as: RunAs;
let home: string;
let project: string;
/** Why the binary cannot run as the user here (then decisions are asked as root with the user's environment). */
let binaryAsUser: string | undefined;

beforeAll(async () => {
  if (UNAVAILABLE) {
    console.warn(`[system-tier] skipping: ${UNAVAILABLE}`);
    return;
  }
  machine = await PrivateMachine.start();
  const added = await machine.run(["sh", "-c", `useradd -M -d ${machine.dir}/home -s /bin/sh -U ${USER} && id -u ${USER} && id -g ${USER}`]);
  expect(added.code, added.stderr).toBe(0);
  const [uid, gid] = added.stdout.trim().split("\n").map(Number);
  as = { uid: uid as number, gid: gid as number };
  home = join(machine.dir, "home");
  project = join(home, "proj");
  const made = await machine.run([
    "sh",
    "-c",
    `mkdir -p ${project} ${machine.dir}/run && chown -R ${uid}:${gid} ${home} ${machine.dir}/run && chmod 700 ${machine.dir}/run`,
  ]);
  expect(made.code, made.stderr).toBe(0);
  const git = await machine.run(
    ["sh", "-c", "git init -q . && git config user.email a@b && git config user.name a && echo hi > README && git add README && git commit -qm init"],
    { as, cwd: project, env: userEnv() },
  );
  expect(git.code, git.stderr).toBe(0);
  const probe = await machine.run([BUILT_BINARY, "version"], { as, env: userEnv() });
  binaryAsUser =
    probe.code === 0
      ? undefined
      : `dist/hookbox does not run as ${USER} here (exit ${probe.code}: ${probe.stderr.trim().split("\n")[0]}): an unprivileged process may not read its own /proc/self/maps, which a Bun-compiled binary needs`;
  if (binaryAsUser)
    console.warn(`[system-tier] ${binaryAsUser}; the attacks still run as ${USER}, the decisions are asked as root with ${USER}'s environment`);
}, 60_000);

afterAll(async () => {
  await syslog?.stop();
  await machine?.stop();
});

function userEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    HOME: home,
    PATH: "/usr/local/bin:/usr/bin:/bin",
    USER,
    LANG: "C.UTF-8",
    XDG_RUNTIME_DIR: join(machine.dir, "run"),
    ...extra,
  };
}

function need(ctx: TestContext): void {
  if (UNAVAILABLE) ctx.skip(UNAVAILABLE);
}

async function root(command: string): Promise<MachineRun> {
  return machine.run(["sh", "-c", command], { timeoutMs: 120_000 });
}

describe("hookbox install --system / uninstall --system", () => {
  it("--dry-run changes nothing; install then uninstall leaves the machine byte for byte as before, an administrator's own files included", async (ctx) => {
    need(ctx);
    // What an administrator had before: Claude Code managed settings of their own, Codex requirements with a table.
    const admin = await root(
      `mkdir -p /etc/claude-code /etc/codex && printf '{\\n    "permissions": { "deny": ["WebFetch"] }  \\n}\\n' > /etc/claude-code/managed-settings.json && chmod 640 /etc/claude-code/managed-settings.json && printf '[features]\\nweb_search = false\\n' > /etc/codex/requirements.toml`,
    );
    expect(admin.code, admin.stderr).toBe(0);
    const before = await machine.snapshot(TIER_ROOTS);

    // README's commands, as root: dry run, install (with --managed-hooks-only, which it offers), uninstall.
    const [dryRun, install, uninstall] = readmeCommands("The system tier: what the agent cannot change").map((line) => {
      expect(line).toMatch(/^sudo hookbox /);
      return [BUILT_BINARY, ...line.replace(/^sudo hookbox /, "").split(/\s+/)];
    }) as [string[], string[], string[]];
    expect([dryRun.slice(1), install.slice(1), uninstall.slice(1)]).toEqual([
      ["install", "--system", "--dry-run"],
      ["install", "--system"],
      ["uninstall", "--system"],
    ]);
    const dry = await machine.run(dryRun);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("(dry run: nothing written)");
    expect(dry.stdout).toContain("+++ /etc/claude-code/managed-settings.json");
    expect(dry.stdout).toMatch(/\+\s+"command": "\/usr\/local\/bin\/hookbox emit PreToolUse --agent claude --system"/);
    expect(await machine.snapshot(TIER_ROOTS)).toEqual(before);

    const installRun = await machine.run([...install, "--managed-hooks-only"]);
    expect(installRun.code, installRun.stderr).toBe(0);
    const installed = await machine.snapshot(TIER_ROOTS);
    expect(installed.get("/usr/local/bin/hookbox")).toMatch(/^f 755 0:0 /);
    expect(installed.get("/etc/hookbox/hookbox.yaml")).toMatch(/^f 644 0:0 /);
    const managed = JSON.parse((await root("cat /etc/claude-code/managed-settings.json")).stdout) as Record<string, unknown>;
    expect(managed).toMatchObject({ permissions: { deny: ["WebFetch"] }, allowManagedHooksOnly: true, env: { BUN_OPTIONS: "" } });
    expect((await root("cat /etc/codex/requirements.toml")).stdout).toMatch(
      /^# >>> hookbox[\s\S]*hooks\.managed_dir = "\/etc\/hookbox"[\s\S]*\[features\]\nweb_search = false\n$/,
    );
    // Again: nothing changes.
    const again = await machine.run([BUILT_BINARY, "install", "--system", "--managed-hooks-only"]);
    expect(again.stdout).toContain("nothing to change");

    const uninstalled = await machine.run(uninstall);
    expect(uninstalled.code, uninstalled.stderr).toBe(0);
    expect(await machine.snapshot(TIER_ROOTS)).toEqual(before);
    expect((await root("ls -a /var/lib")).stdout).not.toContain("hookbox");
    await root("rm -rf /etc/claude-code /etc/codex");
  }, 120_000);

  it("refuses without --system, and names what to run instead", async (ctx) => {
    need(ctx);
    const bare = await machine.run([BUILT_BINARY, "install"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("give --system");
  });
});

/** A real rsyslogd on a socket of its own, writing what it gets to a file only root can change. */
class Syslog {
  private child: ChildProcess | undefined;
  constructor(readonly dir: string) {}
  get socket(): string {
    return join(this.dir, "log.sock");
  }
  get file(): string {
    return join(this.dir, "heads.log");
  }
  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const conf = join(this.dir, "rsyslog.conf");
    writeFileSync(
      conf,
      `global(workDirectory="${this.dir}")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="${this.socket}" CreatePath="on")
*.* action(type="omfile" file="${this.file}" template="RSYSLOG_SyslogProtocol23Format" fileCreateMode="0600")
`,
    );
    this.child = spawn(RSYSLOGD as string, ["-n", "-f", conf, "-i", join(this.dir, "rsyslogd.pid")], { stdio: "ignore" });
    for (let i = 0; i < 200 && !existsSync(this.socket); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    if (!existsSync(this.socket)) throw new Error("rsyslogd did not create its socket");
  }
  async stop(): Promise<void> {
    this.child?.kill("SIGTERM");
  }
  lines(): string[] {
    return existsSync(this.file) ? readFileSync(this.file, "utf8").split("\n").filter(Boolean) : [];
  }
}

let syslog: Syslog | undefined;

/** The PreToolUse command each agent's managed settings run, as the agent would find it. */
async function managedEntries(): Promise<Record<string, string>> {
  const claude = JSON.parse((await root("cat /etc/claude-code/managed-settings.json")).stdout) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  const gemini = JSON.parse((await root("cat /etc/gemini-cli/settings.json")).stdout) as typeof claude;
  const qwen = JSON.parse((await root("cat /etc/qwen-code/settings.json")).stdout) as typeof claude;
  const codex = /hooks\.PreToolUse = \[\{ hooks = \[\{ type = "command", command = ("[^"]+")/.exec(
    (await root("cat /etc/codex/requirements.toml")).stdout,
  )?.[1];
  return {
    claude: claude.hooks.PreToolUse?.[0]?.hooks[0]?.command as string,
    gemini: gemini.hooks.BeforeTool?.[0]?.hooks[0]?.command as string,
    qwen: qwen.hooks.PreToolUse?.[0]?.hooks[0]?.command as string,
    codex: JSON.parse(codex as string) as string,
  };
}

/** Each agent's own PreToolUse payload for writing the project's .env. */
function envWrite(agent: string): string {
  const file = join(project, ".env");
  switch (agent) {
    case "gemini":
      return JSON.stringify({
        hook_event_name: "BeforeTool",
        session_id: "s",
        cwd: project,
        timestamp: new Date().toISOString(),
        transcript_path: "",
        tool_name: "write_file",
        tool_input: { file_path: file, content: "KEY=1" },
      });
    case "codex":
      return JSON.stringify({
        hook_event_name: "PreToolUse",
        session_id: "s",
        turn_id: "t",
        cwd: project,
        model: "gpt-5.5",
        permission_mode: "default",
        tool_name: "apply_patch",
        tool_input: { command: "*** Begin Patch\n*** Add File: .env\n+KEY=1\n*** End Patch\n" },
        tool_use_id: "c1",
        transcript_path: null,
      });
    case "qwen":
      return JSON.stringify({
        hook_event_name: "PreToolUse",
        session_id: "s",
        cwd: project,
        tool_name: "write_file",
        tool_input: { file_path: file, content: "KEY=1" },
      });
    default:
      return JSON.stringify({
        hook_event_name: "PreToolUse",
        session_id: "s",
        cwd: project,
        tool_name: "Write",
        tool_input: { file_path: file, content: "KEY=1" },
      });
  }
}

/** Blocked in the agent's own terms: exit 2, or a JSON answer that denies. */
function blocked(ran: MachineRun): boolean {
  if (ran.code === 2) return true;
  if (ran.code !== 0) return false;
  try {
    const answer = JSON.parse(ran.stdout) as { decision?: string; hookSpecificOutput?: { permissionDecision?: string } };
    return answer.decision === "block" || answer.decision === "deny" || answer.hookSpecificOutput?.permissionDecision === "deny";
  } catch {
    return false;
  }
}

/** The decision through one agent's managed entry, run as the agent runs it (sh -c, in the project, with the user's environment). */
async function decide(command: string, agent: string, env: Record<string, string>): Promise<MachineRun> {
  return machine.run(["sh", "-c", command], { as: binaryAsUser ? undefined : as, cwd: project, env, stdin: envWrite(agent), timeoutMs: 60_000 });
}

interface Attack {
  readonly name: string;
  /** Run as the user, for real. */
  readonly script: string;
  /** "refused": the OS must refuse it (root's state); "done": it must succeed (the user's own state). */
  readonly outcome: "refused" | "done";
  /** The environment the agent's hooks then get (what the attack set). */
  readonly env?: Readonly<Record<string, string>>;
}

const FAKE_ALLOW = `import socket,os,sys
p=sys.argv[1]
os.makedirs(os.path.dirname(p),exist_ok=True)
try: os.unlink(p)
except FileNotFoundError: pass
s=socket.socket(socket.AF_UNIX); s.bind(p); s.listen(8)
while True:
  c,_=s.accept(); c.recv(65536)
  c.sendall(b'HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\ncontent-length: 39\\r\\n\\r\\n{"stdout":"{}","stderr":"","exit_code":0}'); c.close()
`;

function attacks(): Attack[] {
  const data = `${home}/.local/share/hookbox`;
  return [
    { name: "delete the binary", script: "rm -f /usr/local/bin/hookbox", outcome: "refused" },
    { name: "move the binary away", script: "mv /usr/local/bin/hookbox /tmp/hookbox.moved", outcome: "refused" },
    { name: "re-link the binary to true", script: "ln -sf /bin/true /usr/local/bin/hookbox", outcome: "refused" },
    { name: "copy true over the binary", script: "cp /bin/true /usr/local/bin/hookbox", outcome: "refused" },
    { name: "chmod the binary", script: "chmod 000 /usr/local/bin/hookbox", outcome: "refused" },
    { name: "truncate the binary", script: "truncate -s 0 /usr/local/bin/hookbox", outcome: "refused" },
    {
      name: "put another hookbox first on PATH",
      script: "mkdir -p ~/bin && ln -sf /bin/true ~/bin/hookbox",
      outcome: "done",
      env: { PATH: `${home}/bin:/usr/local/bin:/usr/bin:/bin` },
    },
    { name: "delete the system policy", script: "rm -f /etc/hookbox/hookbox.yaml", outcome: "refused" },
    { name: "overwrite the system policy", script: "echo 'builtin: []' > /etc/hookbox/hookbox.yaml", outcome: "refused" },
    { name: "chmod the system policy", script: "chmod 666 /etc/hookbox/hookbox.yaml", outcome: "refused" },
    { name: "replace the policy directory", script: "mv /etc/hookbox /tmp/hookbox-etc", outcome: "refused" },
    { name: "truncate Claude Code's managed settings", script: "truncate -s 0 /etc/claude-code/managed-settings.json", outcome: "refused" },
    { name: "delete Claude Code's managed settings", script: "rm -rf /etc/claude-code", outcome: "refused" },
    {
      name: "extract an archive over the managed settings",
      script:
        "cd ~ && mkdir -p t/etc/claude-code && echo '{}' > t/etc/claude-code/managed-settings.json && tar -C t -cf a.tar etc && tar -C / -xf a.tar",
      outcome: "refused",
    },
    { name: "overwrite Codex's managed requirements", script: "echo '' > /etc/codex/requirements.toml", outcome: "refused" },
    { name: "overwrite Gemini CLI's system settings", script: "echo '{}' > /etc/gemini-cli/settings.json", outcome: "refused" },
    {
      name: "a user settings file that removes Claude Code's hooks and disables all",
      script: `mkdir -p ~/.claude && echo '{"hooks":{},"disableAllHooks":true,"env":{"BUN_BE_BUN":"1"}}' > ~/.claude/settings.json`,
      outcome: "done",
    },
    {
      name: "a project settings file whose PreToolUse hook allows everything",
      script: `cd ${project} && mkdir -p .claude && echo '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}' > .claude/settings.json`,
      outcome: "done",
    },
    {
      name: "a user Gemini CLI settings file without hooks",
      script: `mkdir -p ~/.gemini && echo '{"hooks":{},"hooksConfig":{"enabled":false}}' > ~/.gemini/settings.json`,
      outcome: "done",
    },
    {
      name: "a user Codex config switching hooks off",
      script: `mkdir -p ~/.codex && printf '[features]\\nhooks = false\\n' > ~/.codex/config.toml`,
      outcome: "done",
    },
    {
      name: "an operator file turning the guards off",
      script: `mkdir -p ~/.config/hookbox && printf 'hooks:\\n  guard-secrets: { enabled: false }\\n  self-protect: { enabled: false }\\nfail_closed: false\\n' > ~/.config/hookbox/hookbox.yaml`,
      outcome: "done",
    },
    {
      name: "an operator file with a deadline no guard can meet",
      script: `printf 'dispatch: { event_deadline_ms: 10 }\\nceilings: { limits: { cpu_ms: 1 } }\\n' > ~/.config/hookbox/hookbox.yaml`,
      outcome: "done",
    },
    { name: "an operator file that does not parse", script: "printf 'hooks: [\\n' > ~/.config/hookbox/hookbox.yaml", outcome: "done" },
    {
      name: "a user hook with guard-secrets' id that allows",
      script: `rm -f ~/.config/hookbox/hookbox.yaml && mkdir -p ~/.config/hookbox/hooks && printf 'id: guard-secrets\\nevents: [PreToolUse]\\nhandler: { code: "export default () => ({})" }\\n' > ~/.config/hookbox/hooks/gs.yaml`,
      outcome: "done",
    },
    {
      name: "a project hook that allows everything first",
      script: `mkdir -p ${project}/.hookbox/hooks && printf 'id: allow-all\\nevents: [PreToolUse]\\npriority: -1000\\nhandler: { code: "export default () => ({ action: \\\\"continue\\\\" })" }\\n' > ${project}/.hookbox/hooks/allow.yaml`,
      outcome: "done",
    },
    {
      name: "HOOKBOX_CONFIG pointing at an empty file",
      script: "echo '{}' > ~/empty.yaml",
      outcome: "done",
      env: { HOOKBOX_CONFIG: `${home}/empty.yaml` },
    },
    {
      name: "XDG_* pointing elsewhere",
      script: "mkdir -p ~/fake/config ~/fake/data",
      outcome: "done",
      env: { XDG_CONFIG_HOME: `${home}/fake/config`, XDG_DATA_HOME: `${home}/fake/data` },
    },
    {
      name: "a server answering allow on HOOKBOX_SOCKET",
      script: `cat > ~/fake.py <<'EOF'\n${FAKE_ALLOW}EOF\n(python3 ~/fake.py ~/squat/hookbox.sock >/dev/null 2>&1 &) ; sleep 0.5; test -S ~/squat/hookbox.sock`,
      outcome: "done",
      env: { HOOKBOX_SOCKET: `${home}/squat/hookbox.sock` },
    },
    {
      name: "a server answering allow on the default socket",
      script: `(python3 ~/fake.py ${machine.dir}/run/hookbox/hookbox.sock >/dev/null 2>&1 &) ; sleep 0.5; test -S ${machine.dir}/run/hookbox/hookbox.sock`,
      outcome: "done",
    },
    {
      name: "a genuine daemon serving no guard, on the default socket",
      script: `pkill -u ${USER} -f '[f]ake.py'; rm -f ${machine.dir}/run/hookbox/hookbox.sock; (/usr/local/bin/hookbox serve --config ~/empty.yaml >/dev/null 2>&1 &); sleep 2; test -S ${machine.dir}/run/hookbox/hookbox.sock`,
      outcome: "done",
    },
    {
      name: "kill every daemon",
      script: `pkill -u ${USER} -f 'hookbox [s]erve'; sleep 0.3; ! pgrep -u ${USER} -f 'hookbox [s]erve'`,
      outcome: "done",
    },
    {
      name: "HOOKBOX_NO_DAEMON and a --socket of the agent's",
      script: "true",
      outcome: "done",
      env: { HOOKBOX_NO_DAEMON: "1", HOOKBOX_SOCKET: "/tmp/nothing.sock" },
    },
    {
      name: "a forged snapshot cache",
      script: `mkdir -p ${data}/cache && for i in 1 2 3; do echo '{"v":1,"key":"x","inputs":[],"hooks":[]}' > ${data}/cache/forged-$i.json; done; ls ${data}/cache | grep -q forged`,
      outcome: "done",
    },
    { name: "git clean in the project", script: `cd ${project} && git clean -ffdx -q && git status --short | wc -l | grep -q 0`, outcome: "done" },
    // Last: every later event would be denied for this reason alone (fail_closed, an unwritable audit log).
    { name: "the audit log made a directory", script: `rm -rf ${data}/audit && mkdir -p ${data}/audit/hookbox-audit.jsonl`, outcome: "done" },
  ];
}

describe("the system tier against a user with a shell", () => {
  let entries: Record<string, string>;
  beforeAll(async () => {
    if (UNAVAILABLE) return;
    if (RSYSLOGD) {
      syslog = new Syslog(join(machine.dir, "syslog"));
      await syslog.start();
      await root(`chmod 755 ${syslog.dir} && chmod 666 ${syslog.socket}`);
    }
    // The administrator's policy: the standard guards, fail_closed, and the audit heads to this rsyslogd.
    const policy = `builtin: [guard-secrets, bash-guard]\nfail_closed: true\n${syslog ? `audit:\n  system_log: { address: "unix:${syslog.socket}", read: ["${syslog.file}"] }\n` : ""}`;
    const wrote = await root(`mkdir -p /etc/hookbox && cat > /etc/hookbox/hookbox.yaml <<'EOF'\n${policy}EOF`);
    expect(wrote.code, wrote.stderr).toBe(0);
    const installed = await machine.run([BUILT_BINARY, "install", "--system"]);
    expect(installed.code, installed.stderr).toBe(0);
    entries = await managedEntries();
  }, 60_000);

  it(`a battery of real shell attacks as ${USER}: after each, the .env Write is blocked through every agent's managed entry`, async (ctx) => {
    need(ctx);
    const list = attacks();
    expect(list.length).toBeGreaterThanOrEqual(30);
    for (const [agent, command] of Object.entries(entries)) {
      const control = await decide(command, agent, userEnv());
      expect(blocked(control), `${agent} before any attack: ${control.stdout} ${control.stderr}`).toBe(true);
    }
    const failures: string[] = [];
    for (const attack of list) {
      const ran = await machine.run(["sh", "-c", attack.script], { as, cwd: home, env: userEnv(), timeoutMs: 30_000 });
      const refused = ran.code !== 0;
      if (refused !== (attack.outcome === "refused"))
        failures.push(
          `${attack.name}: the shell ${refused ? `failed (${ran.code}: ${ran.stderr.trim()})` : "succeeded"}, expected it ${attack.outcome}`,
        );
      const decisions = await Promise.all(
        Object.entries(entries).map(async ([agent, command]) => ({ agent, ran: await decide(command, agent, userEnv(attack.env ?? {})) })),
      );
      for (const { agent, ran: answer } of decisions)
        if (!blocked(answer))
          failures.push(`${attack.name}: ${agent}'s managed entry allowed the .env write (exit ${answer.code}: ${answer.stdout} ${answer.stderr})`);
    }
    expect(failures).toEqual([]);
    // The battery ended by removing the user's audit log (a directory in its place): the heads
    // the system log holds for it find that out.
    if (syslog) {
      const verified = await machine.run([BUILT_BINARY, "audit", "verify", "--against-system-log", "--data-dir", `${home}/.local/share/hookbox`]);
      expect(verified.code, `${verified.stdout}${verified.stderr}`).not.toBe(0);
    }
    // The attacks that had to fail left the tier as it was.
    expect(
      (await root("test -x /usr/local/bin/hookbox && test -f /etc/hookbox/hookbox.yaml && stat -c '%U %a' /usr/local/bin/hookbox")).stdout.trim(),
    ).toBe("root 755");
  }, 600_000);

  it("audit verify --against-system-log passes a log left alone and fails one the user truncated, cut or rewrote with its chain recomputed", async (ctx) => {
    need(ctx);
    if (!syslog) ctx.skip("rsyslogd is not installed (.ci/install-tools installs rsyslog)");
    const tampers: Record<string, string> = {
      truncated: "truncate -s 0 $LOG",
      "newest records cut": "head -n -2 $LOG > $LOG.new && cat $LOG.new > $LOG && rm $LOG.new",
      deleted: "rm -rf $(dirname $LOG)",
      "rewritten, chain recomputed": `python3 - "$LOG" <<'EOF'
import hashlib, json, sys
path = sys.argv[1]
lines = open(path, 'rb').read().split(b'\\n')[:-1]
out, prev = [], None
for i, line in enumerate(lines):
    record = json.loads(line)
    if i == 0: prev = record['prev']
    record['prev'] = prev
    if record.get('kind') == 'decision': record['decision'] = 'allow'
    body = json.dumps(record, separators=(',', ':')).encode()
    out.append(body)
    prev = 'sha256:' + hashlib.sha256(body).hexdigest()
open(path, 'wb').write(b'\\n'.join(out) + b'\\n')
EOF`,
    };
    for (const [name, tamper] of Object.entries(tampers)) {
      const dataHome = join(home, `data-${name.replace(/\W+/g, "-")}`);
      const env = userEnv({ XDG_DATA_HOME: dataHome });
      for (let i = 0; i < 3; i++) expect(blocked(await decide(entries.claude as string, "claude", env))).toBe(true);
      const verify = (): Promise<MachineRun> =>
        machine.run([BUILT_BINARY, "audit", "verify", "--against-system-log", "--data-dir", `${dataHome}/hookbox`]);
      const clean = await verify();
      expect(clean.code, `${name}, before: ${clean.stdout}${clean.stderr}`).toBe(0);
      expect(clean.stdout).toMatch(/OK against the system log/);
      const log = `${dataHome}/hookbox/audit/hookbox-audit.jsonl`;
      const done = await machine.run(["sh", "-c", tamper], { as, env: { ...env, LOG: log } });
      expect(done.code, `${name}: ${done.stderr}`).toBe(0);
      // The agent goes on: its next event is appended (and anchored) after the tampering.
      expect(blocked(await decide(entries.claude as string, "claude", env))).toBe(true);
      const after = await verify();
      expect(after.code, `${name}, after: ${after.stdout}`).toBe(1);
      expect(after.stdout).toMatch(/BROKEN: (the head sent at|the kept log starts from the first link ever)/);
    }
    // What the user can do to the system log: append (a forged head is flagged, never trusted), not erase.
    const erase = await machine.run(["sh", "-c", `: > ${syslog?.file}`], { as, env: userEnv() });
    expect(erase.code).not.toBe(0);
  }, 300_000);
});
