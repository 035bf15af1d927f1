import fc from "fast-check";
import { parse, type ParseError } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { INSTALLERS, INSTALL_AGENTS, planInstall, planUninstall, type InstallAgent } from "../../src/agents/installers.ts";
import { rewriteJson, type JsonLayout } from "../../src/agents/shared/install/json-edit.ts";

const TWO: JsonLayout = { indentUnit: "  ", eol: "\n" };

/** The value of a JSONC text, failing the test on any syntax error (trailing commas allowed). */
function valueOf(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  expect(errors).toEqual([]);
  return value;
}

function edit(text: string, change: (value: Record<string, unknown>) => void, layout = TWO): string {
  const before = valueOf(text) as Record<string, unknown>;
  const after = structuredClone(before);
  change(after);
  return rewriteJson(text, before, after, layout);
}

describe("editing JSON in place (json-edit)", () => {
  const commented = `{
  // the model
  "model": "opus", /* pinned */
  "list": [
    1, // one
    2,
  ],
}
`;

  it.each([
    [
      "appends a key after the last one, keeping the trailing comma style",
      (v: Record<string, unknown>) => (v.added = { a: [1] }),
      `{
  // the model
  "model": "opus", /* pinned */
  "list": [
    1, // one
    2,
  ],
  "added": {
    "a": [
      1
    ]
  },
}
`,
    ],
    [
      "appends to a list after the last element's comment-free line",
      (v: Record<string, unknown>) => (v.list as number[]).push(3),
      `{
  // the model
  "model": "opus", /* pinned */
  "list": [
    1, // one
    2,
    3,
  ],
}
`,
    ],
    [
      "removes an element with its line, keeping the comment of the one before",
      (v: Record<string, unknown>) => (v.list as number[]).pop(),
      `{
  // the model
  "model": "opus", /* pinned */
  "list": [
    1, // one
  ],
}
`,
    ],
    [
      "changes a value in place, keeping the comment after it",
      (v: Record<string, unknown>) => (v.model = "sonnet"),
      commented.replace('"opus"', '"sonnet"'),
    ],
    [
      "removes a key with its line",
      (v: Record<string, unknown>) => delete v.list,
      `{
  // the model
  "model": "opus", /* pinned */
}
`,
    ],
  ])("%s", (_name, change, expected) => {
    expect(edit(commented, change)).toBe(expected);
  });

  it("adds a comma after the last member of a file without trailing commas, and takes it away again", () => {
    const plain = '{\n    "a": 1,\n    "b": [\n        true\n    ]\n}\n';
    const four: JsonLayout = { indentUnit: "    ", eol: "\n" };
    const added = edit(plain, (v) => (v.c = { d: 2 }), four);
    expect(added).toBe('{\n    "a": 1,\n    "b": [\n        true\n    ],\n    "c": {\n        "d": 2\n    }\n}\n');
    expect(edit(added, (v) => delete v.c, four)).toBe(plain);
  });

  it("keeps CRLF line ends and tab indentation", () => {
    const tabs = '{\r\n\t"a": [\r\n\t\t1\r\n\t]\r\n}\r\n';
    const layout: JsonLayout = { indentUnit: "\t", eol: "\r\n" };
    expect(edit(tabs, (v) => (v.a as number[]).push(2), layout)).toBe('{\r\n\t"a": [\r\n\t\t1,\r\n\t\t2\r\n\t]\r\n}\r\n');
  });

  it("fills an empty object or list on lines of their own, and empties them back to {}", () => {
    const added = edit('{"hooks": {}}\n', (v) => ((v.hooks as Record<string, unknown>).Stop = [1]));
    expect(added).toBe('{"hooks": {\n  "Stop": [\n    1\n  ]\n}}\n');
    expect(edit(added, (v) => delete (v.hooks as Record<string, unknown>).Stop)).toBe('{"hooks": {}}\n');
  });

  it("lays out a compact, one-line file with jsonc-parser's formatter and still gets the value right", () => {
    const compact = '{"theme": "GitHub", "hooks": {"A": [1, 2]}}';
    const result = edit(compact, (v) => {
      (v.hooks as Record<string, number[]>).A?.push(3);
      v.more = true;
    });
    expect(valueOf(result)).toEqual({ theme: "GitHub", hooks: { A: [1, 2, 3] }, more: true });
  });

  it.each([
    ['{"a": [1, 2, 3]}', [2, 3], '{"a": [2, 3]}'],
    ['{"a": [1, 2, 3]}', [1, 3], '{"a": [1, 3]}'],
    ['{"a": [1, 2, 3]}', [1, 2], '{"a": [1, 2]}'],
    ['{"a": [1]}', [], '{"a": []}'],
  ])("removes from a one-line list %s → %j", (text, list, expected) => {
    expect(edit(text, (v) => (v.a = list))).toBe(expected);
  });

  it("gives exactly the value wanted, whatever the values and the layout (property)", () => {
    const noProto = (value: unknown): boolean => !JSON.stringify(value).includes("__proto__");
    const object = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 })).filter(noProto);
    fc.assert(
      fc.property(object, object, fc.constantFrom(0, 2, "\t"), (before, after, indent) => {
        const text = JSON.stringify(before, null, indent);
        const layout: JsonLayout = { indentUnit: indent === 0 ? "  " : String(indent === 2 ? "  " : "\t"), eol: "\n" };
        expect(valueOf(rewriteJson(text, before, after, layout))).toEqual(JSON.parse(JSON.stringify(after)));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });

  it("changes an element in place and removes one further on in the same list", () => {
    const text = '[\n  {"k": 1},\n  {"k": 2},\n  {"k": 3}\n]\n';
    const before = valueOf(text);
    const result = rewriteJson(text, before, [{ k: 1 }, { k: 20 }], TWO);
    expect(result).toBe('[\n  {"k": 1},\n  {"k": 20}\n]\n');
  });
});

