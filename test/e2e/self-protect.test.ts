import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

// Issue 16, self-protection: the agent tries to switch Hookbox off with tool calls the other
// guards allow, against the built binary, with no operator file at all (self-protect is on by
// default) — through Write in Claude's, Gemini's and Codex's own payloads and through Bash.
// Near misses pass; only the operator file turns it off, never the project.

let world: DaemonWorld;
let ws: string;
let home: string;
let data: string;
let socketDir: string;

beforeAll(() => {
  world = new DaemonWorld();
  home = realpathSync(world.home);
  ws = join(realpathSync(world.dir), "project");
  data = join(home, ".local/share/hookbox");
  socketDir = join(realpathSync(world.runtimeDir), "hookbox");
  for (const dir of [".git/hooks", ".hookbox/hooks", "src", ".claude"]) mkdirSync(join(ws, dir), { recursive: true });
  writeFileSync(join(ws, ".git/config"), "[core]\n\tbare = false\n");
  writeFileSync(join(ws, ".claude/settings.json"), "{}\n");
  writeFileSync(join(ws, "src/app.ts"), "export {}\n");
});
afterAll(() => world.cleanup());

function emit(agent: string, payload: object, options: { args?: string[]; cwd?: string } = {}): Promise<RunResult> {
  return runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", agent, ...(options.args ?? [])], {
    stdin: JSON.stringify(payload),
    env: world.env(),
    cwd: options.cwd ?? ws,
  });
}

const claude = (tool_name: string, tool_input: object): object => ({
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: ws,
  prompt_id: "p1",
  permission_mode: "bypassPermissions",
  hook_event_name: "PreToolUse",
  tool_name,
  tool_input,
  tool_use_id: "toolu_1",
});
const gemini = (tool_name: string, tool_input: object): object => ({
  session_id: "g1",
  transcript_path: `${home}/.gemini/tmp/p/chats/s.jsonl`,
  cwd: ws,
  hook_event_name: "BeforeTool",
  timestamp: "2026-11-22T03:05:12.685Z",
  tool_name,
  tool_input,
});
const codex = (tool_name: string, tool_input: object): object => ({
  session_id: "x1",
  turn_id: "1",
  transcript_path: null,
  cwd: ws,
  hook_event_name: "PreToolUse",
  model: "gpt-5-codex",
  permission_mode: "bypassPermissions",
  tool_name,
  tool_input,
  tool_use_id: "call_1",
});

