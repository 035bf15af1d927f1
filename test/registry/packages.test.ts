import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/hooks/config/diagnostics.ts";
import { operatorFileSchema, type OperatorFile } from "../../src/hooks/config/schema.ts";
import { installPackage } from "../../src/hooks/packages/install.ts";
import { loadHooks } from "../../src/hooks/registry/load.ts";
import { Registry, RegistrySnapshot, entryId, isBroken } from "../../src/hooks/registry/registry.ts";
import type { HookSource } from "../../src/hooks/registry/sources.ts";
import { nodeFileHost } from "../../src/platform/node.ts";
import { fakeCapabilities } from "../helpers/fake-capabilities.ts";

/**
 * Installed packages at load: origin "package" (its own tier), run only while their files match
 * hookbox.lock; otherwise a broken entry saying what changed, failing by the installed on_error.
 */
let world: string;
let user: string;
let project: string;
beforeEach(() => {
  world = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-packages-")));
  user = join(world, "user");
  project = join(world, "project", ".hookbox", "hooks");
  mkdirSync(user, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(world, { recursive: true, force: true }));

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const yaml = (id: string, priority: number, onError = "deny"): string =>
  `id: ${id}\nevents: [PreToolUse]\npriority: ${priority}\non_error: ${onError}\nhandler: handler.ts\n`;

async function install(id: string, priority: number): Promise<void> {
  const tree = new Map([
    ["handler.ts", text("export default () => undefined;\n")],
    ["hook.yaml", text(yaml(id, priority))],
  ]);
  await installPackage(nodeFileHost, user, id, tree, { version: "1.0.0", source: "dir:/somewhere", grants: [], signer: null, onError: "deny" });
}

async function load(operator: OperatorFile = operatorFileSchema.parse({})) {
  const sources: HookSource[] = [
    { dir: user, origin: "user", required: false },
    { dir: project, origin: "project", required: false },
  ];
  const result = await loadHooks(
    { sources, operator, operatorFile: undefined, embedded: new Map() },
    { fs: nodeFileHost, capabilities: fakeCapabilities() },
  );
  return { result, snapshot: new RegistrySnapshot(result.hooks, operator, result.diagnostics, 1, "now", result.broken) };
}

describe("packages at load", () => {
  it("a package is origin package, ordered after the user's hooks and before the project's, whatever its priority", async () => {
    await install("community", -1000);
    writeFileSync(join(user, "mine.yaml"), "id: mine\nevents: [PreToolUse]\npriority: 500\nhandler: { code: 'export default () => undefined' }\n");
    writeFileSync(
      join(project, "theirs.yaml"),
      "id: theirs\nevents: [PreToolUse]\npriority: -5000\nhandler: { code: 'export default () => undefined' }\n",
    );
    const { result, snapshot } = await load();
    expect(result.diagnostics).toEqual([]);
    expect(result.hooks.find((h) => h.definition.id === "community")?.definition.source.origin).toBe("package");
    expect(snapshot.registeredFor("PreToolUse").map(entryId)).toEqual(["mine", "community", "theirs"]);
  });

  it("an imported hook is lock-checked but keeps the tier of the user's own hooks", async () => {
    const tree = new Map([
      ["handler.ts", text("export default () => undefined;\n")],
      ["hook.yaml", text(yaml("imported", 0))],
    ]);
    await installPackage(nodeFileHost, user, "imported", tree, {
      version: "imported",
      source: "import:/home/me/.claude/settings.json#hooks.Stop[0].hooks[0]",
      grants: [],
      signer: null,
      onError: "continue",
    });
    const { result } = await load();
    expect(result.hooks[0]?.definition.source.origin).toBe("user");
    appendFileSync(join(user, "imported", "handler.ts"), "// edited\n");
    expect((await load()).result.broken[0]).toMatchObject({ id: "imported", origin: "user" });
  });

  it("an edited handler: broken, saying what changed, failing by its installed on_error", async () => {
    await install("community", 0);
    appendFileSync(join(user, "community", "handler.ts"), "// edited\n");
    writeFileSync(join(user, "community", "extra.ts"), "x\n");
    const { result } = await load();
    expect(result.hooks).toEqual([]);
    const [broken] = result.broken;
    expect(broken).toMatchObject({ id: "community", origin: "package", onError: "deny", events: ["PreToolUse"] });
    expect(broken?.problems.map(formatDiagnostic)).toEqual([
      `${user}/community/hook.yaml:1:1: the installed package community no longer matches ${user}/hookbox.lock (extra.ts added, handler.ts changed since it was installed from dir:/somewhere); it does not run until you reinstall it (hookbox update community) or remove it (hookbox remove community)`,
    ]);
  });

  it("an edited hook.yaml cannot turn the guard off: on_error as installed, on every event", async () => {
    await install("community", 0);
    writeFileSync(join(user, "community", "hook.yaml"), `${yaml("community", 0, "continue").replace("[PreToolUse]", "[Notification]")}`);
    const { result } = await load();
    expect(result.broken[0]).toMatchObject({ id: "community", onError: "deny", events: "all" });
  });

  it("a package whose folder is gone, and a lock that cannot be read, fail closed", async () => {
    await install("gone", 0);
    rmSync(join(user, "gone"), { recursive: true });
    const gone = await load();
    expect(gone.result.broken[0]).toMatchObject({ id: "gone", onError: "deny" });
    expect(gone.result.diagnostics.map((d) => d.message).join("\n")).toContain("is not installed any more");
    await install("other", 0);
    writeFileSync(join(user, "hookbox.lock"), "{ not json");
    const { result } = await load();
    expect(result.broken.map((b) => [b.id, b.onError])).toEqual([["other", "deny"]]);
    expect(result.broken[0]?.problems[0]?.message).toMatch(/hookbox\.lock not valid JSON .*the packages beside it do not run/);
  });

  it("a running registry notices a file added deep inside a package at its next event", async () => {
    const tree = new Map([
      ["handler.ts", text("export default () => undefined;\n")],
      ["hook.yaml", text(yaml("deep", 0))],
      ["fixtures/cases/a.json", text("{}")],
    ]);
    await installPackage(nodeFileHost, user, "deep", tree, { version: "1.0.0", source: "dir:/x", grants: [], signer: null, onError: "deny" });
    const operator = operatorFileSchema.parse({});
    const registry = await Registry.load(
      async () => ({ sources: [{ dir: user, origin: "user", required: false }], operator, operatorFile: undefined, embedded: new Map() }),
      { fs: nodeFileHost, capabilities: fakeCapabilities() },
    );
    expect((await registry.fresh()).hooks.map((h) => h.definition.id)).toEqual(["deep"]);
    writeFileSync(join(user, "deep", "fixtures", "cases", "b.json"), "{}");
    const after = await registry.fresh();
    expect(after.hooks).toEqual([]);
    expect(after.broken[0]?.problems[0]?.message).toContain("fixtures/cases/b.json added");
  });

  it("a folder beside the lock that the lock does not list is an ordinary hook; the lock file itself is not a hook", async () => {
    await install("community", 0);
    mkdirSync(join(user, "own"));
    writeFileSync(join(user, "own", "hook.yaml"), "id: own\nevents: [PreToolUse]\nhandler: { code: 'export default () => undefined' }\n");
    const { result } = await load();
    expect(result.hooks.map((h) => [h.definition.id, h.definition.source.origin]).sort()).toEqual([
      ["community", "package"],
      ["own", "user"],
    ]);
    expect(result.broken.filter(isBroken)).toEqual([]);
  });
});
