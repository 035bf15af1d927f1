import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCapabilityHost } from "../../src/capabilities/index.ts";
import { standardHooks } from "../../src/hooks/builtin/index.ts";
import { resolveLocations, type Locations } from "../../src/hooks/config/locations.ts";
import { createHookSets } from "../../src/decide/compose.ts";
import { selfProtectMachine } from "../../src/decide/self-protect.ts";
import { identityOf } from "../../src/decide/identity.ts";
import type { RegistrySnapshot } from "../../src/hooks/registry/registry.ts";
import { SnapshotCache, type SeededLoad } from "../../src/hooks/registry/snapshot/index.ts";
import { createNodeHost } from "../../src/platform/node.ts";
import type { RuntimeHost } from "../../src/platform/types.ts";

/**
 * The snapshot cache of emit without a daemon: a hit only while every input of the load is as
 * it was (content, not modification time), and never a hook other than a fresh load would give.
 */
const HOOK = (id: string, extra = ""): string => `id: ${id}\nevents: [PreToolUse]\nhandler: ./handler.ts\n${extra}`;
const HANDLER = (reason: string): string =>
  `export default (e: { tool_name?: string }) => ({ action: e.tool_name === "Bash" ? "deny" : "continue", reason: ${JSON.stringify(reason)} });\n`;

let root: string;
let home: string;
let project: string;
const embedded = standardHooks();

/** The files of a world, relative to root: every one is an input of the load. */
const FILES: Record<string, string> = {
  "home/.config/hookbox/hookbox.yaml": "builtin: [guard-secrets]\nhooks: { user-guard: { config: { level: 2 } } }\n",
  "home/.config/hookbox/hooks/user-guard/hook.yaml": HOOK("user-guard", "permissions: { inject_context: true }\n"),
  "home/.config/hookbox/hooks/user-guard/handler.ts": HANDLER("user"),
  "project/.hookbox/hooks/project-guard/hook.yaml": HOOK("project-guard", "match: { tool: Write }\n"),
  "project/.hookbox/hooks/project-guard/handler.ts": HANDLER("project"),
  "project/.hookbox/hooks/inline.yaml": `id: inline\nevents: [PostToolUse]\nhandler: { code: "export default () => ({})" }\n`,
};

function writeWorld(): void {
  rmSync(root, { recursive: true, force: true });
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(project, ".git"), { recursive: true });
}

interface World {
  readonly host: RuntimeHost;
  readonly locations: Locations;
  readonly cache: SnapshotCache;
  env: Record<string, string>;
}

function world(env: Record<string, string> = {}, build = "test-build", builtin: string[] = []): World {
  const fullEnv = { HOME: home, PATH: "/usr/bin:/bin", ...env };
  const host = createNodeHost({ env: fullEnv, homeDir: () => fullEnv.HOME, cwd: () => project });
  const locations = resolveLocations(host, { builtin });
  const cache = new SnapshotCache({
    fs: host.fs,
    digest: host.digest,
    dir: `${locations.dataDir}/cache`,
    material: { build, identity: identityOf(locations, build, fullEnv.HOME), env: fullEnv, machine: selfProtectMachine(locations, fullEnv.HOME, {}) },
  });
  return { host, locations, cache, env: fullEnv };
}

/** One load as emit makes it: through the cache, noting whether it hit. */
async function load(w: World, at: string | null = project): Promise<{ snapshot: RegistrySnapshot; hit: boolean }> {
  let hit = false;
  const cache = Object.create(w.cache) as SnapshotCache;
  cache.lookup = async (...args) => {
    const found = await w.cache.lookup(...args);
    hit = found !== undefined;
    return found;
  };
  const capabilities = createCapabilityHost({ io: w.host.capabilityIO, env: w.env, home: w.env.HOME as string, dataDir: w.locations.dataDir });
  const { hookSets } = createHookSets({ host: w.host, locations: w.locations, capabilities, embedded, via: "emit", snapshots: cache });
  const { snapshot } = await hookSets.forProject(at ?? undefined);
  return { snapshot, hit };
}

/** What a snapshot decides with: every field of every hook that could change an outcome. */
function described(snapshot: RegistrySnapshot): unknown {
  return {
    operator: snapshot.operator,
    status: snapshot.operatorStatus,
    broken: snapshot.broken.map((b) => b.id),
    hooks: snapshot.hooks.map((h) => ({
      definition: h.definition,
      grants: h.grants.summary,
      spec: h.spec?.key,
      code: h.spec?.handler.codeHash,
      file: h.file,
    })),
    events: snapshot.eventTypes().map((type) => [type, snapshot.registeredFor(type).map((e) => ("definition" in e ? e.definition.id : e.id))]),
  };
}