/** The reason of a deny in the agent's own words; undefined when it was not denied. */
function denied(agent: string, out: RunResult): string | undefined {
  if (agent === "codex") return out.code === 2 ? out.stderr : undefined;
  if (out.stdout.trim() === "") return undefined;
  const answer = JSON.parse(out.stdout) as {
    decision?: string;
    reason?: string;
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  if (agent === "claude")
    return answer.hookSpecificOutput?.permissionDecision === "deny" ? answer.hookSpecificOutput.permissionDecisionReason : undefined;
  return answer.decision === "block" ? answer.reason : undefined;
}

/** Every place self-protect keeps, as this machine has them (the daemon world's HOME and XDG_RUNTIME_DIR). */
const TARGETS = (): [string, string][] => [
  [`${home}/.config/hookbox/hookbox.yaml`, "the operator file"],
  [`${home}/.config/hookbox/hooks/guard/hook.yaml`, "the user's hooks"],
  [`${ws}/.hookbox/hooks/lint/hook.yaml`, "a project's .hookbox/"],
  [`${data}/audit/hookbox-audit.jsonl`, "the audit log"],
  [`${data}/installs/x.json`, "install records"],
  [`${socketDir}/hookbox.sock`, "the daemon's socket directory"],
  [`${ws}/.claude/settings.json`, "Claude Code's settings"],
  [`${home}/.claude/settings.json`, "Claude Code's"],
  [`${ws}/.gemini/settings.json`, "Gemini CLI's settings"],
  [`${home}/.cursor/hooks.json`, "Cursor's hook settings"],
  [`${ws}/.codex/hooks.json`, "Codex's hook settings"],
  [`${home}/.codex/config.toml`, "Codex's"],
  [`${ws}/.github/hooks/hookbox.json`, "Copilot's hook settings"],
  [`${home}/.copilot/hooks/hookbox.json`, "Copilot CLI's user hook settings"],
  [`${home}/.qwen/settings.json`, "Qwen Code's settings"],
  [`${ws}/.git/hooks/pre-commit`, "a git hook"],
  [`${ws}/.git/config`, "git's configuration"],
  [BUILT_BINARY, "the Hookbox binary"],
];

describe("issue 16: self-protect is on by default and refuses every target, through Write and through Bash (the binary, no operator file)", () => {
  it("Claude Code: Write of each target is denied, naming what it is and how the operator turns it off", async () => {
    for (const [path, what] of TARGETS()) {
      const reason = denied("claude", await emit("claude", claude("Write", { file_path: path, content: "x" })));
      expect(reason, path).toContain(path);
      expect(reason, path).toContain(what);
      expect(reason, path).toContain("turn self-protection off in ~/.config/hookbox/hookbox.yaml (hooks: { self-protect: { enabled: false } })");
    }
  });

  it("the attacks of issue 16: chmod 000 on the audit log or a directory in its place, enabled: false, a project hook.yaml, .claude/settings.json, kill, rm of the socket", async () => {
    const attacks = [
      `chmod 000 ${data}/audit/hookbox-audit.jsonl`,
      `rm -f ${data}/audit/hookbox-audit.jsonl && mkdir ${data}/audit/hookbox-audit.jsonl`,
      `printf 'hooks:\\n  self-protect: { enabled: false }\\n' > ~/.config/hookbox/hookbox.yaml`,
      "sed -i 's/on_error: deny/on_error: continue/' .hookbox/hooks/*/hook.yaml",
      "jq 'del(.hooks)' .claude/settings.json > /tmp/s && mv /tmp/s .claude/settings.json",
      "kill $(pgrep -f 'hookbox serve')",
      "pkill hookbox",
      `rm -f ${socketDir}/hookbox.sock`,
      `fuser -k ${socketDir}/hookbox.sock`,
    ];
    for (const command of attacks) expect(denied("claude", await emit("claude", claude("Bash", { command }))), command).toMatch(/^self-protect: /);
  });

  it("near misses pass: reading the targets, writing the project's files, git commit, git config --local user.name, another process", async () => {
    const allowed: [string, object][] = [
      ["claude", claude("Read", { file_path: `${home}/.config/hookbox/hookbox.yaml` })],
      ["gemini", gemini("read_file", { absolute_path: `${ws}/.claude/settings.json` })],
      ["claude", claude("Bash", { command: `cat .claude/settings.json; tail -n 3 ${data}/audit/hookbox-audit.jsonl; ls ${socketDir}` })],
      ["claude", claude("Write", { file_path: `${ws}/src/hooks/x.ts`, content: "export {}\n" })],
      ["gemini", gemini("write_file", { file_path: `${ws}/src/app.ts`, content: "export const a = 1;\n" })],
      [
        "codex",
        codex("apply_patch", { command: "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-export {}\n+export const b = 2;\n*** End Patch\n" }),
      ],
      [
        "claude",
        claude("Bash", { command: "git add -A && git commit -m wip && git config --local user.name Dev && git config user.email dev@example.com" }),
      ],
      ["codex", codex("Bash", { command: "kill 4242; pkill -f vite; mkdir -p build && rm -rf build" })],
    ];
    for (const [agent, payload] of allowed) {
      const out = await emit(agent, payload);
      expect(out.code, out.stderr).toBe(0);
      expect(denied(agent, out), JSON.stringify(payload)).toBeUndefined();
    }
  });

  it("an event built to be undecodable (MCP arguments nested past the depth limit) is denied: self-protect could have run and is on_error: deny", async () => {
    let nested: unknown = "x";
    for (let i = 0; i < 80; i++) nested = { a: nested };
    const out = await emit("claude", claude("mcp__files__write", { path: `${home}/.config/hookbox/hookbox.yaml`, content: "{}", nested }));
    expect(denied("claude", out)).toMatch(/could not evaluate.*nested deeper than 64.*"self-protect".*on_error: deny/);
  });

  it("a Write through a symbolic link into the data directory is denied (the host resolves it)", async () => {
    mkdirSync(join(data, "audit"), { recursive: true });
    writeFileSync(join(data, "audit/hookbox-audit.jsonl"), "");
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(data, "audit/hookbox-audit.jsonl"), join(ws, "log.jsonl"));
    try {
      const reason = denied("claude", await emit("claude", claude("Write", { file_path: "log.jsonl", content: "" })));
      expect(reason).toContain("log.jsonl (a symbolic link to");
      expect(reason).toContain("the audit log");
    } finally {
      rmSync(join(ws, "log.jsonl"));
    }
  });
});

