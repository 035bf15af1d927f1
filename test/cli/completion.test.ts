import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDARD_HOOKS } from "../../src/hooks/builtin/catalog.generated.ts";
import { LoneBinary } from "../helpers/binary.ts";

const binary = new LoneBinary();
const scripts: Record<string, string> = {};
beforeAll(async () => {
  for (const shell of ["bash", "zsh", "fish"]) {
    const run = await binary.run(["completion", shell]);
    expect(run.code).toBe(0);
    scripts[shell] = join(binary.dir, `completion.${shell}`);
    writeFileSync(scripts[shell], run.stdout);
  }
});
afterAll(() => binary.cleanup());

const hasShell = (shell: string): boolean => spawnSync(shell, ["-c", "exit 0"]).status === 0;

/** What `hookbox <words> <TAB>` offers in bash: COMP_WORDS as readline splits the line, then the function `complete -p` names. */
function bashCompletes(words: readonly string[]): string[] {
  const script = `
source ${JSON.stringify(scripts.bash)}
COMP_WORDS=(${words.map((word) => JSON.stringify(word)).join(" ")})
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
function=$(complete -p hookbox | sed -E 's/.*-F ([^ ]+).*/\\1/')
"$function"
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["--norc", "-c", script], { encoding: "utf8", cwd: binary.dir })
    .split("\n")
    .filter((line) => line !== "");
}

const hookIds = Object.keys(STANDARD_HOOKS);

describe("hookbox completion bash, sourced in real bash", () => {
  it("registers a completion function for hookbox", () => {
    expect(execFileSync("bash", ["--norc", "-c", `source ${scripts.bash}; complete -p hookbox`], { encoding: "utf8" }).trim()).toBe(
      "complete -F _hookbox hookbox",
    );
  });

  it.each([
    [
      ["hookbox", "se"],
      ["serve", "self-install", "self-uninstall"],
    ],
    [["hookbox", "--ver"], ["--version"]],
    [["hookbox", "serve", "--bu"], ["--builtin"]],
    [["hookbox", "serve", "--builtin", "gu"], ["guard-secrets"]],
    [["hookbox", "serve", "--builtin", "guard-secrets,ba"], ["guard-secrets,bash-guard"]],
    [["hookbox", "validate", "--builtin", "=", "gi"], ["git-status"]],
    [
      ["hookbox", "runs", "--hook", "tool-"],
      ["tool-ledger", "tool-schema-guardrail"],
    ],
    [
      ["hookbox", "new", "my-guard", "--event", "Pre"],
      ["PreToolUse", "PreCompact"],
    ],
    [
      ["hookbox", "emit", "Sess"],
      ["SessionStart", "SessionEnd"],
    ],
    [
      ["hookbox", "emit", "--agent", "c"],
      ["claude", "cursor", "codex", "copilot"],
    ],
    [["hookbox", "emit", "--no-d"], ["--no-daemon"]],
    [["hookbox", "install-agent", "g"], ["gemini"]],
    [
      ["hookbox", "completion", ""],
      ["bash", "zsh", "fish"],
    ],
    [["hookbox", "help", "install-"], ["install-agent"]],
    [
      ["hookbox", "help", "install"],
      ["install-agent", "install"],
    ],
    [["hookbox", "serve", "--listen", ""], []],
  ])("%j → %j", (words, expected) => {
    expect(bashCompletes(words)).toEqual(expected);
  });

  it("offers every standard hook after --builtin, and files and directories where a path goes", () => {
    expect(bashCompletes(["hookbox", "serve", "--builtin", ""])).toEqual(["all", ...hookIds]);
    writeFileSync(join(binary.dir, "event-x.json"), "{}");
    expect(bashCompletes(["hookbox", "run", "--event", "event-"])).toEqual(["event-x.json"]);
    expect(bashCompletes(["hookbox", "serve", "--hooks", "completion."])).toEqual([]);
  });
});

describe("hookbox completion zsh", () => {
  it("is valid zsh that registers _hookbox for hookbox after compinit", (ctx) => {
    if (!hasShell("zsh")) return ctx.skip("zsh is not installed (apt-get install zsh; .ci/install-tools installs it)");
    execFileSync("zsh", ["-n", scripts.zsh as string]);
    const registered = execFileSync(
      "zsh",
      ["-fc", `autoload -Uz compinit && compinit -u -d ${binary.dir}/zcompdump && source ${scripts.zsh} && print -r -- $_comps[hookbox]`],
      { encoding: "utf8" },
    );
    expect(registered.trim()).toBe("_hookbox");
    const text = readFileSync(scripts.zsh as string, "utf8");
    for (const word of ["self-install", "--builtin", ...hookIds, "PreToolUse"]) expect(text).toContain(word);
  });
});

describe("hookbox completion fish", () => {
  const fishCompletes = (line: string): string[] =>
    execFileSync("fish", ["--no-config", "-c", `source ${scripts.fish}; complete -C ${JSON.stringify(line)}`], { encoding: "utf8" })
      .split("\n")
      .filter((entry) => entry !== "")
      .map((entry) => entry.split("\t")[0] as string);

  it.for([
    ["hookbox se", ["self-install", "self-uninstall", "serve"]],
    ["hookbox serve --builtin gu", ["guard-secrets"]],
    ["hookbox serve --builtin guard-secrets,ba", ["guard-secrets,bash-guard"]],
    ["hookbox install-agent c", ["claude", "codex", "copilot", "cursor"]],
    ["hookbox new x --event PreT", ["PreToolUse"]],
  ] as const)("%s → %j", ([line, expected], ctx) => {
    if (!hasShell("fish")) return ctx.skip("fish is not installed (apt-get install fish; .ci/install-tools installs it)");
    expect(fishCompletes(line)).toEqual(expected);
  });
});
