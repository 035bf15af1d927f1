import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AGENTS as TABLE } from "../../src/agents/index.ts";
import { INSTALL_AGENTS as INSTALLED, INSTALL_SCOPES, type InstallScope } from "../../src/agents/installers.ts";
import { CLIENTS } from "../e2e/agents/clients.ts";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { ROOT } from "../helpers/daemon.ts";

// docs/agents.md against the agent table and the binary. The agent list is the agent table's
// (src/agents/table.ts, exported by src/agents/index.ts): every row, and the rows with an installer
// (the agents `install-agent` configures). Beside it, hookbox/agent-sdk (src/agent-sdk) runs
// Claude's dialect in the SDK's own process, with no install target. Every agent must have its section (a `## ` heading ending in
// its name in backticks), every install target its row, and every file the docs name — the
// table's cells and each `hookbox install-agent … # <path>` line in docs/agents.md and README.md —
// must be the file `dist/hookbox install-agent <agent> --dry-run --json` reports, run in a
// temporary HOME and project.

const DOC = readFileSync(join(ROOT, "docs/agents.md"), "utf8");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const BESIDE_THE_TABLE = ["hookbox/agent-sdk"];
const INSTALL_AGENTS: readonly string[] = INSTALLED;
const AGENTS = TABLE.map((row) => row.name);

