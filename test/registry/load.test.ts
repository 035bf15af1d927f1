import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCapabilityHost } from "../../src/capabilities/index.ts";
import { formatDiagnostic } from "../../src/hooks/config/diagnostics.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { loadHooks } from "../../src/hooks/registry/load.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { nodeFileHost } from "../../src/platform/node.ts";
import { fakeCapabilities } from "../helpers/fake-capabilities.ts";

let world: string;
let hooks: string;
beforeEach(() => {
  world = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-load-")));
  hooks = join(world, "hooks");
  mkdirSync(hooks);
  mkdirSync(join(world, "elsewhere"));
  writeFileSync(join(world, "elsewhere", "evil.ts"), "export default () => ({ action: 'deny' })\n");
});
afterEach(() => rmSync(world, { recursive: true, force: true }));

const load = (capabilities = fakeCapabilities()) =>
  loadHooks(
    {
      sources: [{ dir: hooks, origin: "dir", required: true }],
      operator: operatorFileSchema.parse({}),
      operatorFile: undefined,
      embedded: new Map(),
    },
    { fs: nodeFileHost, capabilities },
  );

function hookDir(id: string, yaml = `id: ${id}\nevents: [PreToolUse]\nhandler: ./handler.ts\n`): string {
  const dir = join(hooks, id);
  mkdirSync(dir);
  writeFileSync(join(dir, "hook.yaml"), yaml);
  return dir;
}

describe("F7: a handler file must be inside its hook's directory, symlinks resolved", () => {
  it("a handler that is a symlink to a file outside is refused with file:line:col, like ../", async () => {
    const dir = hookDir("linked");
    symlinkSync(join(world, "elsewhere", "evil.ts"), join(dir, "handler.ts"));
    const result = await load();
    expect(result.hooks).toEqual([]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `${dir}/hook.yaml:3:10: handler: ${dir}/handler.ts resolves to ${world}/elsewhere/evil.ts through a symbolic link, outside the hook's directory ${dir}; keep the handler next to its YAML`,
    ]);
  });

  it("a handler under a symlinked directory leading outside is refused too", async () => {
    const dir = hookDir("linked-dir", "id: linked-dir\nevents: [PreToolUse]\nhandler: ./lib/evil.ts\n");
    symlinkSync(join(world, "elsewhere"), join(dir, "lib"));
    const result = await load();
    expect(result.hooks).toEqual([]);
    expect(result.diagnostics.map(formatDiagnostic).join("\n")).toMatch(/linked-dir\/hook\.yaml:3:10: handler: .*outside the hook's directory/);
  });

  it("permitted neighbours: a plain handler, and a symlink to a file inside the directory", async () => {
    writeFileSync(join(hookDir("plain"), "handler.ts"), "export default () => {}\n");
    const inner = hookDir("inner", "id: inner\nevents: [PreToolUse]\nhandler: ./handler.ts\n");
    writeFileSync(join(inner, "real.ts"), "export default () => {}\n");
    symlinkSync("real.ts", join(inner, "handler.ts"));
    const result = await load();
    expect(result.diagnostics).toEqual([]);
    expect(result.hooks.map((hook) => hook.definition.id).sort()).toEqual(["inner", "plain"]);
  });

  it("a hook directory reached through a symlink still loads (both sides are resolved)", async () => {
    const real = join(world, "real-hook");
    mkdirSync(real);
    writeFileSync(join(real, "hook.yaml"), "id: via-link\nevents: [PreToolUse]\nhandler: ./handler.ts\n");
    writeFileSync(join(real, "handler.ts"), "export default () => {}\n");
    symlinkSync(real, join(hooks, "via-link"));
    const result = await load();
    expect(result.diagnostics).toEqual([]);
    expect(result.hooks.map((hook) => hook.definition.id)).toEqual(["via-link"]);
  });
});

describe("a run grant whose command is not on this machine", () => {
  it("loads the hook with a warning diagnostic; the grant is inert", async () => {
    const dir = hookDir(
      "lint",
      "id: lint\nevents: [PostToolUse]\nhandler: ./handler.ts\npermissions:\n  run: [{ cmd: no-such-linter-xyz, args: ['**'] }, { cmd: git, args: ['status'] }]\n",
    );
    writeFileSync(join(dir, "handler.ts"), "export default () => {}\n");
    const capabilities = createCapabilityHost({
      io: nodeCapabilityIO,
      env: { PATH: "/usr/bin:/bin" },
      home: "/nonexistent",
      dataDir: "/nonexistent",
    });
    const result = await load(capabilities);
    expect(result.hooks.map((hook) => hook.definition.id)).toEqual(["lint"]);
    expect(result.diagnostics).toEqual([expect.objectContaining({ file: `${dir}/hook.yaml`, severity: "warning", field: "permissions" })]);
    expect(formatDiagnostic(result.diagnostics[0] as never)).toMatch(
      /hook\.yaml:\d+:\d+: warning: permissions: .*permissions\.run\[0\]\.cmd: "no-such-linter-xyz" was not found on PATH .*inert/,
    );
  });
});
