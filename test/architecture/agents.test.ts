import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { AGENT_CONFIG_DIRS, agentDirsOf, configDirsOf } from "../../src/agents/config-dirs.ts";
import { DOCTORS, doctorsOf } from "../../src/agents/doctor.ts";
import { HISTORY_AGENTS, historiesOf, recognitionOrderOf } from "../../src/agents/histories.ts";
import { COMMAND_READINGS, guessOf, IMPORT_AGENTS, importersOf } from "../../src/agents/importers.ts";
import { INSTALL_AGENTS, installersOf } from "../../src/agents/installers.ts";
import { MANAGED_SETTINGS, managedOf } from "../../src/agents/managed.ts";
import {
  AGENT_NAMES,
  DETECTION_ORDER,
  detectionOrderOf,
  FALLBACK_AGENT,
  fallbackOf,
  PROJECT_DIR_ENV,
  projectDirEnvOf,
  PROTOCOLS,
  protocolsOf,
} from "../../src/agents/protocols.ts";
import { groupedImporter } from "../../src/agents/shared/import/grouped.ts";
import { detector } from "../../src/agents/shared/protocol/detect.ts";
import { eventTable } from "../../src/agents/shared/protocol/event-names.ts";
import { jsonOutput } from "../../src/agents/shared/protocol/output.ts";
import type { AgentProtocol } from "../../src/agents/shared/protocol/types.ts";
import type { AgentRow } from "../../src/agents/shared/row.ts";
import { AGENTS } from "../../src/agents/table.ts";
import { identityOf } from "../../src/decide/identity.ts";
import { selfProtectMachine } from "../../src/decide/self-protect.ts";
import { fixtureSchema } from "../../src/decide/testing/fixture.ts";
import { resolveLocations } from "../../src/hooks/config/locations.ts";
import { IMPORT_DIALECTS } from "../../src/hooks/packages/import/index.ts";
import { IMPORTED_HANDLER } from "../../src/hooks/packages/import/handler-source.ts";
import { BUILT_BINARY } from "../helpers/binary.ts";

// "Adding an agent is one folder and one table row" (issue 29), held to:
//
// 1. An agent contributes its folder, src/agents/<name>/, and its row in src/agents/table.ts.
//    Every other list of agents is derived from the table: the test below adds a made-up agent
//    to the rows, in memory, and finds it in every derived view.
//
// 2. No agent's name is written anywhere else in src/. The rule, precisely: parse every
//    TypeScript file of src/ (the TypeScript compiler's AST) and look at its code — identifiers
//    (names of variables, functions, types, properties, object keys) and the string, template and
//    regular-expression literals that hold no white space (a key, a path, an event name, an
//    environment variable, a URL, an import path). Split each into words (at anything not a
//    letter or digit, and at camelCase humps) and fail on a word that is an agent's name, in any
//    case: `"claude"`, `claudeInstaller`, `CLAUDE_CONFIG_DIR`, `"../agents/codex/trust.ts"`.
//    Outside the rule: comments, and prose — literals with white space in them (help, messages,
//    descriptions: they name products for a reader, who is served by their being current, which
//    the docs test and review watch; a branch on an agent is code, and is caught). "native" is
//    Hookbox's own dialect, whose name is a plain word of the domain (native events): not checked.
//    Also outside: the generated files of src/hooks/builtin (built from handlers/, which is its
//    own world), and the files EXCEPTIONS names, each with its reason.
//
// 3. Agents' folders stand alone: a folder imports only its own files, src/agents/shared, and
//    layers below (src/core, src/platform's types, sandbox/'s entry point), never another agent's
//    folder, nor a view of the table; src/agents/shared imports no agent's folder. Inside its own
//    folder an agent may name others (Qwen Code forked Gemini CLI and sets GEMINI_PROJECT_DIR):
//    that is what it knows of its own dialect, and removing the other agent breaks nothing there.