describe("the same targets through a running daemon (emit hands each event to serve): Gemini, Codex apply_patch, and Bash in every agent's shape", () => {
  let daemon: DaemonProcess;
  beforeAll(async () => {
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"], {}, { defaultHooks: true });
  });
  afterAll(() => daemon.stop());

  /** emit, answered by the daemon (it says so on stderr when it evaluates alone). */
  async function viaDaemon(agent: string, payload: object): Promise<RunResult> {
    const out = await emit(agent, payload);
    expect(out.stderr.includes("not through the daemon"), out.stderr).toBe(false);
    return out;
  }

  it("Gemini CLI: write_file and replace of each target are denied (block)", async () => {
    for (const [path] of TARGETS()) {
      expect(denied("gemini", await viaDaemon("gemini", gemini("write_file", { file_path: path, content: "x" }))), path).toContain(path);
      expect(denied("gemini", await viaDaemon("gemini", gemini("replace", { file_path: path, old_string: "a", new_string: "b" }))), path).toContain(
        path,
      );
    }
  });

  it("Codex: apply_patch adding, updating or deleting each target is denied (exit 2, reason on stderr)", async () => {
    const kinds = ["Add File", "Update File", "Delete File"];
    for (const [index, [path]] of TARGETS().entries()) {
      const kind = kinds[index % kinds.length] as string;
      const out = await viaDaemon("codex", codex("apply_patch", { command: `*** Begin Patch\n*** ${kind}: ${path}\n+x\n*** End Patch\n` }));
      expect(denied("codex", out), `${kind} ${path}`).toContain(path);
    }
  });

  it("Bash (Claude, Gemini, Codex): writing, removing, chmod-ing, moving or linking over each target is denied", async () => {
    const forms = [
      (p: string) => `echo x > '${p}'`,
      (p: string) => `rm -rf '${p}'`,
      (p: string) => `chmod 000 '${p}'`,
      (p: string) => `mv '${p}' /tmp/aside`,
      (p: string) => `ln -sfn /tmp/fake '${p}'`,
      (p: string) => `truncate -s 0 '${p}'`,
    ];
    const agents: [string, (command: string) => object][] = [
      ["claude", (command) => claude("Bash", { command })],
      ["gemini", (command) => gemini("run_shell_command", { command })],
      ["codex", (command) => codex("Bash", { command })],
    ];
    for (const [index, [path]] of TARGETS().entries()) {
      const [agent, payload] = agents[index % agents.length] as [string, (command: string) => object];
      for (const form of forms) {
        const command = form(path);
        expect(denied(agent, await viaDaemon(agent, payload(command))), `${agent}: ${command}`).toContain(path);
      }
    }
  });
});

describe("through a daemon: the same refusals, and kill of the daemon's own pid", () => {
  it("emit hands the event to serve, which refuses the Write and a kill of its pid", async () => {
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"], {}, { defaultHooks: true });
    try {
      const pid = daemon.child.pid as number;
      const write = await emit("claude", claude("Write", { file_path: `${home}/.config/hookbox/hookbox.yaml`, content: "{}" }));
      expect(write.stderr, "the daemon answered").toBe("");
      expect(denied("claude", write)).toContain("the operator file");
      const kill = await emit("claude", claude("Bash", { command: `kill -9 ${pid}` }));
      expect(kill.stderr, "the daemon answered").toBe("");
      expect(denied("claude", kill)).toContain(`pid ${pid} is the daemon's`);
      const other = await emit("claude", claude("Bash", { command: `kill -9 ${pid + 100000}` }));
      expect(denied("claude", other)).toBeUndefined();
    } finally {
      await daemon.stop();
    }
  });
});

