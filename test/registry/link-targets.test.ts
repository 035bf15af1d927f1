import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NativeEvent } from "../../src/core/events/types.ts";
import { compileMatcher } from "../../src/hooks/registry/matcher.ts";
import { physicalPath, withLinkTargets } from "../../src/hooks/registry/link-targets.ts";
import { nodeFileHost } from "../../src/platform/node.ts";

// A workspace with links in it: to a secret in it, out of it, dangling, a loop, through a directory.
let root: string;
let ws: string;
const event = (tool_input: Record<string, unknown>, extra: Record<string, unknown> = {}): NativeEvent => ({
  event_type: "PreToolUse",
  session_id: "s",
  timestamp: "t",
  cwd: ws,
  tool_name: "Write",
  tool_input,
  ...extra,
});

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-links-")));
  ws = join(root, "project");
  mkdirSync(join(ws, "config"), { recursive: true });
  mkdirSync(join(root, "home/.ssh"), { recursive: true });
  writeFileSync(join(ws, ".env"), "A=1\n");
  writeFileSync(join(ws, "readme.md"), "x");
  symlinkSync(".env", join(ws, "notes.txt"));
  symlinkSync("../home/.ssh", join(ws, "keys"));
  symlinkSync(".env.local", join(ws, "dangling.txt"));
  symlinkSync("loop-b", join(ws, "loop-a"));
  symlinkSync("loop-a", join(ws, "loop-b"));
  symlinkSync(join(ws, ".env"), join(root, "outside-link"));
  symlinkSync(ws, join(root, "project-alias"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("link_targets: where the paths a tool call names really lead (host side)", () => {
  it("a link to .env in the workspace is shown under the workspace path", async () => {
    expect((await withLinkTargets(event({ file_path: "notes.txt" }), nodeFileHost)).link_targets).toEqual({ "notes.txt": join(ws, ".env") });
  });

  it("a directory link out of the workspace, a dangling link (writing creates its target), an absolute link from outside", async () => {
    const out = await withLinkTargets(
      event({ file_path: "keys/authorized_keys", edits: [{ file_path: "dangling.txt" }], destination: join(root, "outside-link") }),
      nodeFileHost,
    );
    expect(out.link_targets).toEqual({
      "keys/authorized_keys": join(root, "home/.ssh/authorized_keys"),
      "dangling.txt": join(ws, ".env.local"),
      [join(root, "outside-link")]: join(ws, ".env"),
    });
  });

  it("plain files, new files, a link loop and links above the path (the workspace reached through an alias) add nothing", async () => {
    const plain = await withLinkTargets(event({ file_path: "readme.md", paths: ["new/dir/file.ts", "loop-a"] }), nodeFileHost);
    expect(plain.link_targets).toBeUndefined();
    const alias = await withLinkTargets({ ...event({ file_path: "readme.md" }), cwd: join(root, "project-alias") }, nodeFileHost);
    expect(alias.link_targets).toBeUndefined();
  });

  it("what the agent sent as link_targets is dropped: the field says what the host found", async () => {
    const sent = await withLinkTargets(event({ file_path: "readme.md" }, { link_targets: { "readme.md": "/somewhere/else" } }), nodeFileHost);
    expect(sent.link_targets).toBeUndefined();
    const noPaths = await withLinkTargets(event({ content: "x" }, { link_targets: { a: "/b" } }), nodeFileHost);
    expect(noPaths).not.toHaveProperty("link_targets");
  });

  it("physicalPath: .. after a link climbs from the link's target, as the kernel does", async () => {
    expect(await physicalPath(nodeFileHost, `${ws}/keys/../.ssh/x`)).toBe(join(root, "home/.ssh/x"));
    expect(await physicalPath(nodeFileHost, `${ws}/loop-a/x`)).toBeUndefined();
    const named = await withLinkTargets(event({ file_path: "keys/../.ssh/id_rsa" }), nodeFileHost);
    expect(named.link_targets).toEqual({ "keys/../.ssh/id_rsa": join(root, "home/.ssh/id_rsa") });
  });

  it("Bash: what a command writes by a plain path (a redirection, tee, cp, after cd, ~/…) is resolved as a Write's path is", async () => {
    const bash = (command: string): NativeEvent => ({ ...event({}), tool_name: "Bash", tool_input: { command } });
    expect((await withLinkTargets(bash("echo x > notes.txt"), nodeFileHost)).link_targets).toEqual({ [join(ws, "notes.txt")]: join(ws, ".env") });
    expect((await withLinkTargets(bash("cd config && printf x | tee ../notes.txt >/dev/null"), nodeFileHost)).link_targets).toEqual({
      [join(ws, "notes.txt")]: join(ws, ".env"),
    });
    expect((await withLinkTargets(bash("cp /tmp/k keys/authorized_keys"), nodeFileHost)).link_targets).toMatchObject({
      [join(ws, "keys/authorized_keys")]: join(root, "home/.ssh/authorized_keys"),
    });
    symlinkSync(join(ws, ".env"), join(root, "home/pointer"));
    try {
      expect((await withLinkTargets(bash("echo x >> ~/pointer"), nodeFileHost, join(root, "home"))).link_targets).toEqual({
        [join(root, "home/pointer")]: join(ws, ".env"),
      });
    } finally {
      rmSync(join(root, "home/pointer"));
    }
    // Near misses: a plain file, a read through the link, a value the line does not give, code that only mentions the path.
    // rm, mv and ln act on the link itself, not on where it leads.
    for (const command of [
      "echo x > readme.md",
      "cat notes.txt",
      "rm notes.txt",
      "ln -sf /tmp/x notes.txt",
      "mv /tmp/x notes.txt",
      'echo x > "$F"',
      "python3 -c \"print(open('notes.txt').read())\"",
    ]) {
      expect((await withLinkTargets(bash(command), nodeFileHost)).link_targets, command).toBeUndefined();
    }
  });

  it("match.paths sees the target: a **/.env hook runs for a Write to notes.txt", async () => {
    const built = compileMatcher({ paths: ["**/.env"] });
    if (!built.ok) throw new Error("matcher did not compile");
    expect(built.matcher.matches(event({ file_path: "notes.txt" }))).toBe(false);
    expect(built.matcher.matches(await withLinkTargets(event({ file_path: "notes.txt" }), nodeFileHost))).toBe(true);
  });
});
