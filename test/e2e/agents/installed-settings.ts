// The settings `dist/hookbox install-agent <agent>` writes, for the real-agent tests: the binary
// copied to a scratch bin/, a user hook directory (XDG_CONFIG_HOME/hookbox/hooks) holding one
// hook that denies rm, and the config file as install-agent left it.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";

export const INSTALLED_DENY = "HOOKBOX_INSTALLED_DENY: rm is not allowed";

const NO_RM = `id: no-rm
events: [PreToolUse]
match: { tool: Bash, fields: { tool_input.command: "(^|[;&|]\\\\s*)rm\\\\s" } }
handler: { code: "export default () => ({ action: 'deny', reason: '${INSTALLED_DENY}' })" }
`;

export interface InstalledSettings {
  /** The config file's text after install-agent. */
  readonly text: string;
  /** install-agent's stdout. */
  readonly output: string;
  /** For the agent's environment: where Hookbox finds the user's hooks. */
  readonly xdgConfigHome: string;
  cleanup(): void;
}

/** Run install-agent for `agent` in a scratch project whose `file` (project-relative) holds `existing`, if given. */
export async function installSettings(agent: string, file: string, existing?: string): Promise<InstalledSettings> {
  const root = mkdtempSync(join(tmpdir(), `hookbox-${agent}-install-`));
  const binary = join(root, "bin", "hookbox");
  mkdirSync(join(root, "bin"));
  copyFileSync(BUILT_BINARY, binary);
  chmodSync(binary, 0o755);
  const xdgConfigHome = join(root, "config");
  mkdirSync(join(xdgConfigHome, "hookbox", "hooks"), { recursive: true });
  writeFileSync(join(xdgConfigHome, "hookbox", "hooks", "no-rm.yaml"), NO_RM);
  const project = join(root, "project");
  mkdirSync(dirname(join(project, file)), { recursive: true });
  if (existing !== undefined) writeFileSync(join(project, file), existing);
  const install = await runProgram([binary, "install-agent", agent], { cwd: project, env: { HOME: join(root, "home"), PATH: "/usr/bin:/bin" } });
  if (install.code !== 0) throw new Error(`install-agent ${agent} failed (${install.code}): ${install.stderr}`);
  return {
    text: readFileSync(join(project, file), "utf8"),
    output: install.stdout,
    xdgConfigHome,
    cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}
