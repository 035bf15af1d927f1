import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileKey } from "../../sandbox/index.ts";
import { guestModuleSources, standardHooks } from "../../src/hooks/builtin/index.ts";
import { PRECOMPILED } from "../../src/hooks/builtin/precompiled.generated.ts";
import { createCapabilityHost } from "../../src/capabilities/index.ts";
import { resolveLocations } from "../../src/hooks/config/locations.ts";
import { createHookSets } from "../../src/decide/compose.ts";
import { createNodeHost } from "../../src/platform/node.ts";

/**
 * The standard hooks' handlers compiled at build time are what the loader asks compileHandler
 * for: a load of every standard hook finds each of them under its key, so a daemon's start (or
 * emit with a cold snapshot cache) transpiles none of them.
 */
const home = mkdtempSync(join(tmpdir(), "hookbox-precompiled-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("the precompiled standard hooks", () => {
  it("every standard hook with a handler loads with the precompiled code, found under the key the loader asks with", async () => {
    const env = { HOME: home, PATH: "/usr/bin:/bin" };
    const host = createNodeHost({ env, homeDir: () => home, cwd: () => home });
    const embedded = standardHooks();
    const locations = resolveLocations(host, { builtin: [...embedded.keys()] });
    const capabilities = createCapabilityHost({ io: host.capabilityIO, env, home, dataDir: locations.dataDir });
    const { hookSets } = createHookSets({ host, locations, capabilities, embedded, via: "cli" });
    const { snapshot } = await hookSets.forProject(undefined);
    const withHandlers = [...embedded.values()].filter((hook) => hook.files["handler.ts"] !== undefined);
    expect(withHandlers.length).toBeGreaterThan(5);
    for (const hook of withHandlers) {
      const loaded = snapshot.hooks.find((entry) => entry.definition.id === hook.id);
      const handler = loaded?.spec?.handler;
      expect(handler, hook.id).toBeDefined();
      const key = await compileKey(hook.files["handler.ts"] as string, handler?.filename as string, guestModuleSources);
      expect(PRECOMPILED[key], `${hook.id}: the loader asks for ${handler?.filename}`).toBeDefined();
      expect(PRECOMPILED[key]?.code).toBe(handler?.code);
      expect(PRECOMPILED[key]?.codeHash).toBe(handler?.codeHash);
    }
  });
});
