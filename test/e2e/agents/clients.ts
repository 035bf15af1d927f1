// The agent CLIs the e2e suites drive that are not devDependencies: each is pinned and installed
// on demand into a cache outside the repository (~1.5 GB together: adding them to package.json
// would put that on every `npm ci`). `npx tsx test/e2e/agents/install-clients.ts` installs them;
// .ci/run does so before the tests. A suite whose client is missing skips, saying how to install it.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { probeVersion } from "./run-bounded.ts";

export interface ClientPackage {
  /** npm package name. */
  readonly pkg: string;
  /** The version tested (issue 22); `--version` must report it. */
  readonly version: string;
  /** The executable under node_modules/.bin, or the module to import (the Agent SDK has none). */
  readonly bin?: string;
  /** Env var whose value, if set, is used instead of the cached install (a binary or a package dir). */
  readonly override: string;
  /** Installed with a package.json and lock file (`npm install --save`), as a project would be. */
  readonly saved?: boolean;
}

export const CLIENTS = {
  codex: { pkg: "@openai/codex", version: "0.169.0", bin: "codex", override: "HOOKBOX_CODEX_BIN" },
  copilot: { pkg: "@github/copilot", version: "1.0.102", bin: "copilot", override: "HOOKBOX_COPILOT_BIN" },
  qwen: { pkg: "@qwen-code/qwen-code", version: "0.24.4", bin: "qwen", override: "HOOKBOX_QWEN_BIN" },
  opencode: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode", override: "HOOKBOX_OPENCODE_BIN" },
  // What opencode installs into its config dir for any plugin; installed here so it never has to (opencode.ts).
  "opencode-plugin": { pkg: "@opencode-ai/plugin", version: "1.18.33", override: "HOOKBOX_OPENCODE_PLUGIN_DIR", saved: true },
  "claude-agent-sdk": { pkg: "@anthropic-ai/claude-agent-sdk", version: "0.3.331", override: "HOOKBOX_CLAUDE_AGENT_SDK_DIR" },
} as const satisfies Record<string, ClientPackage>;

export type ClientName = keyof typeof CLIENTS;

/** The cache root: HOOKBOX_E2E_CLIENTS, else $XDG_CACHE_HOME (or ~/.cache)/hookbox-e2e-clients. */
export function clientsRoot(): string {
  if (process.env.HOOKBOX_E2E_CLIENTS) return process.env.HOOKBOX_E2E_CLIENTS;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "hookbox-e2e-clients");
}

/** Where one pinned client is installed (`npm install --prefix <dir>`): `<root>/@openai+codex@0.169.0`. */
export function clientPrefix(client: ClientPackage): string {
  return join(clientsRoot(), `${client.pkg.replace("/", "+")}@${client.version}`);
}

export type FoundClient = { readonly ok: true; readonly path: string; readonly version: string } | { readonly ok: false; readonly reason: string };

const INSTALL_HINT = "install it with `npx tsx test/e2e/agents/install-clients.ts` (.ci/run does)";

/**
 * The client's executable (or, for the Agent SDK, its package directory), checked to be the
 * pinned version. Never throws: a missing or broken client is a reason to skip.
 */
export function findClient(name: ClientName): FoundClient {
  const client: ClientPackage = CLIENTS[name];
  const override = process.env[client.override];
  const prefix = clientPrefix(client);
  if (client.bin === undefined) {
    const dir = override ?? join(prefix, "node_modules", client.pkg);
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest))
      return { ok: false, reason: `${client.pkg}@${client.version} is not installed (${manifest} is absent); ${INSTALL_HINT}` };
    const version = (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version ?? "?";
    return { ok: true, path: dir, version };
  }
  const path = override ?? join(prefix, "node_modules", ".bin", client.bin);
  if (!existsSync(path)) return { ok: false, reason: `${client.pkg}@${client.version} is not installed (${path} is absent); ${INSTALL_HINT}` };
  const probe = probeVersion(path, []);
  const output = `${probe.stdout}${probe.stderr}`;
  if (probe.status !== 0)
    return { ok: false, reason: `${path} --version exited ${probe.status}: ${probe.error?.message ?? output.trim().slice(0, 300)}` };
  if (!override && !output.includes(client.version))
    return {
      ok: false,
      reason: `${path} is not ${client.pkg}@${client.version} (--version said ${JSON.stringify(output.trim().slice(0, 200))}); ${INSTALL_HINT}`,
    };
  return { ok: true, path, version: /\d+\.\d+\.\d+/.exec(output)?.[0] ?? output.trim() };
}
