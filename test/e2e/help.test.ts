import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitStatusHelp } from "../../src/cli/exit-codes.ts";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { README } from "../helpers/readme.ts";

/**
 * Every command's help reaches stdout whole, whatever stdout is: `hookbox --help > file` used to
 * write nothing most of the time (the process exited before its write was out). Run the way a
 * user does, from an empty directory, with stdout a file and a pipe.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hookbox-help-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

/** The binary with stdout redirected to a file, as `hookbox … > file` does. */
function runToFile(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = join(dir, `out-${args.join("-").replace(/[^a-z-]/g, "")}.txt`);
  const fd = openSync(file, "w");
  return new Promise((resolve, reject) => {
    const child = spawn(BUILT_BINARY, [...args], { cwd: dir, env: { HOME: dir }, stdio: ["ignore", fd, "pipe"] });
    closeSync(fd);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: readFileSync(file, "utf8"), stderr }));
  });
}

/** The command names `hookbox --help` lists. */
function commandsOf(help: string): string[] {
  const section = help.slice(help.indexOf("\nCommands:\n"));
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1] as string);
}

describe("help on stdout, to a file and to a pipe", () => {
  let commands: string[] = [];
  beforeAll(async () => {
    const listed = await runProgram([BUILT_BINARY, "--help"], { cwd: dir, env: { HOME: dir } });
    commands = commandsOf(listed.stdout).filter((name) => name !== "help");
  });

  it("hookbox --help lists the commands", () => {
    expect(commands).toEqual(expect.arrayContaining(["run", "validate", "new", "serve", "emit", "doctor"]));
  });

  const cases = (): string[][] => [["--help"], ["help"], ["--version"], ...commands.map((name) => [name, "--help"])];

  it("every command's --help, bare --help, help and --version: to a file, whole", async () => {
    for (const args of cases()) {
      const out = await runToFile(args);
      expect(out.code, `hookbox ${args.join(" ")} > file: ${out.stderr}`).toBe(0);
      expect(out.stdout, `hookbox ${args.join(" ")} > file`).toMatch(args[0] === "--version" ? /^\d+\.\d+\.\d+\n$/ : /^Usage: \S+.*\n[\s\S]*-h, --help/);
    }
  });

  it("the same through a pipe", async () => {
    for (const args of cases()) {
      const out = await runProgram([BUILT_BINARY, ...args], { cwd: dir, env: { HOME: dir } });
      expect(out.code, `hookbox ${args.join(" ")} | …: ${out.stderr}`).toBe(0);
      expect(out.stdout, `hookbox ${args.join(" ")} | …`).not.toBe("");
    }
  });
});

/** Commands whose output is not data, so --json would mean nothing; every other one must take it. */
const NOT_DATA: Readonly<Record<string, string>> = {
  serve: "runs the daemon; what it prints is a log",
  emit: "answers an agent in that agent's own protocol",
  completion: "prints a shell script",
  types: "prints a TypeScript declaration file",
  schema: "prints a JSON Schema, which is JSON already",
  openapi: "prints the OpenAPI document, which is JSON already",
};

describe("the command line tells the same truth everywhere", () => {
  let commands: string[] = [];
  let help = "";
  beforeAll(async () => {
    help = (await runProgram([BUILT_BINARY, "--help"], { cwd: dir, env: { HOME: dir } })).stdout;
    commands = commandsOf(help).filter((name) => name !== "help");
  });

  it("every command that prints data takes --json (a command group: each of its commands)", async () => {
    const missing: string[] = [];
    const visit = async (path: string[]): Promise<void> => {
      const out = await runProgram([BUILT_BINARY, ...path, "--help"], { cwd: dir, env: { HOME: dir } });
      const inner = out.stdout.includes("\nCommands:\n") ? commandsOf(out.stdout).filter((name) => name !== "help") : [];
      for (const name of inner) await visit([...path, name]);
      if (inner.length === 0 && !/^\s+--json\b/m.test(out.stdout)) missing.push(path.join(" "));
    };
    for (const name of commands.filter((c) => !(c in NOT_DATA))) await visit([name]);
    expect(missing, "commands that print data without --json (or add them to NOT_DATA with the reason)").toEqual([]);
    expect(commands).toEqual(expect.arrayContaining(["approve", "deny", "new", "show", "check", "list", "test", "run"]));
  });

  it("bare hookbox prints the help on stdout and exits 0", async () => {
    const bare = await runToFile([]);
    expect(bare.code).toBe(0);
    expect(bare.stderr).toBe("");
    expect(bare.stdout).toBe(help);
  });

  it("every exit code is in the top-level help and the README, from the one mapping (src/cli/exit-codes.ts)", () => {
    const table = exitStatusHelp();
    expect(table).toMatch(/^ {2}0 {2}.*\n {2}1 {2}.*\n {2}2 {2}.*\n {2}3 {2}/m);
    expect(help).toContain(table);
    expect(README).toContain(`\n\`\`\`\n${table}\`\`\`\n`);
  });

  it("the top-level help names the environment variables and --debug", () => {
    for (const word of ["HOOKBOX_SOCKET", "HOOKBOX_CONFIG", "--debug", "--json"]) expect(help).toContain(word);
  });
});
