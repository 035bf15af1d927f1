import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { DaemonProcess } from "../helpers/daemon.ts";
import { git, PackageWorld } from "../helpers/packages.ts";

/**
 * Hooks that arrive with a `git clone` (<project>/.hookbox/hooks) run without grants until the
 * user runs `hookbox trust` there: a granted read is refused, naming hookbox trust; after trust,
 * it reads; after an edit, it is refused again, until trusted anew. Unchanged hooks keep theirs.
 */
const READER = `id: reader
events: [PreToolUse]
permissions: { read: ["\${workspace}/**"], inject_context: true }
handler: { code: "export default async (e, hook) => { try { return { action: 'deny', reason: 'read: ' + (await hook.readFile('NOTES.md')).trim() }; } catch (error) { return { action: 'deny', reason: 'refused: ' + error.message }; } }" }
`;
const CONTEXT = `id: context
events: [UserPromptSubmit]
permissions: { inject_context: true }
handler: { code: "export default () => ({ context_injection: 'project context' })" }
`;

describe("project trust (the binary, a cloned repository)", () => {
  let world: PackageWorld;
  let clone: string;
  const reason = async (viaDaemon = false): Promise<{ reason: string; message: string | undefined }> => {
    const out = await world.hookbox(["emit", "PreToolUse", "--agent", "claude", ...(viaDaemon ? [] : ["--no-daemon"])], {
      cwd: clone,
      stdin: JSON.stringify({
        session_id: "s",
        transcript_path: "",
        cwd: clone,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(clone, "x") },
      }),
    });
    if (viaDaemon) expect(out.stderr, "the daemon answered").toBe("");
    const json = JSON.parse(out.stdout) as { systemMessage?: string; hookSpecificOutput: { permissionDecisionReason: string } };
    return { reason: json.hookSpecificOutput.permissionDecisionReason, message: json.systemMessage };
  };
  const context = async (): Promise<string | undefined> => {
    const out = await world.hookbox(["emit", "UserPromptSubmit", "--agent", "claude", "--no-daemon"], {
      cwd: clone,
      stdin: JSON.stringify({ session_id: "s", transcript_path: "", cwd: clone, hook_event_name: "UserPromptSubmit", prompt: "hi" }),
    });
    return (JSON.parse(out.stdout || "{}") as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext;
  };

  beforeAll(() => {
    world = new PackageWorld();
    const upstream = join(world.dir, "upstream");
    mkdirSync(join(upstream, ".hookbox", "hooks"), { recursive: true });
    writeFileSync(join(upstream, ".hookbox", "hooks", "reader.yaml"), READER);
    writeFileSync(join(upstream, ".hookbox", "hooks", "context.yaml"), CONTEXT);
    writeFileSync(join(upstream, "NOTES.md"), "the notes\n");
    git(upstream, "init", "-q");
    git(upstream, "add", "-A");
    git(upstream, "commit", "-qm", "hooks");
    clone = join(world.dir, "clone");
    git(world.dir, "clone", "-q", upstream, clone);
  });
  afterAll(() => world.cleanup());

  it("before hookbox trust: the hook runs, its granted read is refused naming hookbox trust, and nothing is injected", async () => {
    const { reason: why, message } = await reason();
    expect(why).toContain(
      `refused: hook reader: hook.readFile("NOTES.md") is refused: this project's hooks (${clone}/.hookbox/hooks) are not trusted yet, so they run without any grant; run \`hookbox trust\` in ${clone}`,
    );
    expect(message).toBe(
      `Hookbox: this project's hooks (${clone}/.hookbox/hooks) are not trusted, so they ran without any grant. Run \`hookbox trust\` in ${clone} to grant them: reader: read \${workspace}/**, inject_context.`,
    );
    expect(await context()).toBeUndefined();
    const list = await world.hookbox(["list"], { cwd: clone });
    expect(list.stdout.replace(/\s+/g, " ")).toContain(
      `UNTRUSTED: this project's hooks run without any grant until you run \`hookbox trust\` in ${clone}`,
    );
  });

  it("after hookbox trust: with its grants", async () => {
    const trusted = await world.hookbox(["trust"], { cwd: join(clone) });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(`trusted ${clone}: 2 hooks`);
    expect(trusted.stdout).toContain("granted  read ${workspace}/**");
    expect((await reason()).reason).toBe("read: the notes");
    expect(await context()).toBe("project context");
    // The record lives in the user's data directory, never in the project.
    expect(existsSync(join(world.home, ".local/share/hookbox/trust"))).toBe(true);
  });

  it("after an edit: the edited hook is untrusted again, the unchanged one keeps its grants", async () => {
    appendFileSync(join(clone, ".hookbox", "hooks", "reader.yaml"), "# edited after trust\n");
    const { reason: why, message } = await reason();
    expect(why).toContain("is refused: this project's hooks");
    expect(message).toContain("Run `hookbox trust`");
    expect(await context()).toBe("project context");
    const again = await world.hookbox(["trust"], { cwd: clone });
    expect(again.stdout).toContain("reader (changed since last trusted)");
    expect(again.stdout).toContain("context (unchanged)");
    expect((await reason()).reason).toBe("read: the notes");
  });

  it("hookbox trust --revoke: without grants again", async () => {
    expect((await world.hookbox(["trust", "--revoke"], { cwd: clone })).code).toBe(0);
    expect((await reason()).reason).toContain("not trusted yet");
  });

  it("a running daemon sees trust given and taken at its next event", async () => {
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"], {}, { defaultHooks: true });
    try {
      expect((await reason(true)).reason).toContain("not trusted yet");
      await world.hookbox(["trust"], { cwd: clone });
      expect((await reason(true)).reason).toBe("read: the notes");
      await world.hookbox(["trust", "--revoke"], { cwd: clone });
      expect((await reason(true)).reason).toContain("not trusted yet");
    } finally {
      await daemon.stop();
    }
  });
});