const ROOT = resolve(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");
const AGENTS_DIR = join(SRC, "agents");

/** Checked names: every row's, but Hookbox's own dialect's. */
const CHECKED = AGENTS.map((row) => row.name).filter((name) => name !== "native");

const EXCEPTIONS: Readonly<Record<string, string>> = {
  "src/agent-sdk/":
    "hookbox/agent-sdk is the Claude Agent SDK's adapter (its own package entry point): one agent's library by definition, above the table's layer",
  "src/core/text/secrets.ts":
    "credential-variable prefixes of vendors (ANTHROPIC, OPENAI, CLAUDE_CODE, GEMINI, CURSOR …): issuers of secrets, not agents; core sits below the agent table",
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") || path.endsWith(".tsx") ? [path] : [];
  });
}

const rel = (path: string): string => relative(ROOT, path);

/** The words of an identifier or a code token: split at non-alphanumerics and camelCase humps, lower-cased. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

interface Naming {
  readonly line: number;
  readonly agent: string;
  readonly token: string;
}

/** The code tokens of a TypeScript text that name one of `names` (the rule above). */
export function agentNamings(fileName: string, text: string, names: readonly string[]): Naming[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Naming[] = [];
  const check = (node: ts.Node, token: string): void => {
    const agent = wordsOf(token).find((word) => names.includes(word));
    if (agent !== undefined) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, agent, token: token.slice(0, 80) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) check(node, node.text);
    else if (ts.isRegularExpressionLiteral(node)) check(node, node.text);
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
      if (!/\s/.test(node.text)) check(node, node.text);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/** The folder an agent owns, and the row that names it. */
function contribution(name: string): { folder: string; files: string[] } {
  const folder = join(AGENTS_DIR, name);
  return { folder: rel(folder), files: filesUnder(folder).map(rel).sort() };
}

describe("the agent table", () => {
  it("lists what each agent contributes: its folder and its row, and nothing else", () => {
    const folders = readdirSync(AGENTS_DIR).filter((name) => name !== "shared" && statSync(join(AGENTS_DIR, name)).isDirectory());
    expect([...folders].sort()).toEqual(AGENTS.map((row) => row.name).sort());
    const listing = AGENTS.map((row) => {
      const { folder, files } = contribution(row.name);
      const parts = (["protocol", "installer", "trust", "importer", "doctor", "history", "managed", "noManaged", "configDir"] as const).filter(
        (part) => part in row,
      );
      return `${row.name} (${row.displayName}): src/agents/table.ts row [${parts.join(", ")}] + ${folder}/ {${files.map((file) => file.slice(folder.length + 1)).join(", ")}}`;
    });
    console.log(`What each agent contributes:\n  ${listing.join("\n  ")}`);
    for (const row of AGENTS) expect(contribution(row.name).files.length, row.name).toBeGreaterThan(0);
  });

  it("names each agent's code by the row's name", async () => {
    for (const row of AGENTS as readonly AgentRow[]) {
      if (row.protocol) expect(row.protocol.name).toBe(row.name);
      if (row.installer) expect((await row.installer()).installer.agent).toBe(row.name);
      if (row.protocol) expect(row.detection, `${row.name} has a protocol: detection must rank it`).toBeTypeOf("number");
      if (row.installer) expect(row.doctor, `${row.name} has an installer: doctor must know how to probe it`).toBeDefined();
    }
    const ranks = AGENTS.flatMap((row) => ("detection" in row ? [row.detection] : []));
    expect(new Set(ranks).size).toBe(ranks.length);
  });

  it("is the only list of agents in src/: no agent's name in code outside its folder and the table", () => {
    const own = new Set(AGENTS.map((row) => join(AGENTS_DIR, row.name)));
    const files = filesUnder(SRC).filter((file) => {
      const path = rel(file);
      if (own.has(dirname(file)) || [...own].some((folder) => file.startsWith(`${folder}/`))) return false;
      if (path === "src/agents/table.ts" || path.endsWith(".generated.ts")) return false;
      return !Object.keys(EXCEPTIONS).some((exception) => path === exception || (exception.endsWith("/") && path.startsWith(exception)));
    });
    expect(files.length).toBeGreaterThan(200);
    const violations = files.flatMap((file) =>
      agentNamings(file, readFileSync(file, "utf8"), CHECKED).map(({ line, agent, token }) => `${rel(file)}:${line}: ${agent} in ${token}`),
    );
    expect(violations).toEqual([]);
  });

  it("the rule reads code, not comments or prose", () => {
    const sample = [
      "// claude is mentioned in a comment",
      "/** Codex's trust, in a doc comment. */",
      'const help = "Claude Code reads this sentence";',
      "const prose = `${name}: for Codex only`;",
      'const key = "gemini";',
      "const codexTrust = 1;",
      'const path = "../agents/qwen/protocol.ts";',
      "const variable = process.env.COPILOT_HOME;",
      "const pattern = /\\.cursor\\//;",
      "const tpl = `opencode-${x}`;",
    ].join("\n");
    expect(agentNamings("sample.ts", sample, CHECKED).map(({ line, agent }) => `${line} ${agent}`)).toEqual([
      "5 gemini",
      "6 codex",
      "7 qwen",
      "8 copilot",
      "9 cursor",
      "10 opencode",
    ]);
  });

  it("keeps agents' folders standalone: own files, src/agents/shared and the layers below", () => {
    const allowed = (from: string, to: string, typeOnly: boolean): boolean => {
      const folder = dirname(from).startsWith(join(AGENTS_DIR, "shared"))
        ? join(AGENTS_DIR, "shared")
        : join(AGENTS_DIR, relative(AGENTS_DIR, from).split("/")[0] as string);
      return (
        to.startsWith(`${folder}/`) ||
        to.startsWith(`${join(AGENTS_DIR, "shared")}/`) ||
        to.startsWith(`${join(SRC, "core")}/`) ||
        (typeOnly && (to.startsWith(`${join(SRC, "platform")}/`) || to === join(AGENTS_DIR, "table.ts"))) ||
        to === join(ROOT, "sandbox/index.ts")
      );
    };
    const problems: string[] = [];
    const folders = [...AGENTS.map((row) => join(AGENTS_DIR, row.name)), join(AGENTS_DIR, "shared")];
    for (const file of folders.flatMap(filesUnder)) {
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      for (const statement of source.statements) {
        if ((!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) continue;
        const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
        if (!specifier.startsWith(".")) continue; // a package (smol-toml)
        const typeOnly = ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly === true : statement.isTypeOnly;
        const to = resolve(dirname(file), specifier);
        if (!allowed(file, to, typeOnly)) problems.push(`${rel(file)} imports ${rel(to)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps `hookbox emit`'s path to the protocols: a row's other parts are loaded by the views that use them", () => {
    // What src/cli/emit.ts loads, following value imports (not `import type`, not import()).
    const loaded = new Set<string>();
    const pending = [join(SRC, "cli/emit.ts")];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (loaded.has(file)) continue;
      loaded.add(file);
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      for (const statement of source.statements) {
        if ((!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) continue;
        if (ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly === true : statement.isTypeOnly) continue;
        const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
        if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier));
      }
    }
    expect(loaded.has(join(AGENTS_DIR, "protocols.ts"))).toBe(true);
    const parts = /^src\/agents\/(installers|importers|doctor|histories)\.ts$|^src\/agents\/[^/]+\/(install|import|doctor|history|trust[^/]*)\.ts$/;
    expect([...loaded].map(rel).filter((path) => parts.test(path))).toEqual([]);
  });

  // installers.ts, importers.ts and doctor.ts load the rows' parts with a top-level await. In the
  // binary (ESM chunks precompiled to bytecode) that is safe where the await is in the chunk's own
  // text; an await the bundler prints (`await init_x()`, a TLA module wrapped because it is also
  // import()ed) is not flagged as one, and the chunk stops at it and exits 0 (oven-sh/bun#37770).
  if (!existsSync(BUILT_BINARY)) console.log(`skipped: the binary's awaits: no ${rel(BUILT_BINARY)} (node scripts/bun.mjs build.ts)`);
  it.skipIf(!existsSync(BUILT_BINARY))("builds into a binary with no await the bundler printed (dist/hookbox; skipped when not built)", () => {
    expect(readFileSync(BUILT_BINARY).includes("await init_")).toBe(false);
  });
});

/** A made-up agent, complete: every part a row can have. */
function acmeRow(): AgentRow {
  const events = eventTable({ AcmeBeforeTool: "PreToolUse" });
  const protocol = {
    name: "acme",
    events,
    tools: { acme_shell: "Bash" },
    projectDirEnv: ["ACME_PROJECT_DIR"],
    detect: (payload: unknown) => typeof payload === "object" && payload !== null && "acme_event" in payload,
    decode: () => ({ v: 1, event_type: "PreToolUse", event_id: "e", timestamp: "2026-01-01T00:00:00Z", agent: "acme" }),
    encode: () => jsonOutput({}),
    acceptsRewrite: () => false,
    failure: () => jsonOutput({}),
  } as unknown as AgentProtocol;
  return {
    name: "acme",
    displayName: "Acme Agent",
    protocol,
    detection: 0,
    configDir: { env: "ACME_HOME", home: ".acme" },
    installer: async () => ({
      installer: {
        agent: "acme" as never,
        defaultEvents: ["AcmeBeforeTool"],
        configPath: (scope, dirs) => (scope === "user" ? `${dirs.configDir}/hooks.json` : undefined),
        planInstall: () => ({ text: "", changed: false, summary: [] }),
        planUninstall: () => ({ text: "", changed: false, summary: [] }),
      },
    }),
    importer: async () => ({
      importer: groupedImporter({
        name: "acme" as never,
        label: "Acme Agent",
        protocol,
        defaultTimeoutMs: 1000,
        timeoutUnit: "s",
        matchers: "patterns",
        reading: COMMAND_READINGS.claude,
        projectVariables: ["ACME_PROJECT_DIR"],
        pluginRootVariables: [],
        guess: { order: 0, matches: (path) => path.includes("/.acme/") },
      }),
    }),
    history: async () => ({
      history: {
        agent: "acme" as never,
        recognizeOrder: 0,
        where: "Acme's sessions: $ACME_HOME (else ~/.acme)/sessions",
        sessionsOf: async (_project, places) => [`${places.configDir}/sessions/one.jsonl`],
        recognizes: (path) => path.includes("/.acme/"),
        read: async () => ({ calls: [], problems: [], lines: 0 }),
      },
    }),
    doctor: async () => ({ doctor: { probe: { event: "AcmeBeforeTool", payload: (project) => ({ acme_event: "AcmeBeforeTool", cwd: project }) } } }),
    managed: async () => ({
      managed: {
        agent: "acme" as never,
        label: "Acme system settings",
        path: (root) => `${root}etc/acme/settings.json`,
        planInstall: () => ({ text: "", changed: false, summary: [], added: [] }),
        planUninstall: () => ({ text: "", changed: false, summary: [] }),
        holds: "Acme runs its system settings' hooks first.",
        cannot: [],
        checked: "made up",
      },
    }),
  };
}

describe("adding an agent is one folder and one table row", () => {
  const rows: readonly AgentRow[] = [...AGENTS, acmeRow()];
  const acme = rows.at(-1) as AgentRow;

  it("the views are the table's rows, derived", async () => {
    expect(PROTOCOLS).toEqual(protocolsOf(AGENTS));
    expect(AGENT_NAMES).toEqual(Object.keys(protocolsOf(AGENTS)));
    expect(DETECTION_ORDER).toEqual(detectionOrderOf(AGENTS));
    expect(FALLBACK_AGENT).toBe(fallbackOf(AGENTS));
    expect(PROJECT_DIR_ENV).toEqual(projectDirEnvOf(AGENTS));
    expect(INSTALL_AGENTS).toEqual(Object.keys(await installersOf(AGENTS)));
    expect(AGENT_CONFIG_DIRS).toEqual(configDirsOf(AGENTS));
    expect(IMPORT_AGENTS).toEqual(Object.keys(await importersOf(AGENTS)));
    expect(DOCTORS).toEqual(await doctorsOf(AGENTS));
    expect(HISTORY_AGENTS).toEqual(Object.keys(await historiesOf(AGENTS)));
    expect(MANAGED_SETTINGS).toEqual(await managedOf(AGENTS));
    // Views outside src/agents take the lists from there.
    expect(fixtureSchema.shape.agent.unwrap().options).toEqual([...AGENT_NAMES]);
    expect(IMPORT_DIALECTS).toEqual([...IMPORT_AGENTS, "template"]);
    for (const agent of IMPORT_AGENTS) expect(IMPORTED_HANDLER).toContain(`"${agent}":${JSON.stringify(COMMAND_READINGS[agent])}`);
  });

  it("a new row appears in every view: emit's dialects, detection, install-agent, import, doctor, replay's histories, the config directories", async () => {
    const installers = await installersOf(rows);
    const importers = await importersOf(rows);
    expect(protocolsOf(rows).acme).toBe(acme.protocol);
    expect(detectionOrderOf(rows)[0]).toBe(acme.protocol);
    expect(detector(detectionOrderOf(rows))({ acme_event: "AcmeBeforeTool" })).toBe("acme");
    // Its tool names are foreign to the others: a payload shaped like Claude's naming acme_shell is no dialect Hookbox knows.
    expect(detector(detectionOrderOf(rows))({ hook_event_name: "PreToolUse", tool_name: "acme_shell" })).toBeUndefined();
    expect(projectDirEnvOf(rows)).toEqual([...PROJECT_DIR_ENV, "ACME_PROJECT_DIR"]);
    expect(fallbackOf(rows)).toBe(FALLBACK_AGENT);
    expect(installers.acme?.configPath("user", { home: "/home/dev", project: "/p", env: {} })).toBe("/home/dev/.acme/hooks.json");
    expect(installers.acme?.configPath("user", { home: "/home/dev", project: "/p", env: { ACME_HOME: "/opt/acme" } })).toBe("/opt/acme/hooks.json");
    expect(Object.keys(installers)).toEqual([...INSTALL_AGENTS, "acme"]);
    expect(configDirsOf(rows).at(-1)).toEqual({ agent: "acme", displayName: "Acme Agent", env: "ACME_HOME", location: "acme_home" });
    expect(agentDirsOf(rows, { env: { ACME_HOME: "state/acme" }, home: "/home/dev", project: "/p" })).toMatchObject({ acme: "/p/state/acme" });
    expect(Object.keys(importers)).toEqual([...IMPORT_AGENTS, "acme"]);
    expect(guessOf(importers, fallbackOf(rows))("/p/.acme/hooks.json", { hooks: {} })).toBe("acme");
    expect(guessOf(importers, fallbackOf(rows))("/p/settings.json", { hooks: {} })).toBe(FALLBACK_AGENT);
    expect((await doctorsOf(rows)).acme?.probe.event).toBe("AcmeBeforeTool");
    expect(Object.keys(await managedOf(rows))).toEqual([...Object.keys(MANAGED_SETTINGS), "acme"]);
    const histories = await historiesOf(rows);
    expect(Object.keys(histories)).toEqual([...HISTORY_AGENTS, "acme"]);
    expect(recognitionOrderOf(histories)[0]?.agent).toBe("acme");
    const noFs = { readText: async () => "", listDir: async () => [], kind: async () => "missing" };
    expect(await histories.acme?.sessionsOf("/p", { home: "/home/dev", env: { ACME_HOME: "/opt/acme" } }, noFs)).toEqual([
      "/opt/acme/sessions/one.jsonl",
    ]);
  });

  it("self-protect's locations and the hook set's identity carry every agent config directory, by the names self-protect's hook.yaml uses", () => {
    const home = "/home/dev";
    const locations = resolveLocations({ env: { HOME: home }, homeDir: () => home, cwd: () => "/p" }, {});
    expect(Object.keys(identityOf(locations, "b", home).agent_dirs)).toEqual(AGENT_CONFIG_DIRS.map(({ agent }) => agent));
    const machine = selfProtectMachine(locations, home, {}) as unknown as Record<string, unknown>;
    for (const { location } of AGENT_CONFIG_DIRS) expect(machine[location]).toBeTypeOf("string");
    const hookYaml = readFileSync(join(ROOT, "handlers/self-protect/hook.yaml"), "utf8");
    const used = new Set([...hookYaml.matchAll(/\$\{([a-z_]+)\}/g)].map((match) => match[1] as string));
    const agentLocations = [...used].filter((name) => /_(config_dir|home)$/.test(name) && name !== "config_home");
    // Each agent directory the hook protects is one the machine names, and each the table has is protected.
    expect(agentLocations.sort()).toEqual(AGENT_CONFIG_DIRS.map(({ location }) => location).sort());
  });
});