const cacheFiles = (w: World): string[] => {
  try {
    return readdirSync(`${w.locations.dataDir}/cache`).filter((name) => name.startsWith("snapshot-"));
  } catch {
    return [];
  }
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hookbox-snapshot-"));
  home = join(root, "home");
  project = join(root, "project");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the snapshot cache", () => {
  it("a second load is a hit, and the hit is the same hook set a fresh load gives", async () => {
    writeWorld();
    const w = world();
    const first = await load(w);
    expect(first.hit).toBe(false);
    expect(first.snapshot.hooks.map((h) => h.definition.id).sort()).toEqual([
      "guard-secrets",
      "inline",
      "project-guard",
      "self-protect",
      "user-guard",
    ]);
    const second = await load(w);
    expect(second.hit).toBe(true);
    expect(described(second.snapshot)).toEqual(described(first.snapshot));
    expect(second.snapshot.hooks.find((h) => h.definition.id === "user-guard")?.grants.summary).toEqual(
      first.snapshot.hooks.find((h) => h.definition.id === "user-guard")?.grants.summary,
    );
  });

  it("the modification time alone is no change; content is", async () => {
    writeWorld();
    const w = world();
    await load(w);
    const file = join(root, "project/.hookbox/hooks/project-guard/handler.ts");
    writeFileSync(file, readFileSync(file, "utf8"));
    expect((await load(w)).hit).toBe(true);
  });

  it("property: changing any input file's content, in any way, is a miss; the load after it is the fresh one, and cached again", async () => {
    const paths = Object.keys(FILES);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: paths.length - 1 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.boolean(),
        async (index, noise, prepend) => {
          writeWorld();
          const w = world();
          await load(w);
          expect((await load(w)).hit).toBe(true);
          const file = join(root, paths[index] as string);
          const before = readFileSync(file, "utf8");
          // A YAML comment or a TS comment: still a valid file, a different content.
          const comment = `# ${noise.replace(/\n/g, " ")}\n`.replace(/^#/, file.endsWith(".ts") ? "//" : "#");
          writeFileSync(file, prepend ? comment + before : before + comment);
          const after = await load(w);
          expect(after.hit).toBe(false);
          const fresh = await load(world({}, "another-build"));
          expect(described(after.snapshot)).toEqual(described(fresh.snapshot));
          expect((await load(w)).hit).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it.for([
    [
      "a new hook file in the project's directory",
      () => writeFileSync(join(project, ".hookbox/hooks/new.yaml"), `id: new\nevents: [Stop]\nhandler: { code: "export default () => ({})" }\n`),
    ],
    [
      "a new hook directory",
      () => (
        mkdirSync(join(project, ".hookbox/hooks/late")),
        writeFileSync(join(project, ".hookbox/hooks/late/hook.yaml"), HOOK("late")),
        writeFileSync(join(project, ".hookbox/hooks/late/handler.ts"), HANDLER("late"))
      ),
    ],
    ["a hook file removed", () => unlinkSync(join(project, ".hookbox/hooks/inline.yaml"))],
    ["the operator file removed", () => unlinkSync(join(home, ".config/hookbox/hookbox.yaml"))],
    ["the user's hook directory removed", () => rmSync(join(home, ".config/hookbox/hooks"), { recursive: true })],
    [
      "a handler replaced by a symlink to the same bytes outside its hook's directory",
      () => {
        const handler = join(project, ".hookbox/hooks/project-guard/handler.ts");
        writeFileSync(join(root, "outside.ts"), readFileSync(handler));
        unlinkSync(handler);
        symlinkSync(join(root, "outside.ts"), handler);
      },
    ],
  ] as const)("%s is a miss, and the load after it is the fresh one", async ([, change]) => {
    writeWorld();
    const w = world();
    await load(w);
    change();
    const after = await load(w);
    expect(after.hit).toBe(false);
    expect(described(after.snapshot)).toEqual(described((await load(world({}, "fresh"))).snapshot));
  });

  it("the key: another build, --builtin, home, XDG directories, PATH, an agent's config directory (self-protect's locations) or project is another cache entry", async () => {
    writeWorld();
    await load(world());
    expect((await load(world())).hit).toBe(true);
    for (const other of [
      world({}, "other-build"),
      world({}, "test-build", ["bash-guard"]),
      world({ XDG_CONFIG_HOME: join(home, ".config") }),
      world({ XDG_DATA_HOME: join(home, ".local/share") }),
      world({ PATH: "/bin" }),
      world({ CLAUDE_CONFIG_DIR: join(home, "claude-elsewhere") }),
    ]) {
      expect((await load(other)).hit, JSON.stringify(other.env) + other.locations.builtin.join()).toBe(false);
    }
    expect((await load(world(), join(root, "elsewhere"))).hit).toBe(false);
    // An event that names no directory: the user's hooks only.
    expect((await load(world(), null)).hit).toBe(false);
  });

  it("a broken hook, or a hook set loaded with problems, is never cached", async () => {
    writeWorld();
    writeFileSync(join(project, ".hookbox/hooks/project-guard/handler.ts"), "export default () => { return {\n");
    const w = world();
    expect((await load(w)).snapshot.broken.map((b) => b.id)).toEqual(["project-guard"]);
    expect((await load(w)).hit).toBe(false);
    expect(cacheFiles(w)).toEqual([]);
  });

  it("a load whose grants warn is cached with its warnings; when the warning would change (the command appears on PATH) it is a miss", async () => {
    writeWorld();
    const bin = join(root, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(project, ".hookbox/hooks/lint.yaml"),
      `id: lint\nevents: [PostToolUse]\nhandler: { code: "export default () => ({})" }\npermissions: { run: [{ cmd: no-such-linter-xyz, args: ["**"] }] }\n`,
    );
    const w = world({ PATH: `${bin}:/usr/bin:/bin` });
    const first = await load(w);
    const warned = first.snapshot.diagnostics.map((d) => d.message);
    expect(warned).toEqual([expect.stringContaining("no-such-linter-xyz")]);
    const second = await load(w);
    expect(second.hit).toBe(true);
    expect(second.snapshot.diagnostics.map((d) => d.message)).toEqual(warned);
    // The linter installed: PATH's files are not fingerprinted, but the grant's warning is recomputed on a hit.
    writeFileSync(join(bin, "no-such-linter-xyz"), "#!/bin/sh\n", { mode: 0o755 });
    const after = await load(w);
    expect(after.hit).toBe(false);
    expect(after.snapshot.diagnostics).toEqual([]);
  });
});

describe("a cache file Hookbox did not write as it is is ignored and rebuilt, never trusted", () => {
  /** The cache file of the world's project, split in MAC and payload. */
  const cached = (w: World): { path: string; mac: string; payload: string } => {
    const [name] = cacheFiles(w);
    const path = join(`${w.locations.dataDir}/cache`, name as string);
    const text = readFileSync(path, "utf8");
    return { path, mac: text.slice(0, text.indexOf("\n")), payload: text.slice(text.indexOf("\n") + 1) };
  };
  const widen = (payload: string): string => {
    const load = JSON.parse(payload) as {
      hooks: { definition: { id: string; permissions: { read: string[]; inject_context: boolean }; onError: string } }[];
    };
    for (const hook of load.hooks) {
      if (hook.definition.id !== "project-guard") continue;
      hook.definition.permissions.read = ["/"];
      hook.definition.permissions.inject_context = true;
    }
    return JSON.stringify(load);
  };

  let w: World;
  let original: unknown;
  beforeAll(async () => {
    writeWorld();
    w = world();
    original = described((await load(w)).snapshot);
  });

  it.for([
    ["a grant widened by hand, the MAC left as it was", (c: ReturnType<typeof cached>) => `${c.mac}\n${widen(c.payload)}`],
    [
      "a grant widened by hand, with a plain SHA-256 in place of the MAC",
      (c: ReturnType<typeof cached>) => `${createHash("sha256").update(widen(c.payload)).digest("hex")}\n${widen(c.payload)}`,
    ],
    [
      "a hook's on_error turned to continue",
      (c: ReturnType<typeof cached>) => `${c.mac}\n${c.payload.replace(/"onError":"deny"/g, '"onError":"continue"')}`,
    ],
    ["truncated", (c: ReturnType<typeof cached>) => `${c.mac}\n${c.payload.slice(0, c.payload.length / 2)}`],
    ["garbage", () => "\u0000\u0001 not a cache file"],
    ["empty", () => ""],
  ] as const)("%s", async ([, spoil]) => {
    expect((await load(w)).hit).toBe(true);
    const file = cached(w);
    writeFileSync(file.path, spoil(file));
    const after = await load(w);
    expect(after.hit).toBe(false);
    expect(described(after.snapshot)).toEqual(original);
    // Rebuilt: the next load is a hit again, on an authentic file.
    expect((await load(w)).hit).toBe(true);
  });

  it("a cache file others may write (group or world writable) is not read", async () => {
    expect((await load(w)).hit).toBe(true);
    chmodSync(cached(w).path, 0o666);
    expect((await load(w)).hit).toBe(false);
  });

  it("another key (the key file replaced, or a cache from another user or machine) is a miss", async () => {
    expect((await load(w)).hit).toBe(true);
    writeFileSync(join(`${w.locations.dataDir}/cache`, "key"), `${"0".repeat(64)}\n`, { mode: 0o600 });
    expect((await load(world())).hit).toBe(false);
  });

  it("a cache file renamed to another project's key is that project's miss", async () => {
    writeWorld();
    const a = world();
    await load(a);
    const seeded: SeededLoad | undefined = await a.cache.lookup(
      project,
      createCapabilityHost({ io: a.host.capabilityIO, env: a.env, home, dataDir: a.locations.dataDir }),
      embedded,
    );
    expect(seeded).toBeDefined();
    const { path } = cached(a);
    const otherKey = await a.cache.key(join(root, "elsewhere"));
    writeFileSync(join(dirname(path), `snapshot-${otherKey.slice(0, 32)}.json`), readFileSync(path));
    expect((await load(a, join(root, "elsewhere"))).hit).toBe(false);
  });
});