/** Line and block comments everywhere; trailing commas only where the agent's own parser accepts them (unknown: yes). */
function commentedSettings(agent: JsonAgent): string {
  const trailing = agent === "cursor" ? "," : "";
  const flat = agent === "cursor" || agent === "copilot";
  return `// ${agent} settings, kept by hand
{
  /* which version of the file */
  ${flat ? '"version": 1,' : '"description": "team",'} // a note after a value
  "hooks": {
    // the team's own guard
    "${INSTALLERS[agent].defaultEvents[0]}": [
      ${agent === "cursor" ? '{ "command": "./guard.sh" }' : agent === "copilot" ? '{ "type": "command", "bash": "./guard.sh" }' : '{ "hooks": [ { "type": "command", "command": "./guard.sh" } ] }'}${trailing} /* inline */
    ]${trailing}
  }${trailing}
}
`;
}

/** opencode's entry is a plugin file, not a JSON config (opencode-install.test.ts). */
type JsonAgent = Exclude<InstallAgent, "opencode">;

describe.each(INSTALL_AGENTS.filter((agent): agent is JsonAgent => agent !== "opencode"))("a %s config with comments", (agent) => {
  const original = commentedSettings(agent);

  it("is edited with its comments kept, the entries added, and still parses", () => {
    const plan = planInstall(agent, original);
    expect(plan.changed).toBe(true);
    for (const comment of [
      `// ${agent} settings, kept by hand`,
      "/* which version of the file */",
      "// a note after a value",
      "// the team's own guard",
      "/* inline */",
    ]) {
      expect(plan.text).toContain(comment);
    }
    const hooks = (valueOf(plan.text) as { hooks: Record<string, unknown[]> }).hooks;
    expect(Object.keys(hooks)).toEqual(INSTALLERS[agent].defaultEvents);
    expect(JSON.stringify(hooks[INSTALLERS[agent].defaultEvents[0] as string])).toContain("./guard.sh");
    expect(planInstall(agent, plan.text).changed).toBe(false);
  });

  it("goes back to the original text, byte for byte, when Hookbox's entries are removed", () => {
    expect(planUninstall(agent, planInstall(agent, original).text).text).toBe(original);
  });
});

describe("syntax the agent itself refuses", () => {
  it("is kept, and the summary says the agent will not read the file", () => {
    expect(planInstall("claude", '{\n  // note\n  "model": "opus"\n}\n').summary.join("\n")).toMatch(
      /has comments, which the agent does not accept: Claude Code ignores all of it/,
    );
    expect(planInstall("gemini", '{\n  "theme": "x",\n}\n').summary.join("\n")).toMatch(
      /has trailing commas, which the agent does not accept: Gemini CLI/,
    );
    expect(planInstall("gemini", '{\n  // note\n  "theme": "x"\n}\n').summary.join("\n")).not.toMatch(/does not accept/);
    expect(planInstall("codex", '{\n  /* note */\n  "hooks": {}\n}\n').summary.join("\n")).toMatch(
      /comments, which the agent does not accept: Codex refuses/,
    );
  });
});
