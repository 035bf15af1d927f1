import { describe, expect, it } from "vitest";
import { summarizeGrants, type GrantReview } from "../../src/capabilities/index.ts";
import type { PermissionKind } from "../../src/capabilities/grants/sources.ts";

const line = (kind: PermissionKind, grant: string, status: GrantReview["status"] = "granted"): GrantReview => ({ kind, grant, words: "…", status });

/** The review's first line: what a hook can do here in plain words, and what it asks for that is refused. */
describe("summarizeGrants", () => {
  it.each<[string, GrantReview[], { can: string[]; refused: string[] }]>([
    ["no grant at all", [], { can: ["no network"], refused: [] }],
    [
      "the project's files, git, no network",
      [line("read", "read ${workspace}/**"), line("run", "run git status --short")],
      { can: ["reads files in your project", "runs git", "no network"], refused: [] },
    ],
    [
      "files named in the project, counted past four",
      ["a.json", "b.toml", "c.ini", "d.cfg", "e.py"].map((f) => line("read", `read \${workspace}/${f}`)),
      { can: ["reads a.json, b.toml, c.ini and 2 more in your project", "no network"], refused: [] },
    ],
    [
      "a directory of the project, the home, an absolute path",
      [line("read", "read ${workspace}/src/**"), line("read", "read ${home}/.gitconfig"), line("read", "read /etc/hosts")],
      { can: ["reads src/ in your project, ~/.gitconfig, /etc/hosts", "no network"], refused: [] },
    ],
    [
      "each program once, in order; a quoted command",
      [line("run", "run git diff"), line("run", "run git status"), line("run", 'run "my tool" --x'), line("run", "run grep -n")],
      { can: ["runs git, my tool, grep", "no network"], refused: [] },
    ],
    ["capped says partly", [line("read", "read ${home}/**", "capped")], { can: ["reads ~/ (partly)", "no network"], refused: [] }],
    [
      "refused ones apart, network last",
      [
        line("net", "net api.github.com"),
        line("run", "run node **", "refused"),
        line("run", "run grep -n"),
        line("inject_context", "inject_context"),
        line("env", "env GITHUB_TOKEN", "refused"),
      ],
      {
        can: ["runs grep", "adds text to the model's context", "connects to api.github.com"],
        refused: ["runs node", "sees the environment variable GITHUB_TOKEN"],
      },
    ],
    [
      "a refused network grant: still no network",
      [line("net", "net example.com", "refused")],
      { can: ["no network"], refused: ["connects to example.com"] },
    ],
    [
      "the flags and the rest",
      [
        line("store", "store"),
        line("notify", "notify"),
        line("modify", "modify tool_input.command"),
        line("llm", "llm default"),
        line("llm", "llm big"),
      ],
      {
        can: [
          "rewrites the event's tool_input.command before the guards check it",
          "keeps data between runs",
          "sends you notifications",
          "asks your model endpoints default, big",
          "no network",
        ],
        refused: [],
      },
    ],
  ])("%s", (_name, lines, expected) => {
    expect(summarizeGrants(lines)).toEqual(expected);
  });
});