interface Section {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** The `## ` sections whose heading ends in a name in backticks: `## Claude Code · \`claude\``. */
function agentSections(markdown: string): Section[] {
  const sections: Section[] = [];
  const parts = markdown.split(/^(?=## )/m);
  for (const part of parts) {
    const heading = /^## (.*?)`([^`]+)`\s*$/m.exec(part.split("\n")[0] ?? "");
    if (heading) sections.push({ id: heading[2] as string, title: (heading[1] as string).replace(/[\s·—-]+$/, ""), text: part });
  }
  return sections;
}

/** The code spans of a table cell or a line. */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
}

interface InstallRow {
  readonly agent: string;
  readonly scopes: Readonly<Record<InstallScope, string>>;
  readonly testedWith: string;
}

/** The table under "Where `install-agent` writes": one row per agent, a cell per scope. */
function installTable(markdown: string): InstallRow[] {
  const start = markdown.indexOf("### Where `install-agent` writes");
  expect(start, 'docs/agents.md has no "Where `install-agent` writes" section').toBeGreaterThan(-1);
  const lines = markdown.slice(start).split("\n");
  const headerAt = lines.findIndex((line) => line.startsWith("|"));
  const header = cells(lines[headerAt] as string);
  const column = (label: string): number => {
    const index = header.findIndex((cell) => cell.includes(label));
    expect(index, `the install table has no ${label} column`).toBeGreaterThan(-1);
    return index;
  };
  const scopes = Object.fromEntries(INSTALL_SCOPES.map((scope) => [scope, column(`\`--${scope}\``)])) as Record<InstallScope, number>;
  const tested = column("tested with");
  const rows: InstallRow[] = [];
  for (const line of lines.slice(headerAt + 2)) {
    if (!line.startsWith("|")) break;
    const row = cells(line);
    rows.push({
      agent: codeSpans(row[0] as string)[0] ?? (row[0] as string),
      scopes: Object.fromEntries(INSTALL_SCOPES.map((scope) => [scope, row[scopes[scope]] as string])) as Record<InstallScope, string>,
      testedWith: row[tested] as string,
    });
  }
  return rows;
}

/** The client version the e2e suites pin for an agent: package.json for Claude Code and Gemini CLI, test/e2e/agents/clients.ts for the rest. */
function pinnedVersion(agent: string): string | undefined {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
    optionalDependencies: Record<string, string>;
  };
  if (agent === "claude") return pkg.optionalDependencies["@anthropic-ai/claude-code-linux-x64"];
  if (agent === "gemini") return pkg.devDependencies["@google/gemini-cli"];
  if (agent === "hookbox/agent-sdk") return CLIENTS["claude-agent-sdk"].version;
  return (CLIENTS as Readonly<Record<string, { readonly version: string }>>)[agent]?.version;
}

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-docs-agents-")));
const HOME = join(scratch, "home");
const PROJECT = join(scratch, "project");
mkdirSync(HOME, { recursive: true });
mkdirSync(join(PROJECT, ".git"), { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A file as the docs write it — `~/…`, `$VARIABLE/…` or relative to the project — resolved, with the environment that path needs. */
function resolveDocPath(spec: string): { readonly path: string; readonly env: Readonly<Record<string, string>> } {
  if (spec.startsWith("~/")) return { path: join(HOME, spec.slice(2)), env: {} };
  const variable = /^\$([A-Z_][A-Z0-9_]*)\/(.+)$/.exec(spec);
  if (variable) {
    const dir = join(scratch, "env", variable[1] as string);
    return { path: join(dir, variable[2] as string), env: { [variable[1] as string]: dir } };
  }
  return { path: spec.startsWith("/") ? spec : join(PROJECT, spec), env: {} };
}

interface DryRun {
  readonly code: number | null;
  readonly stderr: string;
  /** The agent's own file in the --json answer: `file`, ignoring Hookbox's own operator file should the answer name one too. */
  readonly target?: string;
}

/** Every `file`/`files` path in the answer, at any depth. */
function namedFiles(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(namedFiles);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    (key === "file" || key === "files") && (typeof inner === "string" || Array.isArray(inner))
      ? [inner].flat().filter((f): f is string => typeof f === "string")
      : namedFiles(inner),
  );
}

/** Hookbox's own configuration (the operator file install-agent may create beside the agent's file), never an agent's target. */
function isHookboxOwn(path: string, env: Readonly<Record<string, string>>): boolean {
  const configHome = env.XDG_CONFIG_HOME ?? join(HOME, ".config");
  return path.startsWith(join(configHome, "hookbox") + "/");
}

async function dryRun(agent: string, flags: readonly string[], env: Readonly<Record<string, string>>): Promise<DryRun> {
  const args = ["install-agent", agent, ...flags.filter((flag) => flag !== "--dry-run" && flag !== "--json"), "--dry-run", "--json"];
  const run = await runProgram([BUILT_BINARY, ...args], { cwd: PROJECT, env: { PATH: "/usr/bin:/bin", HOME, ...env } });
  if (run.code !== 0) return { code: run.code, stderr: run.stderr };
  const answer = JSON.parse(run.stdout) as Record<string, unknown>;
  const top = typeof answer.file === "string" && !isHookboxOwn(answer.file, env) ? [answer.file] : [];
  const targets = top.length > 0 ? top : [...new Set(namedFiles(answer).filter((file) => !isHookboxOwn(file, env)))];
  expect(targets, `install-agent ${args.join(" ")} names one file of the agent's: ${run.stdout.slice(0, 400)}`).toHaveLength(1);
  return { code: 0, stderr: run.stderr, target: targets[0] };
}

interface InstallLine {
  readonly doc: string;
  readonly line: string;
  readonly agent: string;
  readonly flags: readonly string[];
  readonly file: string;
}

/** `hookbox install-agent <agent> [flags]   # <path>…` in a fenced block, where the comment starts with a path. */
function installLines(doc: string, markdown: string): InstallLine[] {
  const found: InstallLine[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    if (!fenced) continue;
    const match = /^\s*(?:\$ )?hookbox install-agent (\S+)((?:\s+(?!#)\S+)*)\s+#\s+(\S+)/.exec(line);
    const file = match?.[3]?.replace(/[,:;.)]+$/, "");
    if (!match || file === undefined || !/^(~\/|\$[A-Z_]+\/|\.|\/)/.test(file)) continue;
    found.push({ doc, line: line.trim(), agent: match[1] as string, flags: (match[2] as string).trim().split(/\s+/).filter(Boolean), file });
  }
  return found;
}

describe("docs/agents.md and the agent table (src/agents/table.ts)", () => {
  const sections = agentSections(DOC);
  const rows = installTable(DOC);

  it("finds the table, the sections and the install rows (the parsing works)", () => {
    expect(AGENTS).toEqual(expect.arrayContaining(["claude", "gemini", "codex", "copilot", "qwen", "opencode", "cursor", "native"]));
    expect(sections.map((section) => section.id)).toContain("claude");
    expect(rows.find((row) => row.agent === "claude")?.scopes.local).toBe("`.claude/settings.local.json`");
  });

  it("has a section for every agent in the table (and hookbox/agent-sdk beside it), and none for an agent that is not there", () => {
    const ids = sections.map((section) => section.id);
    expect(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      "an agent with two sections",
    ).toEqual([]);
    expect([...ids].sort()).toEqual([...AGENTS, ...BESIDE_THE_TABLE].sort());
  });

  it("titles each install target's section with the product's name the table gives it", () => {
    const titles = Object.fromEntries(sections.map((section) => [section.id, section.title]));
    expect(Object.fromEntries(INSTALL_AGENTS.map((agent) => [agent, titles[agent]]))).toEqual(
      Object.fromEntries(TABLE.filter((row) => INSTALL_AGENTS.includes(row.name)).map((row) => [row.name, row.displayName])),
    );
  });

  it("has an install row for every agent install-agent configures, and none for another", () => {
    expect(rows.map((row) => row.agent).sort()).toEqual([...INSTALL_AGENTS].sort());
  });

  it("names, for every agent and scope, the file install-agent --dry-run --json reports; a scope the agent lacks is a usage error", async () => {
    const wrong: string[] = [];
    for (const row of rows) {
      for (const scope of INSTALL_SCOPES) {
        const cell = row.scopes[scope];
        const specs = codeSpans(cell);
        if (specs.length === 0) {
          const run = await dryRun(row.agent, [`--${scope}`], {});
          if (run.code !== 2)
            wrong.push(
              `${row.agent} --${scope}: the table says the agent has no such scope, install-agent exited ${run.code} (${run.target ?? run.stderr.trim()})`,
            );
          continue;
        }
        expect(
          specs.filter((spec) => !spec.startsWith("$")),
          `${row.agent} --${scope}: one default file in "${cell}"`,
        ).toHaveLength(1);
        for (const spec of specs) {
          const expected = resolveDocPath(spec);
          const run = await dryRun(row.agent, [`--${scope}`], expected.env);
          if (run.target !== expected.path)
            wrong.push(
              `${row.agent} --${scope}${Object.keys(expected.env)
                .map((name) => ` with ${name} set`)
                .join("")}: the table says ${spec}, install-agent writes ${run.target ?? `nothing (exit ${run.code}: ${run.stderr.trim()})`}`,
            );
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("names, in every `hookbox install-agent … # <file>` line of docs/agents.md and README.md, the file install-agent writes", async () => {
    const lines = [...installLines("docs/agents.md", DOC), ...installLines("README.md", README)];
    expect(lines.length).toBeGreaterThan(INSTALL_AGENTS.length);
    const wrong: string[] = [];
    for (const line of lines) {
      const expected = resolveDocPath(line.file);
      const run = await dryRun(line.agent, line.flags, expected.env);
      if (run.target !== expected.path)
        wrong.push(`${line.doc}: \`${line.line}\`: install-agent writes ${run.target ?? `nothing (exit ${run.code}: ${run.stderr.trim()})`}`);
    }
    expect(wrong).toEqual([]);
  });

  it("shows, in each agent's own section, how to install it: an install-agent line naming its file", () => {
    const missing = INSTALL_AGENTS.filter((agent) => {
      const section = sections.find((candidate) => candidate.id === agent);
      return !section || !installLines("docs/agents.md", section.text).some((line) => line.agent === agent);
    });
    expect(missing).toEqual([]);
  });

  it("names the client version the e2e suites pin (package.json, test/e2e/agents/clients.ts), or says the agent was not run", () => {
    const wrong: string[] = [];
    for (const row of rows) {
      const version = pinnedVersion(row.agent);
      const section = sections.find((candidate) => candidate.id === row.agent)?.text ?? "";
      const expected = version ?? "not run";
      if (!row.testedWith.includes(expected))
        wrong.push(`${row.agent}: the table says "${row.testedWith}", the pinned version is ${version ?? "none"}`);
      if (!section.toLowerCase().includes(expected.toLowerCase())) wrong.push(`${row.agent}: its section does not say ${expected}`);
    }
    const sdk = pinnedVersion("hookbox/agent-sdk") as string;
    if (!sections.find((section) => section.id === "hookbox/agent-sdk")?.text.includes(sdk))
      wrong.push(`hookbox/agent-sdk: its section does not name the SDK version tested, ${sdk}`);
    expect(wrong).toEqual([]);
  });

  it("is what the README's agent list points to: the README names every agent that has an install target, and the Agent SDK", () => {
    const names = sections
      .filter((section) => INSTALL_AGENTS.includes(section.id) || BESIDE_THE_TABLE.includes(section.id))
      .map((section) => section.title);
    expect(names).toContain("Claude Agent SDK");
    expect(names.filter((name) => !README.includes(name))).toEqual([]);
  });

  it("says, in every cell of the table of events and answers beyond deny, works, partly or not possible in that agent, and why", () => {
    const start = DOC.indexOf("### Events and answers beyond deny");
    expect(start, 'docs/agents.md has no "Events and answers beyond deny" table').toBeGreaterThan(-1);
    const lines = DOC.slice(start).split("\n");
    const headerAt = lines.findIndex((line) => line.startsWith("|"));
    const agents = cells(lines[headerAt] as string)
      .slice(1)
      .map((cell) => codeSpans(cell)[0]);
    expect([...agents].sort()).toEqual([...INSTALL_AGENTS].sort());
    const rows = lines.slice(headerAt + 2).filter((line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("|")));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const [capability, ...verdicts] = cells(row);
      expect(verdicts.length, capability).toBe(agents.length);
      verdicts.forEach((cell, i) => expect(cell, `${capability} in ${agents[i]}`).toMatch(/^\*\*(works|partly|not possible)\*\*: \S/));
    }
  });
});
