import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/hooks/config/diagnostics.ts";
import type { ResolvedWatch } from "../../src/hooks/config/resolve.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { loadHooks } from "../../src/hooks/registry/load.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { nodeFileHost } from "../../src/platform/node.ts";
import { watchTargets } from "../../src/serve/triggers/targets.ts";
import { fakeCapabilities } from "../helpers/fake-capabilities.ts";

/**
 * A watch's absolute paths: outside any project they are watched as written (no base_dir asked
 * for); a project's hook that names a path outside its project is refused when it loads, with the
 * field and the fix, rather than loading as valid and being refused in the daemon's log.
 */
let world: string;
beforeEach(() => {
  world = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-watch-")));
  mkdirSync(join(world, "logs"));
  writeFileSync(join(world, "logs", "app.log"), "");
});
afterEach(() => rmSync(world, { recursive: true, force: true }));

const watch = (paths: string[], baseDir?: string): ResolvedWatch => ({
  paths,
  baseDir,
  recursive: false,
  extensions: undefined,
  debounceMs: undefined,
  on: ["created", "modified", "deleted"],
  kind: "auto",
});

describe("watch targets outside any project", () => {
  it("absolute paths are watched as written, without a base_dir", async () => {
    const { targets, problems } = await watchTargets(watch([`${world}/logs/app.log`, `${world}/logs`]), undefined, nodeCapabilityIO);
    expect(problems).toEqual([]);
    expect(targets.map((t) => [t.path, t.kind])).toEqual([
      [`${world}/logs/app.log`, "file"],
      [`${world}/logs`, "folder"],
    ]);
  });

  it("a relative path still needs a base: refused with the fix, the absolute ones beside it watched", async () => {
    const { targets, problems } = await watchTargets(watch(["logs/app.log", `${world}/logs/app.log`]), undefined, nodeCapabilityIO);
    expect(targets.map((t) => t.path)).toEqual([`${world}/logs/app.log`]);
    expect(problems).toEqual([
      "logs/app.log is relative and this watch has no project: give base_dir an absolute path, or write logs/app.log as an absolute path",
    ]);
  });

  it("an absolute base_dir still anchors relative paths", async () => {
    const { targets, problems } = await watchTargets(watch(["logs/app.log"], world), undefined, nodeCapabilityIO);
    expect(problems).toEqual([]);
    expect(targets.map((t) => t.path)).toEqual([`${world}/logs/app.log`]);
  });

  it("inside a project, a path outside it is still not watched (the daemon's rule is unchanged)", async () => {
    const project = join(world, "project");
    mkdirSync(project);
    const { targets, problems } = await watchTargets(watch([`${world}/logs/app.log`]), project, nodeCapabilityIO);
    expect(targets).toEqual([]);
    expect(problems).toEqual([`${world}/logs/app.log is outside ${project}: not watched`]);
  });
});

describe("a project's hook whose watch leaves the project is refused at load", () => {
  const loadProject = async (yaml: string) => {
    const hooks = join(world, "project", ".hookbox", "hooks");
    mkdirSync(join(hooks, "w"), { recursive: true });
    writeFileSync(join(hooks, "w", "hook.yaml"), yaml);
    writeFileSync(join(hooks, "w", "handler.ts"), "export default () => {}\n");
    return {
      file: join(hooks, "w", "hook.yaml"),
      result: await loadHooks(
        {
          sources: [{ dir: hooks, origin: "project", required: true }],
          operator: operatorFileSchema.parse({}),
          operatorFile: undefined,
          embedded: new Map(),
        },
        { fs: nodeFileHost, capabilities: fakeCapabilities() },
      ),
    };
  };

  it("an absolute path outside: the field, the path and the fix", async () => {
    const { file, result } = await loadProject(`id: w\nhandler: ./handler.ts\nwatch:\n  paths: [src, ${world}/logs/app.log]\n`);
    expect(result.hooks).toEqual([]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `${file}:4:16: watch.paths.1: ${world}/logs/app.log is outside the project ${world}/project: a project's hook watches its project only — write a path inside it, or put the hook in your user hooks directory (outside a project, absolute paths are watched as written)`,
    ]);
  });

  it("a base_dir or a relative path that climbs out, in the seed's trigger form too", async () => {
    const climbed = await loadProject(`id: w\nhandler: ./handler.ts\nwatch:\n  base_dir: ../elsewhere\n  paths: [a]\n`);
    expect(climbed.result.diagnostics.map(formatDiagnostic).join("\n")).toContain("watch.base_dir: ../elsewhere is outside the project");
    rmSync(join(world, "project"), { recursive: true });
    const seed = await loadProject(
      `id: w\nhandler: ./handler.ts\ntrigger:\n  type: event\n  event_type: file.changed\n  watch: { paths: [../../x] }\n`,
    );
    expect(seed.result.diagnostics.map(formatDiagnostic).join("\n")).toContain("trigger.watch.paths.0: ../../x is outside the project");
  });

  it("paths inside the project, absolute or relative, load", async () => {
    const { result } = await loadProject(`id: w\nhandler: ./handler.ts\nwatch:\n  paths: [src, ${world}/project/docs]\n`);
    expect(result.diagnostics).toEqual([]);
    expect(result.hooks.map((h) => h.definition.id)).toEqual(["w"]);
  });
});
