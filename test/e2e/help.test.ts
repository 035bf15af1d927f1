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
      expect(out.stdout, `hookbox ${args.join(" ")} > file`).toMatch(
        args[0] === "--version" ? /^\d+\.\d+\.\d+\n$/ : /^Usage: \S+.*\n[\s\S]*-h, --help/,
      );
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

  it("-v, -V and --version print the version; the help says -v too", async () => {
    for (const flag of ["-v", "-V", "--version"]) {
      const out = await runProgram([BUILT_BINARY, flag], { cwd: dir, env: { HOME: dir } });
      expect(out.code, `${flag}: ${out.stderr}`).toBe(0);
      expect(out.stdout, flag).toMatch(/^\d+\.\d+\.\d+\n$/);
    }
    expect(JSON.parse((await runProgram([BUILT_BINARY, "-v", "--json"], { cwd: dir, env: { HOME: dir } })).stdout)).toMatchObject({
      v: 1,
      version: expect.any(String),
    });
    expect(help).toMatch(/-V, --version\s+print the version \(-v too\)/);
  });

  it("help <unknown> says unknown command, with a did-you-mean when one is close, and exits 2", async () => {
    const nope = await runProgram([BUILT_BINARY, "help", "nope"], { cwd: dir, env: { HOME: dir } });
    expect(nope.code).toBe(2);
    expect(nope.stdout).toBe("");
    expect(nope.stderr).toBe("error: unknown command 'nope'\n(run hookbox --help for usage)\n");
    const typo = await runProgram([BUILT_BINARY, "help", "valdate"], { cwd: dir, env: { HOME: dir } });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("error: unknown command 'valdate'\n(Did you mean validate?)");
    const known = await runProgram([BUILT_BINARY, "help", "validate"], { cwd: dir, env: { HOME: dir } });
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^Usage: hookbox validate/);
  });
});

/** An error object as every command prints it under --json (src/cli/report-error.ts). */
function jsonError(stderr: string): { v: number; error: { code: string; message: string; exit_code: number } } {
  const lines = stderr.trimEnd().split("\n");
  expect(lines, stderr).toHaveLength(1);
  return JSON.parse(lines[0] as string) as { v: number; error: { code: string; message: string; exit_code: number } };
}

describe("where the --http token comes from", () => {
  it("install-agent --help, serve --help and the error of --http without a token all say it", async () => {
    const install = await runProgram([BUILT_BINARY, "install-agent", "--help"], { cwd: dir, env: { HOME: dir } });
    expect(install.stdout.replace(/\s+/g, " ")).toContain(
      "the daemon's bearer token (the file hookbox serve --listen writes: ~/.local/share/hookbox/http-token, or its --token-file)",
    );
    expect(install.stdout).toContain('export HOOKBOX_TOKEN="$(cat ~/.local/share/hookbox/http-token)"');
    const serve = await runProgram([BUILT_BINARY, "serve", "--help"], { cwd: dir, env: { HOME: dir } });
    expect(serve.stdout.replace(/\s+/g, " ")).toContain("install-agent claude --http URL --token-env HOOKBOX_TOKEN");
    const missing = await runProgram([BUILT_BINARY, "install-agent", "claude", "--http", "http://127.0.0.1:8787", "--dry-run"], {
      cwd: dir,
      env: { HOME: dir },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "The token is what `hookbox serve --listen HOST:PORT` writes to its --token-file (default ~/.local/share/hookbox/http-token)",
    );
    expect(missing.stderr).toContain("--token-env HOOKBOX_TOKEN");
  });
});

describe("with --json, every error is one JSON object on stderr", () => {
  let commands: string[] = [];
  beforeAll(async () => {
    const listed = await runProgram([BUILT_BINARY, "--help"], { cwd: dir, env: { HOME: dir } });
    commands = commandsOf(listed.stdout).filter((name) => name !== "help" && !(name in NOT_DATA));
  });

  it("a usage error of every command that takes --json (an unknown flag): code usage, exit 2, nothing on stdout", async () => {
    const visit = async (path: string[]): Promise<void> => {
      const out = await runProgram([BUILT_BINARY, ...path, "--help"], { cwd: dir, env: { HOME: dir } });
      const inner = out.stdout.includes("\nCommands:\n") ? commandsOf(out.stdout).filter((name) => name !== "help") : [];
      for (const name of inner) await visit([...path, name]);
      if (inner.length > 0) return;
      const failed = await runProgram([BUILT_BINARY, ...path, "--json", "--no-such-flag"], { cwd: dir, env: { HOME: dir } });
      expect(failed.code, `hookbox ${path.join(" ")} --json --no-such-flag`).toBe(2);
      expect(failed.stdout, path.join(" ")).toBe("");
      // The flag, or a missing required option commander checks first (run --event).
      expect(jsonError(failed.stderr), path.join(" ")).toEqual({
        v: 1,
        error: {
          code: "usage",
          message: expect.stringMatching(/^(unknown option '--no-such-flag'|required option .* not specified)$/),
          exit_code: 2,
        },
      });
    };
    for (const name of commands) await visit([name]);
  });

  it("an error a command meets (not found, daemon unreachable) has its code and exit code; without --json it stays text", async () => {
    const missing = await runProgram([BUILT_BINARY, "show", "guard-secret", "--json"], { cwd: dir, env: { HOME: dir } });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(jsonError(missing.stderr).error).toMatchObject({
      code: "not_found",
      message: expect.stringContaining("did you mean guard-secrets?"),
      exit_code: 1,
    });
    const daemon = await runProgram([BUILT_BINARY, "approvals", "--json", "--socket", join(dir, "no-daemon.sock")], { cwd: dir, env: { HOME: dir } });
    expect(daemon.code).toBe(3);
    expect(jsonError(daemon.stderr).error).toMatchObject({ code: "daemon_unavailable", exit_code: 3 });
    const text = await runProgram([BUILT_BINARY, "approvals", "--socket", join(dir, "no-daemon.sock")], { cwd: dir, env: { HOME: dir } });
    expect(text.stderr).toMatch(/^error\[daemon_unavailable\]: /);
    const unknown = await runProgram([BUILT_BINARY, "nope", "--json"], { cwd: dir, env: { HOME: dir } });
    expect(jsonError(unknown.stderr).error).toEqual({ code: "usage", message: "unknown command 'nope'", exit_code: 2 });
  });
});