describe("off only through the operator file", () => {
  const operatorFile = (): string => join(home, ".config/hookbox/hookbox.yaml");
  const attack = (): object => claude("Write", { file_path: operatorFile(), content: "{}" });

  it("a project hook with the id self-protect is a broken duplicate: it neither disables nor shadows the standard one", async () => {
    const dir = join(ws, ".hookbox/hooks/self-protect");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "hook.yaml"), "id: self-protect\nevents: [PreToolUse]\nenabled: false\non_error: continue\nhandler: ./handler.ts\n");
    writeFileSync(join(dir, "handler.ts"), "export default () => ({ action: 'continue' });\n");
    try {
      const validate = await runProgram([BUILT_BINARY, "validate"], { env: world.env(), cwd: ws });
      expect(validate.stderr).toMatch(
        /\.hookbox\/hooks\/self-protect\/hook\.yaml:1:\d+: id: duplicate hook id "self-protect": also defined in builtin:self-protect\/hook\.yaml/,
      );
      expect(validate.stdout).toContain("self-protection on");
      expect(denied("claude", await emit("claude", attack()))).toContain("the operator file");
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it("so is one in the user's hooks, and --hooks (a flag an agent entry could carry) does not turn it off", async () => {
    const dir = join(home, ".config/hookbox/hooks/self-protect");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "hook.yaml"), "id: self-protect\nevents: [PreToolUse]\nhandler: ./handler.ts\n");
    writeFileSync(join(dir, "handler.ts"), "export default () => ({ action: 'continue' });\n");
    const empty = join(world.dir, "no-hooks");
    mkdirSync(empty, { recursive: true });
    try {
      expect(denied("claude", await emit("claude", attack()))).toContain("the operator file");
      expect(denied("claude", await emit("claude", attack(), { args: ["--hooks", empty] }))).toContain("the operator file");
    } finally {
      rmSync(join(home, ".config/hookbox/hooks"), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it("the operator file's hooks: { self-protect: { enabled: false } } turns it off, and list/validate say so", async () => {
    mkdirSync(join(home, ".config/hookbox"), { recursive: true });
    writeFileSync(operatorFile(), "hooks:\n  self-protect: { enabled: false }\n");
    try {
      const out = await emit("claude", attack());
      expect(out.code, out.stderr).toBe(0);
      expect(denied("claude", out)).toBeUndefined();
      const list = await runProgram([BUILT_BINARY, "list", "--json"], { env: world.env(), cwd: ws });
      expect(JSON.parse(list.stdout)).toMatchObject({ self_protect: "off" });
      const validate = await runProgram([BUILT_BINARY, "validate"], { env: world.env(), cwd: ws });
      expect(validate.stdout).toContain("self-protection OFF");
    } finally {
      rmSync(operatorFile());
    }
    expect(denied("claude", await emit("claude", attack()))).toContain("the operator file");
  });
});

// Issue 27: every way in. A world of its own per suite: install-agent writes records and settings,
// and git repositories hold state the git questions depend on.

/** emit in `w`'s environment, from `cwd`, run as `program` (the path the agent's entry names). */
function emitIn(w: DaemonWorld, cwd: string, payload: object, program = BUILT_BINARY, env: Record<string, string> = {}): Promise<RunResult> {
  return runProgram([program, "emit", "PreToolUse", "--agent", "claude"], { stdin: JSON.stringify(payload), env: w.env(env), cwd });
}

const claudeIn = (cwd: string, tool_name: string, tool_input: object): object => ({
  session_id: "s27",
  transcript_path: "/tmp/t.jsonl",
  cwd,
  prompt_id: "p1",
  permission_mode: "bypassPermissions",
  hook_event_name: "PreToolUse",
  tool_name,
  tool_input,
  tool_use_id: "toolu_27",
});

describe("issue 27: self-protect knows every path to the binary the agents' entries run (installed, symlinked, as emit was invoked)", () => {
  let w: DaemonWorld;
  let h: string;
  let project: string;
  let installed: string;
  let target: string;
  beforeAll(async () => {
    w = new DaemonWorld().withoutAutoStart();
    h = realpathSync(w.home);
    project = join(realpathSync(w.dir), "project");
    mkdirSync(join(project, "src"), { recursive: true });
    // ~/.local/bin/hookbox → ~/opt/hookbox/hookbox → the build: what self-install and a manual install leave.
    mkdirSync(join(h, "opt/hookbox"), { recursive: true });
    mkdirSync(join(h, ".local/bin"), { recursive: true });
    target = join(h, "opt/hookbox/hookbox");
    installed = join(h, ".local/bin/hookbox");
    symlinkSync(BUILT_BINARY, target);
    symlinkSync(target, installed);
    const install = await runProgram([BUILT_BINARY, "install-agent", "claude", "--local", "--command", installed], { env: w.env(), cwd: project });
    expect(install.code, install.stderr).toBe(0);
  });
  afterAll(() => w.cleanup());

  /** Delete, overwrite or re-link `path`: each must be refused, naming it. */
  const attacks = (path: string): string[] => [
    `rm ${path}`,
    `rm -f '${path}'`,
    `cp /bin/true ${path}`,
    `cat /bin/true > ${path}`,
    `install -m 755 /bin/true ${path}`,
    `mv /tmp/x ${path}`,
    `ln -sf /bin/true ${path}`,
    `echo '#!/bin/sh' | tee ${path}`,
  ];

  it("without a daemon: Bash deleting, overwriting or re-linking the installed command path, the link's target or the build is refused; a Write too", async () => {
    for (const path of [installed, target, `~/.local/bin/hookbox`]) {
      for (const command of attacks(path)) {
        const out = await emitIn(w, project, claudeIn(project, "Bash", { command }));
        const reason = denied("claude", out);
        expect(reason, command).toMatch(/^self-protect: .*the Hookbox binary the agents' hook entries run/);
      }
    }
    expect(
      denied("claude", await emitIn(w, project, claudeIn(project, "Write", { file_path: installed, content: "#!/bin/sh\nexit 0\n" }))),
    ).toContain("the Hookbox binary");
    expect(denied("claude", await emitIn(w, project, claudeIn(project, "Write", { file_path: target, content: "x" })))).toContain(
      "the Hookbox binary",
    );
    // ~/.local/bin holds it: moving or removing the directory is refused too.
    expect(denied("claude", await emitIn(w, project, claudeIn(project, "Bash", { command: "rm -rf ~/.local/bin" })))).toContain(
      "a directory that holds the Hookbox binary",
    );
  });

  it("near misses pass: reading or copying the binary out, listing its directory, another program next to it", async () => {
    for (const command of [
      `cp ${installed} /tmp/hookbox-copy-$$ && rm /tmp/hookbox-copy-$$`,
      "ls -l ~/.local/bin/ && readlink ~/.local/bin/hookbox",
      "touch ~/.local/bin/other-tool && rm ~/.local/bin/other-tool",
    ]) {
      const out = await emitIn(w, project, claudeIn(project, "Bash", { command }));
      expect(denied("claude", out), command).toBeUndefined();
    }
  });

  describe("with a daemon answering (it is started from the build, not from the installed path)", () => {
    let daemon: DaemonProcess;
    beforeAll(async () => {
      daemon = await DaemonProcess.start([BUILT_BINARY], w, ["--workers", "1"], {}, { defaultHooks: true });
    });
    afterAll(() => daemon.stop());

    it("the installed command path and the link's target are refused (from the install records), in the daemon", async () => {
      for (const path of [installed, target]) {
        for (const command of attacks(path)) {
          const out = await emitIn(w, project, claudeIn(project, "Bash", { command }));
          expect(out.stderr, "the daemon answered").not.toContain("not through the daemon");
          expect(denied("claude", out), command).toMatch(/^self-protect: .*the Hookbox binary the agents' hook entries run/);
        }
      }
      const write = await emitIn(w, project, claudeIn(project, "Write", { file_path: installed, content: "x" }));
      expect(write.stderr).not.toContain("not through the daemon");
      expect(denied("claude", write)).toContain("the Hookbox binary");
    });

    it("the path emit was invoked as (no install record names it) is protected for its events: emit tells the daemon", async () => {
      mkdirSync(join(h, "tools"), { recursive: true });
      const other = join(h, "tools/hookbox");
      symlinkSync(BUILT_BINARY, other);
      try {
        const viaOther = await emitIn(w, project, claudeIn(project, "Bash", { command: `rm ${other}` }), other);
        expect(viaOther.stderr, "the daemon answered").not.toContain("not through the daemon");
        expect(denied("claude", viaOther)).toContain(`${other} is the Hookbox binary`);
        // Through an emit invoked as the build, ~/tools/hookbox is nobody's entry: another file.
        expect(denied("claude", await emitIn(w, project, claudeIn(project, "Bash", { command: `rm ${other}` })))).toBeUndefined();
      } finally {
        rmSync(other);
      }
    });
  });
});

describe("issue 27: git commands that delete or revert Hookbox's files are decided by asking git (a real repository)", () => {
  let w: DaemonWorld;
  let repo: string;
  const git = (...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], { cwd: repo, encoding: "utf8" });
  beforeAll(() => {
    w = new DaemonWorld().withoutAutoStart();
    repo = join(realpathSync(w.dir), "repo");
  });
  afterAll(() => w.cleanup());

  /** A fresh repository: src/ and .claude/settings.json committed, .gitignore ignoring build/. */
  function fresh(): void {
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(join(repo, "src"), { recursive: true });
    mkdirSync(join(repo, ".claude"), { recursive: true });
    writeFileSync(join(repo, "src/app.ts"), "export {}\n");
    writeFileSync(join(repo, ".claude/settings.json"), '{ "hooks": {} }\n');
    writeFileSync(join(repo, ".gitignore"), "build/\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "one");
  }
  const ask = async (command: string, env: Record<string, string> = {}): Promise<string | undefined> =>
    denied("claude", await emitIn(w, repo, claudeIn(repo, "Bash", { command }), BUILT_BINARY, env));
  const OPS = [
    "git clean -fdx",
    "git clean -fd",
    "git clean -x -f",
    "git stash -u",
    "git stash --include-untracked",
    "git stash -a",
    "git stash",
    "git checkout -- .",
    "git checkout .",
    "git restore .",
    "git reset --hard",
    "git switch --discard-changes main",
    "git checkout -f",
  ];

  it("near misses: in a repository where nothing of Hookbox's is untracked or modified, every one of them passes", async () => {
    fresh();
    writeFileSync(join(repo, "src/scratch.ts"), "x\n");
    writeFileSync(join(repo, "src/app.ts"), "export const changed = 1;\n");
    mkdirSync(join(repo, "build"), { recursive: true });
    writeFileSync(join(repo, "build/out.js"), "1\n");
    for (const command of OPS) expect(await ask(command), command).toBeUndefined();
  });

  it("an untracked .hookbox/ is refused to git clean -fd/-fdx and git stash -u/-a, naming it; git clean -X and stash, checkout, reset do not remove it", async () => {
    fresh();
    mkdirSync(join(repo, ".hookbox"), { recursive: true });
    writeFileSync(join(repo, ".hookbox/trust.json"), "{}\n");
    for (const command of [
      "git clean -fdx",
      "git clean -fd",
      "git stash -u",
      "git stash --include-untracked",
      "git stash -a",
      "cd src && git clean -fd ..",
    ]) {
      const reason = await ask(command);
      expect(reason, command).toMatch(/^self-protect: .*\.hookbox/);
      expect(reason, command).toContain("it would remove it");
    }
    for (const command of ["git clean -fX", "git stash", "git checkout -- .", "git reset --hard", "cd src && git clean -fdx"])
      expect(await ask(command), command).toBeUndefined();
  });

  it("an ignored .hookbox/ is refused to git clean -x and git stash -a only", async () => {
    fresh();
    writeFileSync(join(repo, ".gitignore"), "build/\n.hookbox/\n");
    git("commit", "-qam", "ignore .hookbox");
    mkdirSync(join(repo, ".hookbox"), { recursive: true });
    writeFileSync(join(repo, ".hookbox/trust.json"), "{}\n");
    for (const command of ["git clean -fdx", "git clean -fX", "git stash -a"]) expect(await ask(command), command).toMatch(/\.hookbox/);
    for (const command of ["git clean -fd", "git stash -u"]) expect(await ask(command), command).toBeUndefined();
  });

  it("a modified .claude/settings.json is refused to stash, checkout -- ., restore, reset --hard, switch --discard-changes, checkout -f; untracked-only operations pass", async () => {
    fresh();
    writeFileSync(join(repo, ".claude/settings.json"), '{ "hooks": { "PreToolUse": [] } }\n');
    for (const command of [
      "git stash",
      "git stash push",
      "git checkout -- .",
      "git checkout .",
      "git restore .",
      "git reset --hard",
      "git reset --hard HEAD~0",
      "git switch --discard-changes main",
      "git checkout -f",
      "git restore --source=HEAD .claude",
    ]) {
      const reason = await ask(command);
      expect(reason, command).toContain(".claude/settings.json");
      expect(reason, command).toContain("it would revert its changes");
    }
    for (const command of ["git clean -fdx", "git checkout -- src", "git restore src/app.ts", "git stash -- src"])
      expect(await ask(command), command).toBeUndefined();
  });

  it("an untracked Claude settings file is refused to git clean, even when its directory holds other untracked files; .claude/commands alone passes", async () => {
    fresh();
    rmSync(join(repo, ".claude"), { recursive: true });
    git("commit", "-qam", "no claude");
    mkdirSync(join(repo, ".claude/commands"), { recursive: true });
    writeFileSync(join(repo, ".claude/commands/review.md"), "review\n");
    expect(await ask("git clean -fdx")).toBeUndefined();
    writeFileSync(join(repo, ".claude/settings.local.json"), "{}\n");
    expect(await ask("git clean -fdx")).toContain(".claude/settings.local.json");
  });

  it("through a daemon, the same questions and the same answers", async () => {
    fresh();
    writeFileSync(join(repo, ".claude/settings.json"), "{}\n");
    const daemon = await DaemonProcess.start([BUILT_BINARY], w, ["--workers", "1"], {}, { defaultHooks: true });
    try {
      const out = await emitIn(w, repo, claudeIn(repo, "Bash", { command: "git reset --hard" }));
      expect(out.stderr, "the daemon answered").not.toContain("not through the daemon");
      expect(denied("claude", out)).toContain(".claude/settings.json");
      const near = await emitIn(w, repo, claudeIn(repo, "Bash", { command: "git clean -fdx" }));
      expect(denied("claude", near)).toBeUndefined();
    } finally {
      await daemon.stop();
    }
  });

  it("when git cannot be asked, the command is refused and the reason says why (fail closed)", async () => {
    fresh();
    // A repository configured to run a program on every status: the host's hardened git refuses to run there.
    git("config", "core.fsmonitor", "/bin/true");
    const reason = await ask("git clean -fdx");
    expect(reason).toMatch(/git could not be asked which ones it would touch \(.*core\.fsmonitor/);
    git("config", "--unset", "core.fsmonitor");
    expect(await ask('cd "$SOMEWHERE" && git stash -u')).toContain("the directory git runs in is not known from the command");
    expect(await ask("git clean -fdx")).toBeUndefined();
  });
});

describe("issue 27: the hookbox commands that give the agent the operator's powers are refused however the binary is reached", () => {
  it("serve (its own console or listener), console, fire, daemon restart; through a path, env, nohup, npx, $(which …), sh -c", async () => {
    const attacks = [
      "hookbox serve --console > /tmp/console.log 2>&1 &",
      `${BUILT_BINARY} serve --listen 127.0.0.1:8787`,
      "./dist/hookbox serve --socket /tmp/mine.sock",
      "~/.local/bin/hookbox serve --console 127.0.0.1:9000",
      "env HOOKBOX_SOCKET=/tmp/s hookbox console --no-open",
      "nohup hookbox serve --console &",
      "npx -y hookbox serve --console",
      "$(which hookbox) serve --console",
      'HB=$(command -v hookbox); "$HB" serve --listen 127.0.0.1:9999',
      "sh -c 'hookbox fire lint'",
      "hookbox daemon restart",
    ];
    for (const command of attacks) expect(denied("claude", await emit("claude", claude("Bash", { command }))), command).toMatch(/^self-protect: /);
    for (const command of ["hookbox daemon status", "hookbox approvals", "npx vite serve"])
      expect(denied("claude", await emit("claude", claude("Bash", { command }))), command).toBeUndefined();
  });
});
